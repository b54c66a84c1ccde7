package io.mdgate.bench;

import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A late join while the day goes on: what the snapshot costs everyone else. Feeds a generated benchmark day through
 * a normalizer with depth into an {@link EgressPublisher} over shm up to a join message as fast as it can, then the
 * rest paced at {@code rate} messages per second on the publisher's thread, each tick stamped with the time its
 * message was due (so a stalled duty cycle shows as latency, not as a later stamp). A live consumer of every
 * instrument (shared log) is connected from the start; at the join message a late consumer of every instrument
 * (view ALL) asks for a snapshot and builds its books from what it is delivered ({@link BookRestore}; its books are
 * allocated before the paced part, and the heap collected once, so no set-up garbage is collected inside it).
 * Consumers yield when a poll finds nothing, so that three threads share two cores.
 * <p>
 * Per way, one RESULT line: the publisher thread's CPU time per duty cycle while the snapshot was under way (what the
 * snapshot's work costs a cycle, whatever else runs on the host: preemption and collector pauses are not in it), the
 * wall time of the duty cycles while the snapshot was under way and outside it,
 * the live consumer's tick latency (due time to its poll) p50 / p99 / p99.9 / max over the paced part, the joiner's
 * time from its request to the end of the snapshot and to being live (delivered up to what was published when the
 * snapshot ended), its ticks, and whether its books agree with their own top of book at the end (mismatches 0).
 * Ways: {@code budget=N} (the publisher's {@code snapshotRecordsPerCycle}, default staging), {@code one-go} (the
 * largest budget and a staging buffer of 2M ticks: the whole snapshot in one duty cycle, as the earlier build did)
 * and {@code mirror} (ns per message of the feed with the order mirror on and off, twice each, no consumer: the
 * per-tick cost of keeping it).
 * <pre>
 *   java -Xmx8g -cp benchmarks/target/benchmarks.jar io.mdgate.bench.LateJoinUnderLoad [standard|deep] \
 *       [join-message] [rate] [ways]
 * </pre>
 * A command-line tool: the publisher's thread is the main thread; each consumer has its own.
 */
public final class LateJoinUnderLoad
{
    private static final int DEPTH = 10;
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** Staging for the whole snapshot of a day, so the largest budget builds it in one go. */
    private static final int ONE_GO_STAGING = 1 << 21;

