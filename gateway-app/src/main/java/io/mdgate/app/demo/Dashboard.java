package io.mdgate.app.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the demo's one-screen dashboard from a snapshot of counters (dotted label to value, as in the gateway's
 * counters file) and the snapshot before it, for rates. Labels are grouped by their shape, so a counter the
 * gateway adds later shows up without a change here: {@code ingress.*} on a few lines,
 * {@code feed.<line>.<name>} as a table of lines,
 * {@code feed.gaps.<name>} on one line, {@code journal.*}, {@code egress.*} with a table of
 * {@code egress.consumer.<name>.<metric>} (and {@code demo.consumer.<name>.<metric>}, the demo's own consumers),
 * {@code latency.<stage>.<percentile>_ns} as a table in microseconds (values of labels ending {@code _ns}),
 * everything else under "other"; the feed line table keeps to a few columns so that the frame fits one screen. Stateless and
 * thread-safe; allocates (it runs once a second).
 */
public final class Dashboard
{
    /** Clears the terminal and moves the cursor home: frames replace each other in place. */
    public static final String CLEAR_SCREEN = "\033[H\033[2J";

    private static final Set<String> RATE_NAMES = Set.of(
        "packets", "messages", "ticks", "delivered", "published", "received", "sent", "appended", "position", "bytes");
    private static final Pattern FEED_LINE = Pattern.compile("feed\\.([A-Z]|recovery)\\.([^.]+)");
    /** Columns of the feed line table; the others stay for {@code mdgate stat}, to keep one screen. */
    private static final Set<String> LINE_COLUMNS = Set.of(
        "packets", "messages", "duplicates", "gaps_opened", "gaps_lost", "stale_periods");
    private static final Pattern CONSUMER = Pattern.compile("(?:egress|demo)\\.consumers?\\.([^.]+)\\.([^.]+)");
    private static final Pattern LATENCY = Pattern.compile("latency\\.(.+)\\.(p[0-9]+_ns|max_ns|min_ns|mean_ns|samples)");
    private static final int MAX_OTHER = 12;
    private static final int WIDTH = 100;
    private static final String NANOS = "_ns";

    private Dashboard()
    {
    }

    /**
     * @param header   lines printed first (what runs, for how long).
     * @param now      the latest snapshot.
     * @param previous the snapshot before it, or an empty map (no rates then).
     * @param seconds  time between the two snapshots.
     * @return the frame, lines ending with '\n', without any terminal control sequence.
     */
    public static String render(final List<String> header, final Map<String, Long> now,
        final Map<String, Long> previous, final double seconds)
    {
        final StringBuilder out = new StringBuilder(4096);
        header.forEach(line -> out.append(line).append('\n'));
        final Set<String> shown = new LinkedHashSet<>();
        final Rates rates = new Rates(now, previous, seconds);

        flat(out, "ingress", "ingress.", now, shown, rates);
        table(out, "feed lines", FEED_LINE, now, shown, rates, "line", LINE_COLUMNS);
        flat(out, "gaps", "feed.gaps.", now, shown, rates);
        flat(out, "feed", "feed.", now, shown, rates);
        flat(out, "journal", "journal.", now, shown, rates);
        table(out, "consumers", CONSUMER, now, shown, rates, "consumer", null);
        flat(out, "egress", "egress.", now, shown, rates);
        table(out, "latency (us)", LATENCY, now, shown, rates, "stage", null);
        other(out, now, shown);
        return out.toString();
    }

    private static void table(final StringBuilder out, final String title, final Pattern pattern,
        final Map<String, Long> now, final Set<String> shown, final Rates rates, final String rowHeading,
        final Set<String> onlyColumns)
    {
        final Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        final Set<String> columns = new LinkedHashSet<>();
        for (final Map.Entry<String, Long> entry : now.entrySet())
        {
            final Matcher m = pattern.matcher(entry.getKey());
            if (shown.contains(entry.getKey()) || !m.matches())
            {
                continue;
            }
            shown.add(entry.getKey());
            if (null != onlyColumns && !onlyColumns.contains(m.group(2)))
            {
                continue;
            }
            final boolean nanos = m.group(2).endsWith(NANOS);
            final String column = nanos ? m.group(2).substring(0, m.group(2).length() - NANOS.length()) : m.group(2);
            columns.add(column);
            final String cell = nanos ? String.format(Locale.ROOT, "%.1f", entry.getValue() / 1_000.0) :
                rates.withRate(entry.getKey(), m.group(2));
            rows.computeIfAbsent(m.group(1), r -> new LinkedHashMap<>()).put(column, cell);
        }
        if (rows.isEmpty())
        {
            return;
        }
        final List<String> columnList = new ArrayList<>(columns);
        final int firstWidth = Math.max(rowHeading.length(), rows.keySet().stream().mapToInt(String::length).max()
            .orElse(4));
        final int[] widths = new int[columnList.size()];
        for (int c = 0; c < widths.length; c++)
        {
            final String column = columnList.get(c);
            widths[c] = Math.max(column.length(),
                rows.values().stream().mapToInt(r -> r.getOrDefault(column, "-").length()).max().orElse(1));
        }
        out.append('\n').append(title).append('\n');
        out.append("  ").append(pad(rowHeading, firstWidth));
        for (int c = 0; c < widths.length; c++)
        {
            out.append("  ").append(padLeft(columnList.get(c), widths[c]));
        }
        out.append('\n');
        rows.forEach((row, cells) ->
        {
            out.append("  ").append(pad(row, firstWidth));
            for (int c = 0; c < widths.length; c++)
            {
                out.append("  ").append(padLeft(cells.getOrDefault(columnList.get(c), "-"), widths[c]));
            }
            out.append('\n');
        });
    }

    private static void flat(final StringBuilder out, final String title, final String prefix,
        final Map<String, Long> now, final Set<String> shown, final Rates rates)
    {
        final List<String> cells = new ArrayList<>();
        for (final String label : now.keySet())
        {
            if (!shown.contains(label) && label.startsWith(prefix))
            {
                shown.add(label);
                final String name = label.substring(prefix.length());
                cells.add(name + " " + rates.withRate(label, name.substring(name.lastIndexOf('.') + 1)));
            }
        }
        if (cells.isEmpty())
        {
            return;
        }
        out.append('\n').append(title).append('\n');
        wrap(out, cells);
    }

    private static void other(final StringBuilder out, final Map<String, Long> now, final Set<String> shown)
    {
        final List<String> cells = new ArrayList<>();
        int hidden = 0;
        for (final Map.Entry<String, Long> entry : now.entrySet())
        {
            if (shown.contains(entry.getKey()))
            {
                continue;
            }
            if (cells.size() < MAX_OTHER)
            {
                cells.add(entry.getKey() + " " + String.format(Locale.ROOT, "%,d", entry.getValue()));
            }
            else
            {
                hidden++;
            }
        }
        if (cells.isEmpty())
        {
            return;
        }
        out.append('\n').append("other").append('\n');
        wrap(out, cells);
        if (hidden > 0)
        {
            out.append("  (").append(hidden).append(" more: mdgate stat)\n");
        }
    }

    private static void wrap(final StringBuilder out, final List<String> cells)
    {
        final StringBuilder line = new StringBuilder("  ");
        for (final String cell : cells)
        {
            if (line.length() > 2 && line.length() + 3 + cell.length() > WIDTH)
            {
                out.append(line).append('\n');
                line.setLength(2);
            }
            line.append(line.length() > 2 ? "   " : "").append(cell);
        }
        out.append(line).append('\n');
    }

    private static String pad(final String text, final int width)
    {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }

    private static String padLeft(final String text, final int width)
    {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }

    /** Values with their per-second rate for counters whose name says they count traffic. */
    private record Rates(Map<String, Long> now, Map<String, Long> previous, double seconds)
    {
        String withRate(final String label, final String name)
        {
            final long value = now.get(label);
            final Long before = previous.get(label);
            final String text = String.format(Locale.ROOT, "%,d", value);
            if (null == before || seconds <= 0 || !RATE_NAMES.contains(name))
            {
                return text;
            }
            return text + String.format(Locale.ROOT, " (%s/s)", compact((value - before) / seconds));
        }

        private static String compact(final double rate)
        {
            final double magnitude = Math.abs(rate);
            if (magnitude >= 1e6)
            {
                return String.format(Locale.ROOT, "%.2fM", rate / 1e6);
            }
            if (magnitude >= 1e4)
            {
                return String.format(Locale.ROOT, "%.1fk", rate / 1e3);
            }
            return String.format(Locale.ROOT, "%.0f", rate);
        }
    }
}
