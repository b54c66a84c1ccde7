package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;
import io.mdgate.egress.transport.shm.HugepageMode;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Measures the verbs transport's two data paths on one RDMA device, both ends in this process with their own
 * transports (device contexts, protection domains, queue pairs), the way perftest runs server and client on one
 * device, so that the figures stand beside perftest's of the same run:
 * <ul>
 *   <li>{@code ring-write}: 64-byte ticks written with RDMA Write into a peer's ring over the RC control connection.
 *       Latency as {@code ib_write_lat} reports it: half the round trip of a write answered by a write from the
 *       peer; rate as {@code ib_write_bw}: writes posted back to back, counted once the last one is visible in the
 *       peer's memory.</li>
 *   <li>{@code ring-write-native}: the same over the project's own RC library instead of DiSNI (the default), in
 *       the same run, so that the two implementations of the RC path stand side by side.</li>
 *   <li>{@code ring-write-spread} and {@code ring-write-spread-huge} (with {@code --hugepages}): the same writes
 *       spread over a 64 MiB ring, on regular pages and then on 2 MiB pages (the host must have 32 free), to
 *       show what hugepage-backed registered memory changes.</li>
 *   <li>{@code ud-multicast}: 64-byte UD sends to the stream's group, received by a second queue pair joined to it
 *       (as {@code ib_send_bw -c UD}): datagrams received per second, and their one-way latency under that load.</li>
 * </ul>
 * Every sample is recorded in an HdrHistogram after a warm-up and nothing is trimmed. Prints one line per
 * measurement: {@code RESULT name=ring-write size=64 msgs_per_s=... p50_ns=... p99_ns=... p999_ns=...}, and
 * {@code INFO} lines with counts. Run as
 * {@code java -cp CLASSPATH io.mdgate.egress.transport.verbs.VerbsBenchmark --device rxe0 --seconds N}.
 * <p>
 * Threading: the main thread drives, one helper thread echoes or receives.
 */
public final class VerbsBenchmark
{
    private static final int SIZE = 64;
    private static final int SLOTS = 4096;
    private static final int SPREAD_SLOTS = 1 << 20;

    private final VerbsContext context;
    private final long measureNanos;
    private final long warmupNanos;
    private final PrintStream out;
    private final boolean hugepages;

    VerbsBenchmark(final VerbsContext context, final int seconds, final boolean hugepages, final PrintStream out)
    {
        this.context = context;
        this.hugepages = hugepages;
        this.measureNanos = TimeUnit.SECONDS.toNanos(seconds);
        this.warmupNanos = TimeUnit.SECONDS.toNanos(Math.max(1, seconds / 5));
        this.out = out;
    }

