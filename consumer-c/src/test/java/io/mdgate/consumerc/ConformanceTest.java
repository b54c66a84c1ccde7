package io.mdgate.consumerc;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.TickSource;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The same scenario through the Java SDK and through the C library, side by side on one publisher: for each pair of
 * consumers (same subscriptions, views and path) the ticks delivered must be the same, tick for tick and byte for
 * byte, except the {@code replayed} flag, which tells how a recovered tick came and so depends on timing. The pairs:
 * instruments by id with view DEPTH on the ring, every instrument through the shared log, symbols with view TOP on
 * the stream, and a late joiner (resume from 1) of two instruments with view ORDERS that recovers what it missed;
 * and two late joiners that take a snapshot (at the same sequence: nothing is published meanwhile) and go live.
 */
class ConformanceTest
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();
    private static final long LAST = 20_000;
    private static final long HALF = 10_000;

    private final List<NativeProcess> processes = new ArrayList<>();
    private final List<JavaConsumerThread> threads = new ArrayList<>();
    private PublisherHarness harness;

    @AfterEach
    void tearDown() throws InterruptedException
    {
        processes.forEach(NativeProcess::close);
        for (final JavaConsumerThread thread : threads)
        {
            thread.close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    private static UnsafeBuffer tick(final long sequence)
    {
        final int instrument = (int)(sequence % 10) + 1;
        if (sequence == 1)
        {
            return Ticks.instrument(1, 7, "MSFT");
        }
        if (sequence == 2)
        {
            return Ticks.instrument(2, 4, "AAPL");
        }
        if (sequence == LAST || sequence % 97 == 0)
        {
            return Ticks.systemEvent(sequence, 'Q');
        }
        final Side side = sequence % 2 == 0 ? Side.BUY : Side.SELL;
        if (sequence % 7 == 0)
        {
            return Ticks.topOfBook(sequence, instrument, side, 1_000_000 + (int)(sequence % 500), 100, 2);
        }
        if (sequence % 11 == 0)
        {
            return Ticks.level(sequence, instrument, side, 990_000 + (int)(sequence % 300), sequence % 5 * 100, 1,
                (int)(sequence % 4));
        }
        if (sequence % 13 == 0)
        {
            return Ticks.event(sequence, instrument, EventType.TRADE);
        }
        return Ticks.add(sequence, instrument, CLOCK.nanoTime());
    }

    private void publish(final long from, final long to)
    {
        final long start = System.nanoTime();
        for (long sequence = from; sequence <= to; sequence++)
        {
            harness.publish(tick(sequence));
            if ((sequence - from) % 100 == 99)
            {
                final long wait = start + (sequence - from + 1) * 20_000L - System.nanoTime(); // 50,000 ticks/s
                if (wait > 0)
                {
                    LockSupport.parkNanos(wait);
                }
            }
        }
    }

    private NativeProcess cConsumer(final String name, final String... options) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(NativeBuild.RELEASE.tool("mdgate-consume-c").toString(),
            "--instance", harness.shm().instance(), "--consumer", name, "--token", name + PublisherHarness.TOKEN_SUFFIX,
            "--format", "hex", "--until", Long.toString(LAST)));
        command.addAll(List.of(options));
        final NativeProcess process = new NativeProcess(name, NativeBuild.RELEASE, command);
        processes.add(process);
        return process;
    }

    private JavaConsumerThread javaConsumer(final String name, final DeliveryPath path, final long resumeFrom,
        final java.util.function.Consumer<io.mdgate.egress.consumer.EgressConsumer> subscribe)
    {
        final JavaConsumerThread thread = new JavaConsumerThread(harness.shm().instance(), name,
            name + PublisherHarness.TOKEN_SUFFIX, path, resumeFrom, LAST, subscribe);
        threads.add(thread);
        return thread;
    }

    private static List<String> withoutReplayedFlag(final List<byte[]> ticks)
    {
        final List<String> hex = new ArrayList<>();
        for (final byte[] tick : ticks)
        {
            final byte[] copy = tick.clone();
            copy[TickLayout.FLAGS_OFFSET] &= (byte)~TickLayout.REPLAYED_FLAG;
            hex.add(HexFormat.of().formatHex(copy));
        }
        return hex;
    }

    private static List<byte[]> parse(final NativeProcess process)
    {
        final List<byte[]> ticks = new ArrayList<>();
        for (final String line : process.out())
        {
            ticks.add(HexFormat.of().parseHex(line));
        }
        return ticks;
    }

    @Test
    void shouldDeliverTheSameSnapshotAndLiveTicksThroughTheCLibraryAsThroughTheJavaSdk() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("j-snap", "c-snap"),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)).orderSnapshots(true));
        publish(1, HALF); // then nothing while the two late joiners take their snapshots: both at the same S
        final JavaConsumerThread javaLate = new JavaConsumerThread(harness.shm().instance(), "j-snap",
            "j-snap" + PublisherHarness.TOKEN_SUFFIX, DeliveryPath.RING, 0, true, LAST,
            JavaConsumerThread.instruments(SubscriptionView.ALL, 1, 2, 3));
        threads.add(javaLate);
        final NativeProcess cLate = cConsumer("c-snap", "--instruments", "1,2,3", "--snapshot");
        cLate.awaitLine(true, line -> line.contains(": snapshot at sequence " + HALF + " "), 60, "the snapshot");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (javaLate.snapshotSequence() != HALF)
        {
            assertTrue(System.nanoTime() < deadline, "the Java consumer's snapshot: " + javaLate.snapshotSequence());
            Thread.sleep(5);
        }
        publish(HALF + 1, LAST);

        assertEquals(0, cLate.awaitExit(120), cLate.err().toString());
        final List<byte[]> java = javaLate.awaitDone();
        final List<byte[]> c = parse(cLate);
        assertEquals(withoutReplayedFlag(java), withoutReplayedFlag(c), "snapshot, then live ticks after it");
        final long snapshotTicks = java.stream().filter(ConformanceTest::isSnapshot).count();
        assertTrue(snapshotTicks > 100, "the snapshot holds the instruments' orders and levels: " + snapshotTicks);
        assertTrue(java.subList(0, (int)snapshotTicks).stream().allMatch(ConformanceTest::isSnapshot),
            "the snapshot comes first");
        assertEquals(HALF + 1, sequenceOf(java.get((int)snapshotTicks)), "live from S + 1 (instrument 2's) on");
        assertTrue(cLate.err().stream().anyMatch(line -> line.contains("snapshots 1 (" + snapshotTicks + " ticks")),
            cLate.err().toString());
    }

    /**
     * The C library's side of the per-instrument rule: a snapshot built two records a duty cycle while the day keeps
     * being published, so its parts are taken at different sequences S(i); the C joiner must then deliver, of each
     * instrument, exactly the live ticks after its S(i) (after the snapshot's {@code from} for market-wide ticks), in
     * order, each once.
     */
    @Test
    void shouldDeliverEachInstrumentAfterItsOwnSnapshotSequenceWhileTheDayGoesOn() throws Exception
    {
        final BuildPacedDay day = new BuildPacedDay();
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("c-snap"),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)).orderSnapshots(true)
                .snapshotRecordsPerCycle(2).tickSource(day.over(context.tickSource())));
        day.publisher = harness.publisher();
        publish(1, HALF);
        harness.awaitDrained();
        // The rest of the day waits in the harness's ring, held until the joiner's snapshot is under way; then the
        // publisher takes one tick a duty cycle while it builds two records a cycle, so the build falls within the
        // day and its parts come out at different sequences however the threads of a loaded host are scheduled.
        // (Ticks spaced in time instead raced the build: a build of a few hundred records fell whole between two
        // ticks 20 µs apart on a busy CI host, and every part came out at one sequence.)
        day.hold = true;
        publish(HALF + 1, LAST);
        final NativeProcess cLate = cConsumer("c-snap", "--instruments", "1,2,3", "--snapshot");
        assertEquals(0, cLate.awaitExit(120), cLate.err().toString());
        assertTrue(day.pacedTicks > 1, "ticks taken while the snapshot was built: " + day.pacedTicks);
        final List<byte[]> delivered = parse(cLate);
        final long from = cLate.err().stream().filter(line -> line.contains(": snapshot at sequence "))
            .map(line -> Long.parseLong(line.replaceAll(".*: snapshot at sequence (\\d+).*", "$1")))
            .findFirst().orElseThrow(() -> new AssertionError("no snapshot line: " + cLate.err()));
        final Map<Integer, Long> part = new java.util.TreeMap<>();
        int snapshotTicks = 0;
        while (snapshotTicks < delivered.size() && isSnapshot(delivered.get(snapshotTicks)))
        {
            part.merge(instrumentOf(delivered.get(snapshotTicks)), sequenceOf(delivered.get(snapshotTicks)), Math::max);
            snapshotTicks++;
        }
        assertEquals(java.util.Set.of(1, 2, 3), part.keySet(), "a part per instrument: " + part);
        assertTrue(part.values().stream().allMatch(s -> s >= from), "every S(i) at or after from " + from + ": " + part);
        assertTrue(part.values().stream().distinct().count() > 1,
            "the parts were taken at different sequences while the day went on: " + part);
        final List<Long> expected = new ArrayList<>();
        for (long sequence = from + 1; sequence <= LAST; sequence++)
        {
            final int instrument = instrumentOf(tickBytes(sequence));
            if ((instrument == 0 || part.containsKey(instrument)) && sequence > part.getOrDefault(instrument, from))
            {
                expected.add(sequence);
            }
        }
        final List<Long> live = delivered.subList(snapshotTicks, delivered.size()).stream()
            .map(ConformanceTest::sequenceOf).toList();
        int first = 0;
        while (first < Math.min(expected.size(), live.size()) && expected.get(first).equals(live.get(first)))
        {
            first++;
        }
        final int at = first;
        assertTrue(expected.equals(live), () -> "after the parts: each instrument's ticks after its S(i), once, in " +
            "order; " + expected.size() + " due, " + live.size() + " delivered, first difference at " + at + ": due " +
            (at < expected.size() ? expected.get(at) : "nothing") + ", got " + (at < live.size() ? live.get(at) :
            "nothing") + " (parts " + part + ", from " + from + ")");
        assertTrue(delivered.subList(snapshotTicks, delivered.size()).stream().noneMatch(ConformanceTest::isSnapshot));
    }

    private static byte[] tickBytes(final long sequence)
    {
        final UnsafeBuffer buffer = tick(sequence);
        final byte[] bytes = new byte[TickLayout.LENGTH];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    private static int instrumentOf(final byte[] tick)
    {
        return (tick[TickLayout.INSTRUMENT_ID_OFFSET] & 0xFF) | (tick[TickLayout.INSTRUMENT_ID_OFFSET + 1] & 0xFF) << 8;
    }

    private static boolean isSnapshot(final byte[] tick)
    {
        return (((tick[TickLayout.FLAGS_OFFSET + 1] & 0xFF) << 8 | (tick[TickLayout.FLAGS_OFFSET] & 0xFF)) &
            TickLayout.SNAPSHOT_FLAG) != 0;
    }

    private static long sequenceOf(final byte[] tick)
    {
        return java.nio.ByteBuffer.wrap(tick).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(0);
    }

    private static long count(final List<byte[]> ticks, final EventType type)
    {
        return ticks.stream().filter(t -> t[TickLayout.EVENT_TYPE_OFFSET] == (byte)type.value()).count();
    }

    @Test
    void shouldDeliverTheSameTicksThroughTheCLibraryAsThroughTheJavaSdk() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("j-ring", "c-ring", "j-log",
            "c-log", "j-stream", "c-stream", "j-late", "c-late"),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30))
                .sharedLogSlots(PublisherContext.DEFAULT_SHARED_LOG_SLOTS));
        final JavaConsumerThread javaRing = javaConsumer("j-ring", DeliveryPath.RING, 0,
            JavaConsumerThread.instruments(SubscriptionView.DEPTH, 1, 2, 3));
        final NativeProcess cRing = cConsumer("c-ring", "--instruments", "1,2,3", "--view", "depth",
            "--ring-slots", "16384");
        final JavaConsumerThread javaLog =
            javaConsumer("j-log", DeliveryPath.RING, 0, consumer -> consumer.subscribeAll());
        final NativeProcess cLog = cConsumer("c-log", "--all", "--ring-slots", "16384");
        final JavaConsumerThread javaStream = javaConsumer("j-stream", DeliveryPath.STREAM, 0, consumer ->
        {
            consumer.subscribe("MSFT", SubscriptionView.TOP);
            consumer.subscribe("AAPL", SubscriptionView.TOP);
        });
        final NativeProcess cStream =
            cConsumer("c-stream", "--symbols", "MSFT,AAPL", "--view", "top", "--path", "stream");
        for (final JavaConsumerThread thread : threads)
        {
            thread.awaitReady();
        }
        for (final NativeProcess process : processes)
        {
            process.awaitReady(60);
        }

        publish(1, HALF);
        final JavaConsumerThread javaLate = javaConsumer("j-late", DeliveryPath.RING, 1,
            JavaConsumerThread.instruments(SubscriptionView.ORDERS, 4, 5));
        final NativeProcess cLate = cConsumer("c-late", "--instruments", "4,5", "--view", "orders",
            "--resume-from", "1", "--ring-slots", "16384");
        javaLate.awaitReady();
        cLate.awaitReady(60);
        publish(HALF + 1, LAST);

        for (final NativeProcess process : processes)
        {
            assertEquals(0, process.awaitExit(120), process.err().toString());
        }
        final List<byte[]> ring = javaRing.awaitDone();
        final List<byte[]> log = javaLog.awaitDone();
        final List<byte[]> stream = javaStream.awaitDone();
        final List<byte[]> late = javaLate.awaitDone();

        assertEquals(withoutReplayedFlag(ring), withoutReplayedFlag(parse(cRing)), "ring, instruments 1-3, DEPTH");
        assertEquals(withoutReplayedFlag(log), withoutReplayedFlag(parse(cLog)), "every instrument, shared log");
        assertEquals(withoutReplayedFlag(stream), withoutReplayedFlag(parse(cStream)), "stream, MSFT and AAPL, TOP");
        assertEquals(withoutReplayedFlag(late), withoutReplayedFlag(parse(cLate)), "late joiner, 4 and 5, ORDERS");

        assertEquals(LAST, log.size(), "the consumers of every instrument got every tick");
        assertEquals(0, count(ring, EventType.ADD), "DEPTH takes no order events");
        assertTrue(count(ring, EventType.LEVEL) > 100, "DEPTH takes LEVEL ticks");
        assertEquals(0, count(stream, EventType.LEVEL), "TOP takes no LEVEL ticks");
        assertTrue(count(stream, EventType.TOP_OF_BOOK) > 100, "TOP takes TOP_OF_BOOK ticks");
        assertTrue(count(late, EventType.ADD) > 1000 && count(late, EventType.LEVEL) == 0, "ORDERS takes order events");
        assertEquals(2, late.get(0)[0], "the late joiner recovered from the start: sequence 2 names its instrument 4");
    }

    /**
     * The publisher's tick source in the per-instrument snapshot test: once {@link #hold} is set it hands over no tick
     * until a snapshot is under way, then one a duty cycle while it is, then every waiting tick again. Read and written
     * on the publisher's thread only, apart from the two set-up fields.
     */
    private static final class BuildPacedDay
    {
        volatile EgressPublisher publisher;
        volatile boolean hold;
        volatile long pacedTicks;
        private boolean snapshotSeen;

        TickSource over(final TickSource source)
        {
            return (handler, limit) ->
            {
                if (!hold)
                {
                    return source.poll(handler, limit);
                }
                if (publisher.snapshotsUnderWay() > 0)
                {
                    snapshotSeen = true;
                    final int taken = source.poll(handler, 1);
                    pacedTicks += taken;
                    return taken;
                }
                return snapshotSeen ? source.poll(handler, limit) : 0;
            };
        }
    }
}
