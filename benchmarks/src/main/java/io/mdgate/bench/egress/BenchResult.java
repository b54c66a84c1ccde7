package io.mdgate.bench.egress;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;

/**
 * The outcome of one run: every consumer's latency merged into one histogram, the slowest and mean consumer rate,
 * and what went wrong (ticks missing or out of order, consumers lapped and recovered).
 */
final class BenchResult
{
    final String transport;
    final BenchSettings settings;
    final Histogram latency = new Histogram(3);
    final double meanRate;
    final double minRate;
    final long missing;
    final long outOfOrder;
    final String notes;

    BenchResult(final String transport, final BenchSettings settings, final List<ConsumerProbe> probes,
        final String notes)
    {
        this.transport = transport;
        this.settings = settings;
        double sum = 0;
        double min = Double.MAX_VALUE;
        long missingTicks = 0;
        long disorder = 0;
        for (final ConsumerProbe probe : probes)
        {
            latency.add(probe.latency);
            sum += probe.ratePerSecond();
            min = Math.min(min, probe.ratePerSecond());
            missingTicks += settings.ticks() - probe.measured;
            disorder += probe.outOfOrder;
        }
        this.meanRate = sum / probes.size();
        this.minRate = min;
        this.missing = missingTicks;
        this.outOfOrder = disorder;
        this.notes = notes;
    }

    static String header()
    {
        return String.format(Locale.ROOT, "%-10s %-9s %9s %14s %14s %9s %9s %9s %9s %9s  %s", "transport", "consumers",
            "offered/s", "mean rate/s", "slowest/s", "p50 us", "p99 us", "p99.9 us", "max us", "samples", "notes");
    }

    String line()
    {
        return String.format(Locale.ROOT, "%-10s %9d %9s %14.0f %14.0f %9.2f %9.2f %9.2f %9.1f %9d  %s", transport,
            settings.consumers(), settings.rate() == 0 ? "max" : Long.toString(settings.rate()), meanRate, minRate,
            latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
            latency.getValueAtPercentile(99.9) / 1e3, latency.getMaxValue() / 1e3, latency.getTotalCount(),
            (missing != 0 || outOfOrder != 0 ? "MISSING " + missing + " OUT-OF-ORDER " + outOfOrder + "; " : "") +
            notes);
    }
}
