package io.mdgate.bench.egress;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Side-by-side comparison of the shm egress and Aeron IPC in one run: 64-byte ticks, 1, 4 and 16 consumers, two
 * loads per case — a paced load (latency: every tick's one-way time from the publisher's clock reading to the
 * consumer's receipt, in HdrHistogram, nothing trimmed) and an unpaced one (throughput per consumer). The two
 * transports alternate within each consumer count, so they see the same machine state, after an unmeasured
 * warm-up of both so that neither pays for the JIT alone.
 * <p>
 * Threads: the publisher on the harness thread, spinning while it paces; one thread per consumer; for Aeron one
 * SHARED media-driver thread (and the client's conductor). Consumers and the driver use
 * {@code BackoffIdleStrategy(100 spins, 10 yields, 1 us .. 50 us parks)} so that 16 consumers fit on two cores.
 * With fewer cores than threads the numbers are orders of magnitude, and the harness says so.
 * <p>
 * Arguments: {@code [--quick]} (fewer ticks, for a smoke run), {@code [--consumers 1,4,16]},
 * {@code [--rate TICKS_PER_S]} (paced load, default 100000), {@code [--idle backoff|yield]} (consumers' and driver's
 * idle strategy, default backoff), {@code [--rings]} (the shm publisher without its shared log: every consumer
 * reads its own ring, as before the shared log existed).
 */
public final class EgressComparison
{
    private EgressComparison()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        boolean quick = false;
        List<Integer> counts = List.of(1, 4, 16);
        long rate = 100_000;
        String idleName = "backoff";
        boolean rings = false;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--quick":
                    quick = true;
                    break;
                case "--consumers":
                    counts = parseCounts(args[++i]);
                    break;
                case "--rate":
                    rate = Long.parseLong(args[++i]);
                    break;
                case "--idle":
                    idleName = args[++i];
                    break;
                case "--rings":
                    rings = true;
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument " + args[i] +
                        "; use [--quick] [--consumers 1,4,16] [--rate TICKS_PER_S] [--idle backoff|yield] [--rings]");
            }
        }
        final Supplier<IdleStrategy> idle = "yield".equals(idleName) ? YieldingIdleStrategy::new :
            () -> new BackoffIdleStrategy(100, 10, 1_000, 50_000);
        System.out.println("consumer and driver idle strategy: " + idle.get());
        printMachine(counts);
        final long pacedWarmUp = quick ? 20_000 : 100_000;
        final long pacedTicks = quick ? 50_000 : 300_000;
        final long maxWarmUp = quick ? 50_000 : 200_000;
        final long maxTicks = quick ? 200_000 : 1_000_000;
        final List<BenchResult[]> pairs = new ArrayList<>();
        // Both paths compiled before anything counts: otherwise the first case pays for the JIT alone.
        final BenchSettings warmUp = new BenchSettings(2, 50_000, 100_000, 0);
        ShmEgressCase.run(warmUp, idle, rings);
        AeronIpcCase.run(warmUp, idle);
        System.out.println(BenchResult.header());
        for (final int consumers : counts)
        {
            final BenchSettings paced = new BenchSettings(consumers, pacedWarmUp, pacedTicks, rate);
            final BenchSettings unpaced = new BenchSettings(consumers, maxWarmUp, maxTicks, 0);
            pairs.add(pair(ShmEgressCase.run(paced, idle, rings), AeronIpcCase.run(paced, idle)));
            pairs.add(pair(ShmEgressCase.run(unpaced, idle, rings), AeronIpcCase.run(unpaced, idle)));
        }
        System.out.println();
        System.out.println("ratios shm / aeron-ipc (rate: higher is better for shm; latency: lower is better for shm)");
        System.out.println(String.format(Locale.ROOT, "%-9s %9s %12s %9s %9s %9s %9s", "consumers", "offered/s",
            "mean rate", "p50", "p99", "p99.9", "max"));
        for (final BenchResult[] pair : pairs)
        {
            final BenchResult shm = pair[0];
            final BenchResult aeron = pair[1];
            System.out.println(String.format(Locale.ROOT, "%9d %9s %12.2f %9.2f %9.2f %9.2f %9.2f",
                shm.settings.consumers(), shm.settings.rate() == 0 ? "max" : Long.toString(shm.settings.rate()),
                shm.meanRate / aeron.meanRate, ratio(shm, aeron, 50), ratio(shm, aeron, 99),
                ratio(shm, aeron, 99.9), (double)shm.latency.getMaxValue() / aeron.latency.getMaxValue()));
        }
    }

    private static BenchResult[] pair(final BenchResult shm, final BenchResult aeron)
    {
        System.out.println(shm.line());
        System.out.println(aeron.line());
        return new BenchResult[] {shm, aeron};
    }

    private static double ratio(final BenchResult shm, final BenchResult aeron, final double percentile)
    {
        return (double)shm.latency.getValueAtPercentile(percentile) / aeron.latency.getValueAtPercentile(percentile);
    }

    private static List<Integer> parseCounts(final String text)
    {
        final List<Integer> counts = new ArrayList<>();
        for (final String part : text.split(","))
        {
            counts.add(Integer.parseInt(part.trim()));
        }
        return counts;
    }

    private static void printMachine(final List<Integer> counts) throws IOException
    {
        final int cpus = Runtime.getRuntime().availableProcessors();
        System.out.println("egress comparison: shm egress vs Aeron IPC, 64-byte ticks");
        System.out.println("cpus " + cpus + ", load average " + Files.readString(Path.of("/proc/loadavg")).trim() +
            ", java " + System.getProperty("java.version") + ", jvm args " +
            ManagementFactory.getRuntimeMXBean().getInputArguments());
        final int threads = counts.stream().mapToInt(Integer::intValue).max().orElse(1) + 2;
        if (cpus < threads)
        {
            System.out.println("WARNING: up to " + threads + " busy threads (publisher, driver, consumers) share " +
                cpus + " CPUs: consumers back off and take turns, so these numbers are orders of magnitude and " +
                "ratios, not what a host with a core per thread gives");
        }
    }
}
