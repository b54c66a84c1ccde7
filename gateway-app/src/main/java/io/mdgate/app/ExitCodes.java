package io.mdgate.app;

/**
 * The one rule for the exit codes of every mdgate command, documented in docs/OPERATIONS.md: {@link #SUCCESS},
 * {@link #FAILED} when the work went wrong while being done, {@link #USAGE} when the command line is wrong before
 * any work starts (an option, or a file or directory it names), and for {@code run} alone {@link #NO_SPACE} when the
 * journal's filesystem is full. Constants only.
 */
public final class ExitCodes
{
    /** The command did what was asked. */
    public static final int SUCCESS = 0;

    /**
     * The command line was right but the work failed: the host, the network or a peer refused, data read turned
     * out damaged, a write failed part-way, or the gateway stopped on an error.
     */
    public static final int FAILED = 1;

    /**
     * The command line is wrong, found before any work: an unknown option or command, a value out of range, a
     * configuration that does not load, or a named path that is missing, of the wrong kind (a directory for a
     * file), not readable or writable, or an output that already exists.
     */
    public static final int USAGE = 2;

    /**
     * {@code run} only: the journal's filesystem had no room for the next tick, at start or while running. The gateway
     * stopped before publishing a tick it could not journal; free space and start it again, and it resumes after the
     * last tick journaled. The unit does not restart on it ({@code RestartPreventExitStatus=3}).
     */
    public static final int NO_SPACE = 3;

    private ExitCodes()
    {
    }
}
