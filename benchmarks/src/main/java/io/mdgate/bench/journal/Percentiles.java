package io.mdgate.bench.journal;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/**
 * Prints latency histograms as one row each: count, min, p50, p99, p99.9, p99.99, max in nanoseconds, never
 * trimming the tail. Stateless.
 */
final class Percentiles
{
    private Percentiles()
    {
    }

    static Histogram histogram()
    {
        return new Histogram(3_600_000_000_000L, 3);
    }

    static String header()
    {
        return String.format(Locale.ROOT, "%-44s %12s %8s %8s %8s %9s %9s %11s",
            "latency (ns)", "count", "min", "p50", "p99", "p99.9", "p99.99", "max");
    }

    static String row(final String name, final Histogram histogram)
    {
        return String.format(Locale.ROOT, "%-44s %,12d %8d %8d %8d %9d %9d %11d", name, histogram.getTotalCount(),
            histogram.getMinValue(), histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
            histogram.getValueAtPercentile(99.9), histogram.getValueAtPercentile(99.99), histogram.getMaxValue());
    }

    static String rate(final String name, final long count, final long nanos)
    {
        return String.format(Locale.ROOT, "%-44s %,14.0f per s  (%,d in %.3f s)", name, count * 1e9 / nanos, count,
            nanos / 1e9);
    }
}
