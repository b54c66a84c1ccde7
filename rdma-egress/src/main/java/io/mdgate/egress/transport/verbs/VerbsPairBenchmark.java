package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link VerbsBenchmark}'s measurements between two hosts, one process on each: the writer (the gateway's side)
 * posts, the receiver holds the ring and the multicast subscription. Run the same command on both hosts with
 * {@code --role writer} and {@code --role receiver}; the writer listens on {@code --address}, the receiver
 * connects to {@code --peer}, one RDMA-CM port per measurement ({@code --port}, +1, +2) so that a late process
 * never meets the previous measurement's listener. The writer prints the figures, in {@link VerbsBenchmark}'s
 * format with names ending {@code -ab}:
 * <ul>
 *   <li>{@code ring-write-ab} (DiSNI) and {@code ring-write-native-ab} (the project's own library): 64-byte RDMA
 *       Writes into the receiver's ring. Latency: half the round trip of a write answered by the receiver writing
 *       its sequence back, on the writer's clock. Rate: writes posted back to back, timed until the receiver
 *       acknowledges (by a write back) a marker posted after the last one; RC places writes in order, so the marker
 *       lands after every write before it. The acknowledgement adds half a round trip to a window of seconds.</li>
 *   <li>{@code ud-multicast-ab}: UD sends to the group, counted by the receiver: datagrams it received from the
 *       measured window over the window's length on the writer's clock. No latency: the hosts' clocks are not one.</li>
 * </ul>
 * Threading: one thread per process does everything, so each connection has its one posting thread.
 */
public final class VerbsPairBenchmark
{
    private static final int SIZE = 64;
    private static final int SLOTS = 4096;
    private static final int MARKER_OFFSET = SLOTS * SIZE;
    private static final int ECHO_OFFSET = 0;
    private static final int ACK_OFFSET = 8;
    private static final long PING_PONG_OVER = -1;
    private static final long WARMED_UP = -2;
    private static final long STREAM_OVER = -3;
    private static final int STREAM_ID = 1;
    private static final long SETUP_SECONDS = 60;

    private final Settings settings;
    private final long measureNanos;
    private final long warmupNanos;
    private final PrintStream out;

    /** What both roles were started with; the receiver's measurements follow the writer's. */
    record Settings(boolean writer, String device, String address, String peer, int port, String group, int seconds,
        int connectSeconds)
    {
    }

    VerbsPairBenchmark(final Settings settings, final PrintStream out)
    {
        this.settings = settings;
        this.measureNanos = TimeUnit.SECONDS.toNanos(settings.seconds());
        this.warmupNanos = TimeUnit.SECONDS.toNanos(Math.max(1, settings.seconds() / 5));
        this.out = out;
    }

    public static void main(final String[] args)
    {
        final Settings settings;
        try
        {
            settings = parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("VerbsPairBenchmark: " + ex.getMessage());
            System.exit(2);
            return;
        }
        final String reason = VerbsTransport.unavailabilityReason(settings.device());
        if (null != reason)
        {
            System.err.println("VerbsPairBenchmark: " + reason);
            System.exit(1);
            return;
        }
        System.exit(new VerbsPairBenchmark(settings, System.out).run());
    }

    static Settings parse(final String[] args)
    {
        String role = null;
        String device = System.getenv("RXE_DEV");
        String address = System.getenv("RXE_IPV4");
        String peer = System.getenv("PEER_IPV4");
        int port = 18_710;
        String group = "239.77.9.0";
        int seconds = 5;
        int connectSeconds = 180;
        for (int i = 0; i < args.length; i += 2)
        {
            final String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--role" -> role = require(args[i], value);
                case "--device" -> device = require(args[i], value);
                case "--address" -> address = require(args[i], value);
                case "--peer" -> peer = require(args[i], value);
                case "--port" -> port = Integer.parseInt(require(args[i], value));
                case "--group" -> group = require(args[i], value);
                case "--seconds" -> seconds = Integer.parseInt(require(args[i], value));
                case "--connect-seconds" -> connectSeconds = Integer.parseInt(require(args[i], value));
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: --role " +
                    "writer|receiver --address OWN_IPV4 --peer PEER_IPV4 --seconds N [--device NAME] [--port N] " +
                    "[--group IPV4] [--connect-seconds N]");
            }
        }
        if (!"writer".equals(role) && !"receiver".equals(role))
        {
            throw new IllegalArgumentException("--role must be writer or receiver, was " + role);
        }
        if (null == address || null == peer)
        {
            throw new IllegalArgumentException("--address and --peer are required (or RXE_IPV4 and PEER_IPV4)");
        }
        if (seconds < 1 || seconds > 600 || connectSeconds < 1 || port < 1 || port > 65_533)
        {
            throw new IllegalArgumentException("--seconds must be 1..600, --connect-seconds positive, --port " +
                "1..65533");
        }
        return new Settings("writer".equals(role), device, address, peer, port, group, seconds, connectSeconds);
    }

    private static String require(final String option, final String value)
    {
        if (null == value)
        {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /** @return the exit code: 0 when every measurement ran, 1 otherwise (each failure printed, the rest still run). */
    int run()
    {
        int failed = 0;
        failed += attempt("ring-write-ab", () -> ring("ring-write-ab", VerbsContext.Rc.DISNI, settings.port()));
        failed += attempt("ring-write-native-ab",
            () -> ring("ring-write-native-ab", VerbsContext.Rc.NATIVE, settings.port() + 1));
        failed += attempt("ud-multicast-ab", () -> udMulticast("ud-multicast-ab", settings.port() + 2));
        return failed == 0 ? 0 : 1;
    }

    private int attempt(final String name, final Runnable measurement)
    {
        try
        {
            measurement.run();
            return 0;
        }
        catch (final RuntimeException ex)
        {
            out.printf(Locale.ROOT, "FAILED name=%s role=%s %s%n", name, settings.writer() ? "writer" : "receiver", ex);
            return 1;
        }
    }

    private VerbsContext context(final VerbsContext.Rc rc, final int port)
    {
        final String host = settings.writer() ? settings.address() : settings.peer();
        return new VerbsContext().device(settings.device()).controlAddress(host + ":" + port)
            .localAddress(settings.address()).multicastGroup(settings.group()).setupTimeoutMillis(20_000).rc(rc);
    }

    /** The writer accepts (the receiver may start minutes later under emulation); the receiver connects. */
    private BenchmarkLink connect(final VerbsTransport transport)
    {
        final long connectNanos = TimeUnit.SECONDS.toNanos(settings.connectSeconds());
        if (!settings.writer())
        {
            return new BenchmarkLink(transport.connectControl(connectNanos));
        }
        final ControlServer listener = transport.bindControl();
        final long giveUp = System.nanoTime() + connectNanos;
        ControlChannel channel;
        while (null == (channel = listener.accept()))
        {
            if (System.nanoTime() > giveUp)
            {
                throw new IllegalStateException("no receiver connected to " + listener.endpoint() + " within " +
                    settings.connectSeconds() + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return new BenchmarkLink(channel);
    }

    private void ring(final String name, final VerbsContext.Rc rc, final int port)
    {
        try (VerbsTransport transport = new VerbsTransport(context(rc, port)))
        {
            final BenchmarkLink link = connect(transport);
            if (settings.writer())
            {
                ringWriter(name, rc, transport, link);
            }
            else
            {
                ringReceiver(name, transport, link);
            }
        }
    }

    private void ringWriter(final String name, final VerbsContext.Rc rc, final VerbsTransport transport,
        final BenchmarkLink link)
    {
        final MemoryRegion pong = transport.registerRegion(2 * Long.BYTES, RegionAccess.REMOTE_WRITE);
        final MemoryRegion source = transport.registerRegion(SLOTS * SIZE, RegionAccess.LOCAL);
        link.sendKey(pong.remoteKey());
        final RemoteRegion toRing = link.channel().openRemoteRegion(link.awaitKey(SETUP_SECONDS));
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final long roundTrips = pingPong(source, toRing, pong, latency);
        mark(toRing, pong, PING_PONG_OVER);
        final long[] rate = streamWrites(source, toRing, pong);
        out.printf(Locale.ROOT, "RESULT name=%s size=%d msgs_per_s=%d p50_ns=%d p99_ns=%d p999_ns=%d%n",
            name, SIZE, Math.round(rate[0] * 1e9 / rate[1]), latency.getValueAtPercentile(50),
            latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9));
        out.printf(Locale.ROOT, "INFO name=%s rc=%s peer=%s round_trips=%d min_ns=%d max_ns=%d writes=%d " +
            "write_seconds=%.3f%n", name, rc, link.channel().peer(), roundTrips, latency.getMinValue(),
            latency.getMaxValue(), rate[0], rate[1] / 1e9);
        if (!link.byeAndAwaitHangUp(10))
        {
            out.printf(Locale.ROOT, "INFO name=%s the receiver did not hang up within 10 s of BYE%n", name);
        }
    }

    /** Each write of sequence n is answered by the receiver writing n back; half the round trip is recorded. */
    private long pingPong(final MemoryRegion source, final RemoteRegion toRing, final MemoryRegion pong,
        final Histogram latency)
    {
        long sequence = 0;
        final long start = System.nanoTime();
        final long measureFrom = start + warmupNanos;
        final long end = measureFrom + measureNanos;
        long now = start;
        while (now < end)
        {
            sequence++;
            final int offset = slot(sequence);
            source.buffer().putLong(offset + 8, now);
            source.buffer().putLong(offset, sequence);
            final long sentAt = System.nanoTime();
            post(toRing, source, offset, sequence);
            final long giveUp = sentAt + TimeUnit.SECONDS.toNanos(10);
            while (pong.buffer().getLongVolatile(ECHO_OFFSET) != sequence)
            {
                if (System.nanoTime() > giveUp)
                {
                    throw new IllegalStateException("write " + sequence + " was not answered in 10 s");
                }
                Thread.onSpinWait();
            }
            now = System.nanoTime();
            if (sentAt >= measureFrom)
            {
                latency.recordValue((now - sentAt) / 2);
            }
        }
        return latency.getTotalCount();
    }

    /** Writes back to back, timed from the warm-up's acknowledged marker to the last one's. */
    private long[] streamWrites(final MemoryRegion source, final RemoteRegion toRing, final MemoryRegion pong)
    {
        final long warmEnd = System.nanoTime() + warmupNanos;
        long sequence = 0;
        while (System.nanoTime() < warmEnd)
        {
            post(toRing, source, slot(++sequence), sequence);
        }
        mark(toRing, pong, WARMED_UP);
        final long start = System.nanoTime();
        final long end = start + measureNanos;
        long writes = 0;
        do
        {
            for (int i = 0; i < 64; i++)
            {
                post(toRing, source, slot(++sequence), sequence);
                writes++;
            }
        }
        while (System.nanoTime() < end);
        mark(toRing, pong, STREAM_OVER);
        return new long[] {writes, System.nanoTime() - start};
    }

    private static int slot(final long sequence)
    {
        return (int)(sequence % SLOTS) * SIZE;
    }

    private static void post(final RemoteRegion toRing, final MemoryRegion source, final int offset,
        final long sequence)
    {
        source.buffer().putLong(offset, sequence);
        int result;
        while ((result = toRing.write(offset, source, offset, SIZE)) == TransportResult.BACK_PRESSURED)
        {
            Thread.onSpinWait();
        }
        if (result != TransportResult.OK)
        {
            throw new IllegalStateException("RDMA Write failed: " + TransportResult.describe(result));
        }
    }

    /** Posts a marker after the writes so far and waits until the receiver writes it back. */
    private static void mark(final RemoteRegion toRing, final MemoryRegion pong, final long marker)
    {
        writeLong(toRing, MARKER_OFFSET, marker);
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pong.buffer().getLongVolatile(ACK_OFFSET) != marker)
        {
            if (System.nanoTime() > giveUp)
            {
                throw new IllegalStateException("marker " + marker + " was not acknowledged in 30 s");
            }
            Thread.onSpinWait();
        }
    }

    private static void writeLong(final RemoteRegion region, final int offset, final long value)
    {
        int result;
        while ((result = region.writeLong(offset, value)) == TransportResult.BACK_PRESSURED)
        {
            Thread.onSpinWait();
        }
        if (result != TransportResult.OK)
        {
            throw new IllegalStateException("RDMA Write failed: " + TransportResult.describe(result));
        }
    }

    private void ringReceiver(final String name, final VerbsTransport transport, final BenchmarkLink link)
    {
        final MemoryRegion ring = transport.registerRegion(MARKER_OFFSET + SIZE, RegionAccess.REMOTE_WRITE);
        link.sendKey(ring.remoteKey());
        final RemoteRegion toPong = link.channel().openRemoteRegion(link.awaitKey(SETUP_SECONDS));
        final long echoed = echo(ring, toPong, link);
        link.await(BenchmarkLink.BYE, 30, "the writer's BYE");
        out.printf(Locale.ROOT, "INFO name=%s role=receiver echoed=%d%n", name, echoed);
    }

    /**
     * Answers each sequence written into its slot until the writer says the round trips are over, then only
     * acknowledges markers until the stream is over. Polls the connection every 100 ms to notice a writer that went.
     */
    private long echo(final MemoryRegion ring, final RemoteRegion toPong, final BenchmarkLink link)
    {
        final long giveUp = System.nanoTime() + 2 * (warmupNanos + measureNanos) + TimeUnit.SECONDS.toNanos(120);
        long nextPoll = System.nanoTime();
        long expected = 1;
        long marker = 0;
        while (marker != STREAM_OVER)
        {
            if (marker == 0 && ring.buffer().getLongVolatile(slot(expected)) == expected)
            {
                writeLong(toPong, ECHO_OFFSET, expected++);
                continue;
            }
            final long seen = ring.buffer().getLongVolatile(MARKER_OFFSET);
            if (seen != marker)
            {
                marker = seen;
                writeLong(toPong, ACK_OFFSET, seen);
            }
            final long now = System.nanoTime();
            if (now - nextPoll > 0)
            {
                nextPoll = now + TimeUnit.MILLISECONDS.toNanos(100);
                if (!link.poll() || now > giveUp)
                {
                    throw new IllegalStateException(now > giveUp ? "the writer did not finish in time" :
                        "the writer hung up at marker " + marker + " after " + (expected - 1) + " echoes");
                }
            }
            Thread.onSpinWait();
        }
        return expected - 1;
    }

    private void udMulticast(final String name, final int port)
    {
        try (VerbsTransport transport = new VerbsTransport(context(VerbsContext.Rc.DISNI, port)))
        {
            if (settings.writer())
            {
                udWriter(name, transport, connect(transport));
                return;
            }
            // Joined before connecting: once the writer has the connection, the receiver is in the group.
            final MulticastSubscription subscription = transport.addSubscription(STREAM_ID);
            udReceiver(name, subscription, connect(transport));
        }
    }

    private void udWriter(final String name, final VerbsTransport transport, final BenchmarkLink link)
    {
        final MulticastPublication publication = transport.addPublication(STREAM_ID);
        final MemoryRegion source = transport.registerRegion(SLOTS * SIZE, RegionAccess.LOCAL);
        link.await(BenchmarkLink.READY, SETUP_SECONDS, "the receiver's READY");
        long sent = 0;
        long sequence = 0;
        final long measureFrom = System.nanoTime() + warmupNanos;
        final long end = measureFrom + measureNanos;
        long now = System.nanoTime();
        while (now < end)
        {
            final int offset = slot(++sequence);
            final boolean measured = now >= measureFrom;
            source.buffer().putLong(offset, sequence);
            source.buffer().putLong(offset + 8, measured ? 1 : 0);
            int result;
            while ((result = publication.offer(source, offset, SIZE)) == TransportResult.BACK_PRESSURED)
            {
                Thread.yield();
            }
            if (result != TransportResult.OK)
            {
                throw new IllegalStateException("UD send failed: " + TransportResult.describe(result));
            }
            sent += measured ? 1 : 0;
            now = System.nanoTime();
        }
        final long sendNanos = now - measureFrom;
        link.send(BenchmarkLink.END, sent, 0, 0);
        final long got = link.await(BenchmarkLink.COUNT, SETUP_SECONDS, "the receiver's count")[0];
        out.printf(Locale.ROOT, "RESULT name=%s size=%d msgs_per_s=%d%n", name, SIZE, Math.round(got * 1e9 / sendNanos));
        out.printf(Locale.ROOT, "INFO name=%s sent=%d received=%d lost=%d seconds=%.3f%n", name, sent, got,
            Math.max(0, sent - got), sendNanos / 1e9);
        link.byeAndAwaitHangUp(10);
    }

    /**
     * Counts the measured window's datagrams until the writer's END, and for as long after it as datagrams still
     * come (they travel on another queue pair than END), until 500 ms pass without one.
     */
    private void udReceiver(final String name, final MulticastSubscription subscription, final BenchmarkLink link)
    {
        link.send(BenchmarkLink.READY, 0, 0, 0);
        final long[] counts = new long[2];
        final long giveUp = System.nanoTime() + warmupNanos + measureNanos + TimeUnit.SECONDS.toNanos(120);
        final long quietNanos = TimeUnit.MILLISECONDS.toNanos(500);
        long[] end = null;
        long lastSeen = 0;
        while (true)
        {
            final int n = subscription.poll((buffer, offset, length) -> counts[(int)buffer.getLong(offset + 8) & 1]++,
                64);
            final long now = System.nanoTime();
            if (n > 0)
            {
                lastSeen = now;
                continue;
            }
            if (!link.poll() || now > giveUp)
            {
                throw new IllegalStateException(now > giveUp ? "no END from the writer in time" :
                    "the writer hung up before END");
            }
            if (null == end && null != (end = link.take(BenchmarkLink.END)))
            {
                lastSeen = now;
            }
            if (null != end && now - lastSeen > quietNanos)
            {
                break;
            }
            Thread.yield();
        }
        link.send(BenchmarkLink.COUNT, counts[1], 0, 0);
        link.await(BenchmarkLink.BYE, 30, "the writer's BYE");
        out.printf(Locale.ROOT, "INFO name=%s role=receiver received=%d warmup_received=%d writer_sent=%d " +
            "transport_losses=%d%n", name, counts[1], counts[0], end[0], subscription.lossCount());
    }
}
