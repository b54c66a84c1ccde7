package io.mdgate.app.run;

import io.mdgate.core.counters.CounterType;
import io.mdgate.app.ExitCodes;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileException;
import io.mdgate.runtime.counters.CountersSnapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mdgate stat}: shows a gateway's counters from its memory-mapped counters file, from another process,
 * while the gateway runs (refreshed in place every {@code --interval-ms}, with rates of the totals) or after it
 * stopped or died ({@code --once}); {@code --json} prints one JSON object per refresh.
 */
@Command(
    name = "stat",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Show a gateway's live counters from its counters file; works while it runs and after it stopped or died.",
        "Refreshes in place until Ctrl-C; --once prints once; --json prints JSON (one object per refresh).",
        "Example: mdgate stat --config /etc/mdgate/mdgate.toml --once --json" },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:shown",
        "2:bad arguments, or the counters file is missing or is not one" })
public final class StatCommand implements Callable<Integer>
{
    private static final String CLEAR = "\033[H\033[2J";

    @Spec
    CommandSpec spec;

    @Mixin
    CountersFileOption file;

    @Option(names = "--once", description = "Print the counters once and exit.")
    boolean once;

    @Option(names = "--json", description = "Print JSON: the gateway, its state and every counter.")
    boolean json;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Refresh interval (default ${DEFAULT-VALUE}).")
    long intervalMillis;

    @Option(names = "--filter", paramLabel = "PREFIX",
        description = "Only counters whose label starts with PREFIX (repeatable), e.g. --filter feed. --filter latency.")
    List<String> filters = new ArrayList<>();

    @Option(names = "--count", paramLabel = "N", defaultValue = "0", hidden = true,
        description = "Stop after N refreshes (0: until Ctrl-C).")
    long count;

    @Override
    public Integer call()
    {
        if (intervalMillis < 10)
        {
            throw new ParameterException(spec.commandLine(), "--interval-ms must be 10 or more, was " +
                intervalMillis);
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final java.nio.file.Path path = file.resolve(spec);
        try (CountersFile counters = CountersFile.open(path))
        {
            CountersSnapshot previous = null;
            long shown = 0;
            while (true)
            {
                final CountersSnapshot snapshot = counters.snapshot();
                if (json)
                {
                    out.println(json(snapshot));
                }
                else
                {
                    if (!once)
                    {
                        out.print(CLEAR);
                    }
                    text(out, snapshot, previous);
                }
                out.flush();
                shown++;
                if (once || (count > 0 && shown >= count))
                {
                    return 0;
                }
                previous = snapshot;
                Thread.sleep(intervalMillis);
            }
        }
        catch (final CountersFileException ex)
        {
            err.println("mdgate stat: " + ex.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private boolean shown(final String label)
    {
        if (filters.isEmpty())
        {
            return true;
        }
        for (final String prefix : filters)
        {
            if (label.startsWith(prefix))
            {
                return true;
            }
        }
        return false;
    }

    private void text(final PrintWriter out, final CountersSnapshot snapshot, final CountersSnapshot previous)
    {
        out.println(header(snapshot));
        final double seconds = previous == null ? 0 :
            (snapshot.takenEpochMillis() - previous.takenEpochMillis()) / 1000.0;
        int width = 10;
        for (final CountersSnapshot.Counter counter : snapshot.counters())
        {
            width = Math.max(width, counter.label().length());
        }
        for (final CountersSnapshot.Counter counter : snapshot.counters())
        {
            if (!shown(counter.label()))
            {
                continue;
            }
            String rate = "";
            if (counter.typeId() == CounterType.TOTAL && previous != null && seconds > 0 &&
                previous.has(counter.label()))
            {
                rate = String.format("%,14.0f/s", (counter.value() - previous.value(counter.label())) / seconds);
            }
            out.println(String.format("%-" + width + "s %,20d %s", counter.label(), counter.value(), rate));
        }
    }

    static String header(final CountersSnapshot snapshot)
    {
        final String state = switch (snapshot.state())
        {
            case RUNNING -> "running";
            case STOPPED -> "stopped at " + Instant.ofEpochMilli(snapshot.stopEpochMillis());
            case DEAD -> "not running (no heartbeat since " + Instant.ofEpochMilli(snapshot.heartbeatEpochMillis()) +
                ", never stopped cleanly)";
        };
        return "gateway " + snapshot.gatewayName() + ", pid " + snapshot.pid() + ", started " +
            Instant.ofEpochMilli(snapshot.startEpochMillis()) + ", " + state;
    }

    private String json(final CountersSnapshot snapshot)
    {
        final StringBuilder out = new StringBuilder(4096);
        out.append("{\"gateway\":").append(Json.string(snapshot.gatewayName()))
            .append(",\"pid\":").append(snapshot.pid())
            .append(",\"state\":").append(Json.string(snapshot.state().name().toLowerCase(java.util.Locale.ROOT)))
            .append(",\"startEpochMillis\":").append(snapshot.startEpochMillis())
            .append(",\"heartbeatEpochMillis\":").append(snapshot.heartbeatEpochMillis())
            .append(",\"stopEpochMillis\":").append(snapshot.stopEpochMillis())
            .append(",\"takenEpochMillis\":").append(snapshot.takenEpochMillis())
            .append(",\"counters\":{");
        boolean first = true;
        for (final CountersSnapshot.Counter counter : snapshot.counters())
        {
            if (shown(counter.label()))
            {
                out.append(first ? "" : ",").append(Json.string(counter.label())).append(':').append(counter.value());
                first = false;
            }
        }
        out.append("},\"types\":{");
        first = true;
        for (final CountersSnapshot.Counter counter : snapshot.counters())
        {
            if (shown(counter.label()))
            {
                out.append(first ? "" : ",").append(Json.string(counter.label())).append(':')
                    .append(Json.string(CounterType.name(counter.typeId())));
                first = false;
            }
        }
        return out.append("}}").toString();
    }
}