    public static void main(final String[] args)
    {
        String device = System.getenv().getOrDefault("RXE_DEV", null);
        String address = System.getenv().getOrDefault("RXE_IPV4", "10.77.0.1");
        int port = 18_700;
        String group = "239.77.9.0";
        int seconds = 5;
        boolean hugepages = false;
        try
        {
            for (int i = 0; i < args.length; i++)
            {
                final String value = i + 1 < args.length ? args[i + 1] : null;
                if ("--hugepages".equals(args[i]))
                {
                    hugepages = true;
                    continue;
                }
                switch (args[i])
                {
                    case "--device" -> device = require(args[i], value);
                    case "--address" -> address = require(args[i], value);
                    case "--port" -> port = Integer.parseInt(require(args[i], value));
                    case "--group" -> group = require(args[i], value);
                    case "--seconds" -> seconds = Integer.parseInt(require(args[i], value));
                    default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: " +
                        "--device NAME --seconds N [--address IPV4] [--port N] [--group IPV4] [--hugepages]");
                }
                i++;
            }
            if (seconds < 1 || seconds > 600)
            {
                throw new IllegalArgumentException("--seconds must be 1..600, was " + seconds);
            }
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("VerbsBenchmark: " + ex.getMessage());
            System.exit(2);
            return;
        }
        if (Runtime.getRuntime().availableProcessors() < 2)
        {
            System.err.println("VerbsBenchmark: WARNING only " + Runtime.getRuntime().availableProcessors() +
                " CPU: the two ends share it, so the figures mostly measure scheduling");
        }
        final VerbsContext context = new VerbsContext().device(device).controlAddress(address + ":" + port)
            .multicastGroup(group).setupTimeoutMillis(20_000);
        final String reason = VerbsTransport.unavailabilityReason(device);
        if (null != reason)
        {
            System.err.println("VerbsBenchmark: " + reason);
            System.exit(1);
            return;
        }
        new VerbsBenchmark(context, seconds, hugepages, System.out).run();
        System.exit(0);
    }

    private static String require(final String option, final String value)
    {
        if (null == value)
        {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    void run()
    {
        ringWrite("ring-write", VerbsContext.Rc.DISNI, HugepageMode.OFF, SLOTS);
        ringWrite("ring-write-native", VerbsContext.Rc.NATIVE, HugepageMode.OFF, SLOTS);
        if (hugepages)
        {
            ringWrite("ring-write-spread", VerbsContext.Rc.DISNI, HugepageMode.OFF, SPREAD_SLOTS);
            ringWrite("ring-write-spread-huge", VerbsContext.Rc.DISNI, HugepageMode.REQUIRED, SPREAD_SLOTS);
        }
        udMulticast();
    }

    private void ringWrite(final String name, final VerbsContext.Rc rc, final HugepageMode pages, final int slots)
    {
        final int markerOffset = slots * SIZE;
        try (VerbsTransport server = new VerbsTransport(copy(context).rc(rc));
            VerbsTransport client = new VerbsTransport(copy(context).rc(rc).hugepages(pages)))
        {
            final ControlServer listener = server.bindControl();
            final CompletableFuture<ControlChannel> connecting =
                CompletableFuture.supplyAsync(() -> client.connectControl(TimeUnit.SECONDS.toNanos(30)));
            ControlChannel serverEnd = null;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (null == serverEnd && System.nanoTime() < deadline)
            {
                serverEnd = listener.accept();
            }
            final ControlChannel clientEnd = connecting.join();
            if (null == serverEnd)
            {
                throw new IllegalStateException("the connection was not accepted in 30 s");
            }
            final MemoryRegion ring = client.registerRegion(markerOffset + SIZE, RegionAccess.REMOTE_WRITE);
            final MemoryRegion pong = server.registerRegion(SIZE, RegionAccess.REMOTE_WRITE);
            final MemoryRegion source = server.registerRegion(SLOTS * SIZE, RegionAccess.LOCAL);
            final RemoteRegion toRing = serverEnd.openRemoteRegion(ring.remoteKey());
            final RemoteRegion toPong = clientEnd.openRemoteRegion(pong.remoteKey());

            final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            final long sent = pingPong(source, toRing, ring, toPong, pong, latency, slots);
            final long[] rate = streamWrites(source, toRing, ring, slots);
            final double perSecond = rate[0] * 1e9 / rate[1];
            out.printf(Locale.ROOT, "RESULT name=%s size=%d msgs_per_s=%d p50_ns=%d p99_ns=%d p999_ns=%d%n",
                name, SIZE, Math.round(perSecond), latency.getValueAtPercentile(50), latency.getValueAtPercentile(99),
                latency.getValueAtPercentile(99.9));
            out.printf(Locale.ROOT, "INFO name=%s rc=%s ring_bytes=%d hugepage_fallbacks=%d round_trips=%d " +
                "min_ns=%d max_ns=%d writes=%d write_seconds=%.3f%n", name, rc, markerOffset + SIZE,
                client.hugepageFallbacks(), sent, latency.getMinValue(), latency.getMaxValue(), rate[0],
                rate[1] / 1e9);
        }
    }

    private static VerbsContext copy(final VerbsContext context)
    {
        return new VerbsContext().device(context.device()).controlAddress(context.controlAddress())
            .multicastGroup(context.multicastGroup()).setupTimeoutMillis(context.setupTimeoutMillis())
            .rc(context.rc());
    }

    /** ib_write_lat's measure: each write of sequence n is answered by the peer writing n back; half the RTT. */
    private long pingPong(final MemoryRegion source, final RemoteRegion toRing, final MemoryRegion ring,
        final RemoteRegion toPong, final MemoryRegion pong, final Histogram latency, final int slots)
    {
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread echo = new Thread(() ->
        {
            long expected = 1;
            while (running.get())
            {
                final int offset = (int)(expected % slots) * SIZE;
                if (ring.buffer().getLongVolatile(offset) == expected)
                {
                    while (toPong.writeLong(0, expected) == TransportResult.BACK_PRESSURED)
                    {
                        Thread.onSpinWait();
                    }
                    expected++;
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
        }, "verbs-bench-echo");
        echo.setDaemon(true);
        echo.start();
        long sequence = 0;
        final long start = System.nanoTime();
        final long measureFrom = start + warmupNanos;
        final long end = measureFrom + measureNanos;
        long now = start;
        while (now < end)
        {
            sequence++;
            final int offset = (int)(sequence % SLOTS) * SIZE;
            final int remoteOffset = (int)(sequence % slots) * SIZE;
            source.buffer().putLong(offset + 8, now);
            source.buffer().putLong(offset, sequence);
            final long sentAt = System.nanoTime();
            while (toRing.write(remoteOffset, source, offset, SIZE) == TransportResult.BACK_PRESSURED)
            {
                Thread.onSpinWait();
            }
            final long giveUp = sentAt + TimeUnit.SECONDS.toNanos(10);
            while (pong.buffer().getLongVolatile(0) != sequence)
            {
                if (System.nanoTime() > giveUp)
                {
                    running.set(false);
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
        running.set(false);
        try
        {
            echo.join(TimeUnit.SECONDS.toMillis(5));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        return latency.getTotalCount();
    }

    /** ib_write_bw's measure: writes posted back to back; counted when the marker after the last one lands. */
    private long[] streamWrites(final MemoryRegion source, final RemoteRegion toRing, final MemoryRegion ring,
        final int slots)
    {
        final long warmEnd = System.nanoTime() + warmupNanos;
        long sequence = 0;
        while (System.nanoTime() < warmEnd)
        {
            sequence = post(source, toRing, sequence, slots);
        }
        awaitMarker(toRing, ring, -1, slots);
        final long start = System.nanoTime();
        final long end = start + measureNanos;
        long writes = 0;
        while (true)
        {
            for (int i = 0; i < 64; i++)
            {
                sequence = post(source, toRing, sequence, slots);
                writes++;
            }
            if (System.nanoTime() >= end)
            {
                break;
            }
        }
        awaitMarker(toRing, ring, -2, slots);
        return new long[] {writes, System.nanoTime() - start};
    }

    private static long post(final MemoryRegion source, final RemoteRegion toRing, final long sequence,
        final int slots)
    {
        final long next = sequence + 1;
        final int offset = (int)(next % SLOTS) * SIZE;
        source.buffer().putLong(offset, next);
        int result;
        while ((result = toRing.write((int)(next % slots) * SIZE, source, offset, SIZE)) ==
            TransportResult.BACK_PRESSURED)
        {
            Thread.onSpinWait();
        }
        if (result != TransportResult.OK)
        {
            throw new IllegalStateException("RDMA Write failed: " + TransportResult.describe(result));
        }
        return next;
    }

    private static void awaitMarker(final RemoteRegion toRing, final MemoryRegion ring, final long marker,
        final int slots)
    {
        final int markerOffset = slots * SIZE;
        while (toRing.writeLong(markerOffset, marker) == TransportResult.BACK_PRESSURED)
        {
            Thread.onSpinWait();
        }
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ring.buffer().getLongVolatile(markerOffset) != marker)
        {
            if (System.nanoTime() > giveUp)
            {
                throw new IllegalStateException("the writes did not land in 30 s");
            }
            Thread.onSpinWait();
        }
    }

    private void udMulticast()
    {
        try (VerbsTransport sender = new VerbsTransport(copy(context));
            VerbsTransport receiver = new VerbsTransport(copy(context).localAddress(context.controlHost())))
        {
            final int streamId = 1;
            final MulticastSubscription subscription = receiver.addSubscription(streamId);
            final MulticastPublication publication = sender.addPublication(streamId);
            final MemoryRegion source = sender.registerRegion(SLOTS * SIZE, RegionAccess.LOCAL);
            final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            final AtomicBoolean running = new AtomicBoolean(true);
            final long[] received = new long[1];
            final long measureFrom = System.nanoTime() + warmupNanos;
            final Thread reader = new Thread(() ->
            {
                while (running.get())
                {
                    final int n = subscription.poll((buffer, offset, length) ->
                    {
                        final long sentAt = buffer.getLong(offset + 8);
                        if (sentAt >= measureFrom)
                        {
                            received[0]++;
                            latency.recordValue(Math.max(0, System.nanoTime() - sentAt));
                        }
                    }, 64);
                    if (n == 0)
                    {
                        // Soft-RoCE does its packet work in the kernel on the same CPUs: leave it room.
                        Thread.yield();
                    }
                }
            }, "verbs-bench-receiver");
            reader.start();
            long sent = 0;
            long sequence = 0;
            final long end = measureFrom + measureNanos;
            long now = System.nanoTime();
            while (now < end)
            {
                sequence++;
                final int offset = (int)(sequence % SLOTS) * SIZE;
                source.buffer().putLong(offset, sequence);
                source.buffer().putLong(offset + 8, now);
                while (publication.offer(source, offset, SIZE) == TransportResult.BACK_PRESSURED)
                {
                    Thread.yield();
                }
                now = System.nanoTime();
                if (now >= measureFrom)
                {
                    sent++;
                }
            }
            final long sendNanos = now - measureFrom;
            sleepMillis(300);
            running.set(false);
            try
            {
                reader.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            final long got = received[0]; // the reader has ended: join orders its writes before this read
            out.printf(Locale.ROOT, "RESULT name=ud-multicast size=%d msgs_per_s=%d p50_ns=%d p99_ns=%d p999_ns=%d%n",
                SIZE, Math.round(got * 1e9 / sendNanos), latency.getValueAtPercentile(50),
                latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9));
            out.printf(Locale.ROOT, "INFO name=ud-multicast sent=%d received=%d lost=%d seconds=%.3f%n", sent, got,
                Math.max(0, sent - got), sendNanos / 1e9);
        }
    }

    private static void sleepMillis(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
