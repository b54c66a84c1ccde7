package io.mdgate.bench;

import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.ingress.DpdkIngress;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * End-to-end receive rate of the DPDK ingress, printed (not asserted): a small capture of both lines looped by
 * {@code net_pcap} ({@code infinite_rx=1}), polled on one pinned thread, side by side in one run:
 * <ol>
 *   <li>{@code hand-over}: into a handler that does nothing: the PMD, the C parse, the copy into the hand-over
 *   region and the JNI crossing per burst;</li>
 *   <li>{@code feed session}: into the A/B {@link FeedSession} (sequences shifted each pass by
 *   {@link SequenceShifter}, so every pass is new), whose messages are counted.</li>
 * </ol>
 * Each warms up, then runs for a fixed time; every non-empty poll's duration goes into an HdrHistogram (two clock
 * reads per poll, about 40 ns per burst), printed with the tail untrimmed. Run as root:
 * <pre>
 *   java $(cat gateway-app/target/jvm.options) -cp benchmarks/target/benchmarks.jar \
 *       io.mdgate.bench.IngressRateHarness [--messages N] [--per-packet M] [--seconds S] [--warmup S] [--lcores L]
 * </pre>
 */
public final class IngressRateHarness
{
    private long messages = 20_000;
    private int perPacket = 10;
    private long seconds = 10;
    private long warmupSeconds = 3;
    private String lcores;
    private long delivered;

    private IngressRateHarness()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final IngressRateHarness harness = new IngressRateHarness();
        harness.parse(args);
        harness.run();
    }

    private void parse(final String[] args)
    {
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            switch (args[i])
            {
                case "--messages" -> messages = Long.parseLong(args[i + 1]);
                case "--per-packet" -> perPacket = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Long.parseLong(args[i + 1]);
                case "--warmup" -> warmupSeconds = Long.parseLong(args[i + 1]);
                case "--lcores" -> lcores = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i] +
                    "; options: --messages N --per-packet M --seconds S --warmup S --lcores L");
            }
        }
    }

    private void run() throws IOException
    {
        final int cpus = Runtime.getRuntime().availableProcessors();
        System.out.println("machine: " + cpus + " CPUs, " + System.getProperty("os.name") + " " +
            System.getProperty("os.version") + ", Java " + System.getProperty("java.version"));
        if (cpus < 4)
        {
            System.out.println("WARNING: only " + cpus + " CPUs: the pinned receive thread shares the machine with " +
                "the JIT, GC and everything else; read the rates as orders of magnitude");
        }
        final Path dir = Files.createTempDirectory("mdgate-ingress-bench");
        final LoopedCapture capture = LoopedCapture.write(dir.resolve("loop.pcap"), messages, perPacket);
        System.out.printf(Locale.ROOT, "capture: %d messages in %d packets per line, both lines, looped%n",
            capture.messages, capture.packetsPerLine);
        try
        {
            final long handOver = measure("hand-over", capture, null);
            final long session = measure("feed session", capture, capture);
            System.out.printf(Locale.ROOT, "feed session / hand-over packet rate: %.2f%n", (double)session / handOver);
        }
        finally
        {
            Files.deleteIfExists(capture.file);
            Files.deleteIfExists(dir);
        }
    }

    /** @return packets per second of the measured period. */
    private long measure(final String name, final LoopedCapture capture, final LoopedCapture withSession)
    {
        final DpdkIngress.Context context = new DpdkIngress.Context()
            .device("net_pcap0,rx_pcap=" + capture.file + ",infinite_rx=1")
            .lines(IngressLines.of(LoopedCapture.LINE_A, LoopedCapture.LINE_B))
            .mbufs(Math.max(8191, 2 * capture.packetsPerLine + 4096))
            .igmp(false);
        if (lcores != null)
        {
            context.lcores(lcores);
        }
        final FeedSession session = withSession == null ? null : new FeedSession(new FeedSession.Context()
            .messageHandler((buffer, offset, length, sequence) -> delivered++)
            .gapHandler((first, count) -> {}));
        final PacketHandler handler = session == null ?
            (line, buffer, offset, length, timestamp) -> {} :
            new SequenceShifter(session, capture.messages);
        try (DpdkIngress ingress = new DpdkIngress(context))
        {
            ingress.start();
            final Histogram pollNanos = new Histogram(3);
            loop(ingress, session, handler, warmupSeconds, pollNanos);
            pollNanos.reset();
            final long messagesBefore = delivered;
            final long start = System.nanoTime();
            final long packets = loop(ingress, session, handler, seconds, pollNanos);
            final long elapsed = System.nanoTime() - start;
            final IngressStats stats = ingress.stats();
            final long packetRate = (long)(packets * 1e9 / elapsed);
            System.out.printf(Locale.ROOT, "%-13s %,12d packets/s", name, packetRate);
            if (session != null)
            {
                System.out.printf(Locale.ROOT, ", %,12d messages/s delivered", (long)((delivered - messagesBefore) *
                    1e9 / elapsed));
            }
            System.out.printf(Locale.ROOT, "%n              poll ns (non-empty): min %d, p50 %d, p99 %d, p99.9 %d, " +
                "max %d; %.1f packets per poll; imissed %d, rx_nombuf %d%n",
                pollNanos.getMinValue(), pollNanos.getValueAtPercentile(50), pollNanos.getValueAtPercentile(99),
                pollNanos.getValueAtPercentile(99.9), pollNanos.getMaxValue(),
                (double)packets / Math.max(1, pollNanos.getTotalCount()), stats.port("imissed"),
                stats.port("rx_nombuf"));
            return packetRate;
        }
    }

    private static long loop(final DpdkIngress ingress, final FeedSession session, final PacketHandler handler,
        final long seconds, final Histogram pollNanos)
    {
        final long end = System.nanoTime() + seconds * 1_000_000_000L;
        long packets = 0;
        long now = System.nanoTime();
        while (now < end)
        {
            if (session != null)
            {
                session.doWork(now);
            }
            final long before = System.nanoTime();
            final int count = ingress.poll(handler);
            now = System.nanoTime();
            if (count > 0)
            {
                packets += count;
                pollNanos.recordValue(now - before);
            }
        }
        return packets;
    }
}
