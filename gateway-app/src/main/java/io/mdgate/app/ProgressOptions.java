package io.mdgate.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.mdgate.app.journal.ProgressBar;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --progress} and {@code --no-progress}, shared by the commands that run for long ({@code record},
 * {@code sim}): progress goes to stderr, about once a second, only when the operator watches a terminal (stdout and
 * stderr both terminals: nothing is piped or redirected), unless {@code --progress} asks for it anyway; never to
 * stdout. A picocli mixin; read on the command's thread.
 */
public final class ProgressOptions
{
    /** Where Linux shows what a process's stdout and stderr are. */
    private static final Path STDOUT_LINK = Path.of("/proc/self/fd/1");
    private static final Path STDERR_LINK = Path.of("/proc/self/fd/2");

    @Option(names = "--progress",
        description = "Show progress on stderr about once a second even when it is not a terminal (default: only " +
            "on a terminal).")
    boolean progress;

    @Option(names = "--no-progress", description = "Never show progress.")
    boolean noProgress;

    @Option(names = "--progress-every-ms", paramLabel = "MS", defaultValue = "1000", hidden = true,
        description = "Least time between two progress lines (default ${DEFAULT-VALUE}).")
    long everyMillis;

    /**
     * Refuses contradicting options; call before any work, as the bar itself is made when the work starts.
     *
     * @param spec the command, for a usage error.
     * @throws ParameterException when both options are given or the interval is not a time.
     */
    public void check(final CommandSpec spec)
    {
        if (progress && noProgress)
        {
            throw new ParameterException(spec.commandLine(), "give --progress or --no-progress, not both");
        }
        if (everyMillis < 1)
        {
            throw new ParameterException(spec.commandLine(), "--progress-every-ms " + everyMillis +
                " is not a time; give 1 or more");
        }
    }

    /**
     * @param spec  the command, for its stderr and for a usage error.
     * @param unit  what is counted, plural ("messages").
     * @param total how many there will be, or 0 when not known.
     * @return a bar on stderr redrawn once a second, timed from now, or one that draws nothing.
     * @throws ParameterException as {@link #check(CommandSpec)}.
     */
    public ProgressBar bar(final CommandSpec spec, final String unit, final long total)
    {
        check(spec);
        final boolean show = !noProgress && (progress || watched());
        final PrintWriter err = spec.commandLine().getErr();
        return show ? ProgressBar.on(err, unit, total, TimeUnit.MILLISECONDS.toNanos(everyMillis)) :
            ProgressBar.disabled();
    }

    /**
     * @return whether stdout and stderr are both terminals, as Linux shows them, so that a pipe into
     * {@code record -} still shows progress while {@code sim --pcap - | tshark} does not; without /proc, whether
     * there is a console (stdin and stdout terminals).
     */
    static boolean watched()
    {
        try
        {
            return isTerminal(Files.readSymbolicLink(STDOUT_LINK)) && isTerminal(Files.readSymbolicLink(STDERR_LINK));
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return System.console() != null;
        }
    }

    private static boolean isTerminal(final Path target)
    {
        final String name = target.toString();
        return name.startsWith("/dev/pts/") || name.startsWith("/dev/tty") || "/dev/console".equals(name);
    }
}
