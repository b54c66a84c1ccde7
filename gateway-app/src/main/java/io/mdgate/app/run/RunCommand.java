package io.mdgate.app.run;

import io.mdgate.app.ExitCodes;
import io.mdgate.app.StopSignal;
import io.mdgate.app.TerminationTrap;
import io.mdgate.runtime.CpuPinner;
import io.mdgate.journal.JournalSpaceException;
import io.mdgate.runtime.Gateway;
import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersSnapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code mdgate run --config FILE}: starts the gateway the file describes (ingress, feed session, journal, egress,
 * housekeeping on the mapped cores) and runs it until SIGTERM or Ctrl-C, then stops it cleanly: ports stopped,
 * journal closed, consumers told. An invalid configuration or core map is refused before anything starts.
 * Exit codes: 0 ran and stopped cleanly (SIGTERM and SIGINT included), 1 could not start or failed while running,
 * 2 invalid configuration or arguments, 3 the journal's filesystem had no room (at start or while running): every
 * tick up to the sequence the first line of stderr names is journaled, none after it was published, and the next
 * start resumes after it.
 * <p>
 * SIGTERM and SIGINT are taken over while the gateway runs ({@link TerminationTrap}): they ask the loop to stop,
 * so the stop happens on the command's thread, in order, and the process exits 0 instead of the 143 (or 130) of
 * a JVM ended by the signal. A second signal, or a stop that takes longer than {@link #GRACE_SECONDS}, ends the
 * JVM as the signal would.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Run the gateway described by a configuration file until SIGTERM or Ctrl-C.",
        "Checks the file and the core map first and refuses to start when either is invalid; watch it with " +
            "'mdgate stat' and 'mdgate errors'.",
        "Example: mdgate run --config /etc/mdgate/mdgate.toml" },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:ran, and stopped cleanly on SIGTERM, Ctrl-C or --duration",
        "1:could not start, or a core failed while running",
        "2:invalid configuration, core map or arguments",
        "3:the journal's filesystem is full: stopped before a tick it could not journal; free space, start again" })
public final class RunCommand implements Callable<Integer>
{
    /** How long SIGTERM waits for a clean stop: ports stopped, journal closed, consumers told. */
    static final long GRACE_SECONDS = 20;
    /** Exit code of a configuration or core map refused before start. */
    public static final int EXIT_INVALID = 2;
    /** Exit code of a gateway that could not start or failed. */
    public static final int EXIT_FAILED = 1;
    /** Exit code of a gateway whose journal's filesystem had no room. */
    public static final int EXIT_NO_SPACE = ExitCodes.NO_SPACE;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", required = true,
        description = "The gateway's configuration (TOML; keys in docs/CONFIGURATION.md).")
    Path configFile;

    @Option(names = "--strict",
        description = "Refuse core-map warnings too (e.g. a busy-spinning agent on a CPU that is not isolated).")
    boolean strict;

    @Option(names = "--no-pin",
        description = "Do not pin the cores' threads to their CPUs (development only; the core map is still checked).")
    boolean noPin;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0",
        description = "Stop by itself after this long; 0 (default) runs until SIGTERM or Ctrl-C.")
    long durationSeconds;

    private volatile StopSignal signal;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        if (durationSeconds < 0)
        {
            err.println("mdgate run: --duration must be 0 or more seconds, was " + durationSeconds);
            err.flush();
            return EXIT_INVALID;
        }
        final GatewayConfig config;
        try
        {
            config = ConfigLoader.load(configFile);
        }
        catch (final ConfigException ex)
        {
            err.println("mdgate run: refusing to start: " + ex.getMessage());
            err.flush();
            return EXIT_INVALID;
        }
        // Warnings about the core map are said after the outcome of the start, so that the first line on stderr is
        // the reason a start failed, when it fails.
        final java.io.StringWriter warnings = new java.io.StringWriter();
        final List<String> refusals = CoreMapCheck.check(config, strict, new PrintWriter(warnings));
        if (!refusals.isEmpty())
        {
            err.println("mdgate run: refusing to start: the core map of " + configFile + " is invalid:");
            refusals.forEach(line -> err.println("  " + line));
            err.print(warnings);
            err.flush();
            return EXIT_INVALID;
        }
        final PrintStream errStream = new PrintStream(new WriterOutputStream(err), true);
        try (StopSignal stop = new StopSignal(GRACE_SECONDS);
            TerminationTrap ignored = new TerminationTrap(stop, GRACE_SECONDS))
        {
            signal = stop;
            Gateway gateway = null;
            try
            {
                gateway = Gateway.create(config, noPin ? CpuPinner.NONE : CoreMapCheck.pinner(), errStream);
                gateway.start();
            }
            catch (final JournalSpaceException ex)
            {
                err.println("mdgate run: journal: " + ex.getMessage());
                err.print(warnings);
                err.flush();
                return EXIT_NO_SPACE;
            }
            catch (final IllegalStateException | IllegalArgumentException ex)
            {
                final JournalSpaceException full = null == gateway ? null : gateway.journalNoSpace();
                if (null != full)
                {
                    err.println("mdgate run: journal: " + full.getMessage());
                    err.print(warnings);
                    err.flush();
                    return EXIT_NO_SPACE;
                }
                err.println("mdgate run: could not start: " + ex.getMessage());
                err.print(warnings);
                err.flush();
                return EXIT_FAILED;
            }
            err.println("mdgate run: gateway '" + config.gateway().name() + "' running on " + config.cores().size() +
                " core(s); counters " + gateway.countersFile() + "; consumers connect to " +
                gateway.egressEndpoint() + (noPin ? "; threads not pinned" : ""));
            err.print(warnings);
            err.flush();
            final boolean failed = waitForStop(gateway, stop);
            gateway.close();
            out.println(summary(gateway.countersFile(), failed || null != gateway.journalNoSpace()));
            out.flush();
            if (null != gateway.journalNoSpace())
            {
                return EXIT_NO_SPACE;
            }
            return failed ? EXIT_FAILED : 0;
        }
        finally
        {
            signal = null;
        }
    }

    /** Ends a running {@link #call()} as SIGTERM would (for tests and embedding). */
    public void stop()
    {
        final StopSignal current = signal;
        if (current != null)
        {
            current.stop();
        }
    }

    private boolean waitForStop(final Gateway gateway, final StopSignal stop)
    {
        final long end = durationSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(durationSeconds) : 0;
        while (stop.running() && (end == 0 || System.nanoTime() < end))
        {
            if (gateway.hasFailed())
            {
                return true;
            }
            try
            {
                Thread.sleep(50);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return false;
    }

    static String summary(final Path countersFile, final boolean failed)
    {
        try (CountersFile file = CountersFile.open(countersFile))
        {
            final CountersSnapshot s = file.snapshot();
            return "mdgate run: " + (failed ? "failed" : "stopped") + "; " +
                s.value("feed.messages.delivered", 0) + " messages, " + s.value("session.ticks", 0) + " ticks, " +
                "journal at " + s.value("journal.position", -1) + ", " +
                s.value("egress.ticks_published", 0) + " ticks published; gaps opened " +
                s.value("feed.gaps.opened", 0) + ", filled by the other line " +
                s.value("feed.gaps.filled_by_other_line", 0) + ", by re-request " +
                s.value("feed.gaps.filled_by_rerequest", 0) + ", lost " + s.value("feed.gaps.lost", 0) +
                "; errors " + s.value("gateway.errors", 0);
        }
    }
}
