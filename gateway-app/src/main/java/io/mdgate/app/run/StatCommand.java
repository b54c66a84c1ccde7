package io.mdgate.app.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.demo.Dashboard;
import io.mdgate.core.counters.CounterType;
import io.mdgate.app.ExitCodes;
import io.mdgate.app.JsonOutput;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code mdgate stat}: shows a gateway's counters from its memory-mapped counters file, from another process,
 * while the gateway runs or after it stopped or died. On a terminal it refreshes the grouped one-screen dashboard
 * of {@code mdgate demo} in place, with per-second rates; with {@code --once}, or when standard output is not a
 * terminal, it prints every counter on its own line (with the rates of totals between refreshes); {@code --view}
 * chooses either; {@code --json} prints one JSON object per refresh.
 */
@Command(
    name = "stat",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Show a gateway's live counters from its counters file; works while it runs and after it stopped or died.",
        "On a terminal: a grouped dashboard with per-second rates, refreshed in place until Ctrl-C. With --once, or",
        "when not a terminal: every counter on its own line. --view chooses; --json prints JSON (one object a line).",
        "Example: mdgate stat --config /etc/mdgate/mdgate.toml --once --json" },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:shown",
        "2:bad arguments, or the counters file is missing or is not one" })
public final class StatCommand implements Callable<Integer>
{
    private static final String CLEAR = "\033[H\033[2J";

    /** What the text output looks like. */
    enum View
    {
        /** The grouped one-screen dashboard with rates (the default on a terminal, unless --once). */
        dashboard,
        /** Every counter on its own line (the default otherwise). */
        flat
    }

    @Spec
    CommandSpec spec;

    @Mixin
    CountersFileOption file;

    @Option(names = "--once", description = "Print the counters once and exit.")
    boolean once;

    @Option(names = "--json", description = "Print JSON: the gateway, its state and every counter.")
    boolean json;

    @Option(names = "--view", paramLabel = "VIEW",
        description = "dashboard or flat (default: dashboard on a terminal unless --once, flat otherwise).")
    View view;

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
            final View chosen = null != view ? view :
                null != System.console() && !once ? View.dashboard : View.flat;
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
                    if (View.dashboard == chosen)
                    {
                        out.print(dashboard(snapshot, previous));
                    }
                    else
                    {
                        text(out, snapshot, previous);
                    }
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

    /**
     * @return the dashboard frame of the counters {@code --filter} shows, with rates since {@code previous}.
     */
    String dashboard(final CountersSnapshot snapshot, final CountersSnapshot previous)
    {
        final double seconds = null == previous ? 0 :
            (snapshot.takenEpochMillis() - previous.takenEpochMillis()) / 1000.0;
        return Dashboard.render(List.of(header(snapshot)), filtered(snapshot),
            null == previous ? Map.of() : filtered(previous), seconds);
    }

    private Map<String, Long> filtered(final CountersSnapshot snapshot)
    {
        final Map<String, Long> values = new LinkedHashMap<>();
        for (final CountersSnapshot.Counter counter : snapshot.counters())
        {
            if (shown(counter.label()))
            {
                values.put(counter.label(), counter.value());
            }
        }
        return values;
    }

    private String json(final CountersSnapshot snapshot)
    {
        final ObjectNode root = JsonOutput.object()
            .put("gateway", snapshot.gatewayName())
            .put("pid", snapshot.pid())
            .put("state", snapshot.state().name().toLowerCase(Locale.ROOT))
            .put("startEpochMillis", snapshot.startEpochMillis())
            .put("heartbeatEpochMillis", snapshot.heartbeatEpochMillis())
            .put("stopEpochMillis", snapshot.stopEpochMillis())
            .put("takenEpochMillis", snapshot.takenEpochMillis());
        final ObjectNode counters = root.putObject("counters");
        final ObjectNode types = root.putObject("types");
        for (final CountersSnapshot.Counter counter : snapshot.counters())
        {
            if (shown(counter.label()))
            {
                counters.put(counter.label(), counter.value());
                types.put(counter.label(), CounterType.name(counter.typeId()));
            }
        }
        return JsonOutput.line(root);
    }
}