    private LateJoinUnderLoad()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final BenchDay day = BenchDay.named(args.length > 0 ? args[0] : "standard");
        final long joinAt = args.length > 1 ? Long.parseLong(args[1]) : 9_000_000L;
        final long rate = args.length > 2 ? Long.parseLong(args[2]) : 500_000L;
        final List<String> ways = List.of((args.length > 3 ? args[3] : "one-go,budget=1024,one-go,budget=1024,mirror").split(","));
        final UnsafeBuffer file = GeneratedItchFile.load(day.simulation()).buffer();
        System.out.printf("day %s (%s), join at message %,d, then %,d messages/s%n", day.parameter(),
            day.simulation(), joinAt, rate);
        for (final String way : ways)
        {
            if (way.equals("mirror"))
            {
                mirrorCost(day, file, joinAt);
            }
            else if (way.equals("one-go"))
            {
                join(day, file, joinAt, rate, PublisherContext.MAX_SNAPSHOT_RECORDS_PER_CYCLE, ONE_GO_STAGING);
            }
            else
            {
                join(day, file, joinAt, rate, Integer.parseInt(way.substring("budget=".length())),
                    PublisherContext.DEFAULT_SNAPSHOT_TICKS);
            }
        }
    }

    private static void join(final BenchDay day, final UnsafeBuffer file, final long joinAt, final long rate,
        final int budget, final int staging) throws Exception
    {
        final String instance = "mdgate-latejoin-load-" + ProcessHandle.current().pid();
        final DayTicks ticks = new DayTicks();
        try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance)))
        {
            final PublisherContext context = new PublisherContext().transport(transport).recoverySource(ticks)
                .token("live", "live-token").token("late", "late-token").depthLevels(DEPTH)
                .snapshotBooks(day.books()).snapshotRecordsPerCycle(budget).snapshotTicks(staging).maxConsumers(2)
                .eventLog(message ->
                {
                    if (message.startsWith("snapshot"))
                    {
                        System.out.println("INFO " + message);
                    }
                });
            try (EgressPublisher publisher = new EgressPublisher(context))
            {
                final Feed feed = new Feed(day, file, publisher, ticks);
                final Live live = new Live(instance);
                final Thread liveThread = new Thread(live, "live-consumer");
                liveThread.start();
                while (publisher.activeConsumers() < 1 || publisher.sharedLogReaders() < 1)
                {
                    publisher.doWork();
                }
                feed.bulk(joinAt);
                while (live.delivered.get() < publisher.lastPublishedSequence())
                {
                    publisher.doWork(); // the live consumer catches up before its latency counts
                }
                live.reset.set(true);
                final Joiner joiner = new Joiner(instance, feed.published, day);
                final Thread joinThread = new Thread(joiner, "late-consumer");
                final Histogram building = new Histogram(HIGHEST_NANOS, 3);
                final Histogram otherwise = new Histogram(HIGHEST_NANOS, 3);
                final Histogram buildingCpu = new Histogram(HIGHEST_NANOS, 3);
                System.gc(); // the joiner's books are built: no set-up garbage is collected inside the measurement
                joinThread.start();
                feed.paced(rate, building, otherwise, buildingCpu, joiner.done);
                joinThread.join();
                live.stop.set(true);
                liveThread.join();
                if (null != joiner.failure)
                {
                    throw new IllegalStateException(joiner.failure);
                }
                final Histogram latency = live.latency;
                System.out.printf("RESULT budget=%d staging=%d cpu_p50_building_us=%.1f cpu_p99_building_us=%.1f " +
                    "cpu_p999_building_us=%.1f cpu_max_building_us=%.1f " +
                    "cycle_p50_building_us=%.1f cycle_p99_building_us=%.1f " +
                    "cycle_max_building_us=%.1f cycle_p999_building_us=%.1f " +
                    "cycles_building=%d cycle_max_otherwise_us=%.1f cycle_p999_otherwise_us=%.1f " +
                    "live_p50_us=%.1f live_p99_us=%.1f live_p999_us=%.1f live_max_us=%.1f live_ticks=%d " +
                    "snapshot_ms=%.1f live_ms=%.1f snapshot_ticks=%d from=%d to=%d top_mismatches=%d%n", budget,
                    staging, buildingCpu.getValueAtPercentile(50) / 1e3, buildingCpu.getValueAtPercentile(99) / 1e3,
                    buildingCpu.getValueAtPercentile(99.9) / 1e3, buildingCpu.getMaxValue() / 1e3,
                    building.getValueAtPercentile(50) / 1e3, building.getValueAtPercentile(99) / 1e3,
                    building.getMaxValue() / 1e3, building.getValueAtPercentile(99.9) / 1e3,
                    building.getTotalCount(), otherwise.getMaxValue() / 1e3,
                    otherwise.getValueAtPercentile(99.9) / 1e3, latency.getValueAtPercentile(50) / 1e3,
                    latency.getValueAtPercentile(99) / 1e3, latency.getValueAtPercentile(99.9) / 1e3,
                    latency.getMaxValue() / 1e3, latency.getTotalCount(), joiner.snapshotNanos / 1e6,
                    joiner.liveNanos / 1e6, joiner.snapshotTicks, joiner.from, joiner.to, joiner.topMismatches);
            }
        }
        finally
        {
            ticks.close();
            LateJoin.removeFiles(instance);
        }
    }

    private static void mirrorCost(final BenchDay day, final UnsafeBuffer file, final long messages) throws Exception
    {
        for (int round = 0; round < 4; round++)
        {
            final boolean mirror = round % 2 == 0;
            final String instance = "mdgate-mirror-cost-" + ProcessHandle.current().pid();
            final DayTicks ticks = new DayTicks();
            try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance));
                EgressPublisher publisher = new EgressPublisher(new PublisherContext().transport(transport)
                    .recoverySource(ticks).token("none", "none").depthLevels(DEPTH).snapshotBooks(day.books())
                    .orderSnapshots(mirror).eventLog(message -> { })))
            {
                final Feed feed = new Feed(day, file, publisher, ticks);
                final long start = System.nanoTime();
                feed.bulk(messages);
                final long nanos = System.nanoTime() - start;
                System.out.printf("RESULT mirror=%s messages=%d ticks=%d ns_per_message=%.1f ns_per_tick=%.1f%n",
                    mirror, messages, publisher.lastPublishedSequence(), (double)nanos / messages,
                    (double)nanos / publisher.lastPublishedSequence());
            }
            finally
            {
                ticks.close();
                LateJoin.removeFiles(instance);
            }
        }
    }

    /** The day's messages decoded into the publisher on its thread, each tick stamped with its message's due time. */
    private static final class Feed
    {
        private final UnsafeBuffer file;
        private final ItchMessageDecoder decoder = new ItchMessageDecoder();
        private final Normalizer normalizer;
        private final UnsafeBuffer stamped = new UnsafeBuffer(new byte[TickLayout.LENGTH]);
        private final MonotonicEpochClock clock = new MonotonicEpochClock();
        private final EgressPublisher publisher;
        /** The last sequence published, for the joiner's thread. */
        final AtomicLong published = new AtomicLong();
        private long due;
        private int offset;
        private long message;

        Feed(final BenchDay day, final UnsafeBuffer file, final EgressPublisher publisher, final DayTicks ticks)
        {
            this.file = file;
            this.publisher = publisher;
            final TickHandler tee = (buffer, at) ->
            {
                stamped.putBytes(0, buffer, at, TickLayout.LENGTH);
                stamped.putLong(TickLayout.RECEIVE_TIMESTAMP_OFFSET, due, ByteOrder.LITTLE_ENDIAN);
                ticks.onTick(stamped, 0);
                publisher.onTick(stamped, 0);
                published.lazySet(stamped.getLong(TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN));
            };
            normalizer = new Normalizer(new OrderBooks(day.books().conclude()),
                new ExchangeClock(LocalDate.of(2025, 1, 2)), tee, 1).depthLevels(DEPTH);
        }

        private boolean next()
        {
            if (offset >= file.capacity())
            {
                return false;
            }
            final int length = file.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            decoder.decode(file, offset + 2, length, normalizer);
            offset += 2 + length;
            message++;
            return true;
        }

        /** Up to message {@code until} as fast as it goes, a duty cycle every 256 messages. */
        void bulk(final long until)
        {
            while (message < until)
            {
                due = clock.nanoTime();
                if (!next())
                {
                    break;
                }
                if ((message & 255) == 0)
                {
                    publisher.doWork();
                }
            }
            publisher.flush();
        }

        /**
         * The rest of the day at {@code rate} messages per second (each due at start + k / rate), the publisher's duty
         * cycle run between them and timed, until the joiner is live and at least a second has gone by.
         */
        void paced(final long rate, final Histogram building, final Histogram otherwise, final Histogram buildingCpu,
            final AtomicBoolean joined)
        {
            final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            final long startNanos = System.nanoTime();
            final long startEpoch = clock.nanoTime();
            final double period = 1e9 / rate;
            long k = 0;
            boolean more = true;
            while (more && (!joined.get() || System.nanoTime() - startNanos < TimeUnit.SECONDS.toNanos(1)))
            {
                final long dueNanos = startNanos + (long)(k * period);
                long now = System.nanoTime();
                while (now >= dueNanos && more)
                {
                    due = startEpoch + (long)(k * period);
                    more = next();
                    k++;
                    if ((k & 15) != 0)
                    {
                        break;
                    }
                    now = System.nanoTime();
                }
                final boolean underWay = publisher.snapshotsUnderWay() > 0;
                final long cpuBefore = underWay ? threads.getCurrentThreadCpuTime() : 0;
                final long before = System.nanoTime();
                publisher.doWork();
                final long cycle = System.nanoTime() - before;
                (underWay ? building : otherwise).recordValue(Math.min(cycle, HIGHEST_NANOS));
                if (underWay)
                {
                    buildingCpu.recordValue(Math.min(threads.getCurrentThreadCpuTime() - cpuBefore, HIGHEST_NANOS));
                }
            }
        }
    }

    /** A consumer of every instrument, live from the start; its latency histogram restarts at the join. */
    private static final class Live implements Runnable
    {
        final AtomicBoolean reset = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong delivered = new AtomicLong();
        private final String instance;
        volatile Histogram latency;

        Live(final String instance)
        {
            this.instance = instance;
        }

        @Override
        public void run()
        {
            try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance));
                EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("live")
                    .token("live-token").pendingTicks(1 << 16)))
            {
                consumer.subscribeAll();
                boolean measuring = false;
                while (!stop.get())
                {
                    if (consumer.poll((buffer, offset) -> { }, 4096) == 0)
                    {
                        Thread.yield(); // two shared cores: give the publisher its time
                    }
                    delivered.set(consumer.lastDeliveredSequence());
                    if (!measuring && reset.get())
                    {
                        consumer.latency().reset();
                        measuring = true;
                    }
                }
                latency = consumer.latency().copy();
            }
        }
    }

    /** The late consumer: snapshot, then live; builds its books from what it is delivered. */
    private static final class Joiner implements Runnable
    {
        final AtomicBoolean done = new AtomicBoolean();
        private final String instance;
        private final AtomicLong published;
        private final OrderBooks books;
        private final BookRestore restore;
        volatile long snapshotNanos;
        volatile long liveNanos;
        volatile long snapshotTicks;
        volatile long from;
        volatile long to;
        volatile long topMismatches;
        volatile String failure;

        Joiner(final String instance, final AtomicLong published, final BenchDay day)
        {
            this.instance = instance;
            this.published = published;
            books = new OrderBooks(day.books().conclude());
            restore = new BookRestore(
                new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), (buffer, offset) -> { }, 1));
        }

        @Override
        public void run()
        {
            try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance));
                EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("late")
                    .token("late-token").pendingTicks(1 << 16).recordLatency(false)))
            {
                consumer.subscribeAll();
                final long start = System.nanoTime();
                consumer.requestSnapshot();
                final long deadline = start + TimeUnit.MINUTES.toNanos(5);
                long target = Long.MAX_VALUE;
                while (consumer.isSnapshotPending() || consumer.lastDeliveredSequence() < target)
                {
                    if (consumer.poll(restore, 4096) == 0)
                    {
                        Thread.yield();
                    }
                    if (target == Long.MAX_VALUE && !consumer.isSnapshotPending())
                    {
                        snapshotNanos = System.nanoTime() - start;
                        target = published.get();
                    }
                    if (System.nanoTime() > deadline)
                    {
                        failure = "not live after 5 minutes at " + consumer.lastDeliveredSequence();
                        return;
                    }
                }
                liveNanos = System.nanoTime() - start;
                snapshotTicks = consumer.counters().snapshotTicks();
                from = consumer.snapshotSequence();
                to = consumer.snapshotEndSequence();
                topMismatches = restore.topOfBookMismatches();
            }
            catch (final RuntimeException ex)
            {
                failure = ex.toString();
            }
            finally
            {
                done.set(true);
            }
        }
    }
}
