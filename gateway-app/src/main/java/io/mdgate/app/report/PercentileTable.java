package io.mdgate.app.report;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;

/**
 * The text table of a report: per series the sample count and the latency at fixed percentiles, in microseconds.
 * Stateless and thread-safe.
 */
public final class PercentileTable
{
    /** The percentiles of every row, in the order of the columns. */
    public static final double[] PERCENTILES = { 50.0, 90.0, 99.0, 99.9, 99.99 };

    private static final String[] HEADINGS = { "p50", "p90", "p99", "p99.9", "p99.99" };

    private PercentileTable()
    {
    }

    /**
     * @param series the distributions, one row each.
     * @return the table, a heading line and one line per series, each ending with a line separator.
     */
    public static String render(final List<LatencySeries> series)
    {
        final int nameWidth = Math.max(5, series.stream().mapToInt(s -> s.name().length()).max().orElse(5));
        final StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-" + nameWidth + "s %12s %10s", "stage", "samples", "min"));
        for (final String heading : HEADINGS)
        {
            out.append(String.format(Locale.ROOT, " %10s", heading));
        }
        out.append(String.format(Locale.ROOT, " %10s   (microseconds)%n", "max"));
        for (final LatencySeries s : series)
        {
            final Histogram h = s.histogram();
            out.append(String.format(Locale.ROOT, "%-" + nameWidth + "s %12d", s.name(), h.getTotalCount()));
            if (h.getTotalCount() == 0)
            {
                out.append("   no samples").append(System.lineSeparator());
                continue;
            }
            out.append(micros(h.getMinValue()));
            for (final double percentile : PERCENTILES)
            {
                out.append(micros(h.getValueAtPercentile(percentile)));
            }
            out.append(micros(h.getMaxValue())).append(System.lineSeparator());
        }
        return out.toString();
    }

    private static String micros(final long nanos)
    {
        return String.format(Locale.ROOT, " %10.2f", nanos / 1_000.0);
    }
}
