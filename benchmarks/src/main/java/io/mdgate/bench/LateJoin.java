package io.mdgate.bench;

import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Time to be live for a late joiner, snapshot against full replay: feeds a generated 10M-message benchmark day
 * through a normalizer with depth into an {@link EgressPublisher} over shm (no network), keeping every tick in
 * memory as the recovery source; stops feeding at message 9,000,000 and lets a consumer of every instrument (view
 * ALL, through the shared tick log) join, which builds its order books from what it is delivered (an application's
 * {@link BookRestore}), once with a snapshot and once recovering from sequence 1. "Live" is the moment its books
 * hold every tick published: snapshot end or replay reaching the publisher's last sequence. Prints one line per
 * way with milliseconds, ticks handed over, the orders the books hold, the top-of-book ticks that disagree with them
 * (0: the books are right) and the publisher's longest duty cycle meanwhile (for the snapshot, its build: what live
 * ticks would wait behind it).
 * <pre>
 *   java -Xmx8g -cp benchmarks/target/benchmarks.jar io.mdgate.bench.LateJoin [standard|deep] [join-message] [ways]
 * </pre>
 * {@code ways} is a comma-separated subset of {@code snapshot,snapshot-again,replay,replay-unlimited} (all by
 * default). The snapshot runs twice, the second time in a JVM whose snapshot code has run once (compiled, as in a gateway
 * that has served one). Replay runs at the publisher's recovery rate ({@code recoveryTicksPerSecond}, 2 million ticks/s by default) and
 * again without that limit. A command-line tool: the publisher's thread is the main thread, the consumer has its
 * own.
 */
public final class LateJoin
{
    private static final int DEPTH = 10;

    private LateJoin()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final BenchDay day = BenchDay.named(args.length > 0 ? args[0] : "standard");
        final long joinAt = args.length > 1 ? Long.parseLong(args[1]) : 9_000_000L;
        final SimulationConfig config = day.simulation();
        final UnsafeBuffer file = GeneratedItchFile.load(config).buffer();
        System.out.printf("day %s (%s), join at message %,d%n", day.parameter(), config, joinAt);
        final List<String> ways = List.of((args.length > 2 ? args[2] : "snapshot,snapshot-again,replay,replay-unlimited")
            .split(","));
        for (final String way : ways)
        {
            run(day, file, joinAt, way, way.equals("replay-unlimited") ? Long.MAX_VALUE / 4 :
                PublisherContext.DEFAULT_RECOVERY_TICKS_PER_SECOND);
        }
    }

    private static void run(final BenchDay day, final UnsafeBuffer file, final long joinAt, final String way,
        final long recoveryRate) throws Exception
    {
        final String instance = "mdgate-latejoin-" + ProcessHandle.current().pid();
        final DayTicks ticks = new DayTicks();
        try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance)))
        {
            final PublisherContext context = new PublisherContext().transport(transport).recoverySource(ticks)
                .token("late", "late-token").depthLevels(DEPTH).snapshotBooks(day.books())
                .recoveryTicksPerSecond(recoveryRate)
                .recoveryTicksPerCycle(recoveryRate > PublisherContext.DEFAULT_RECOVERY_TICKS_PER_SECOND ? 1 << 16 :
                    PublisherContext.DEFAULT_RECOVERY_TICKS_PER_CYCLE)
                .eventLog(message ->
                {
                    if (message.startsWith("snapshot"))
                    {
                        System.out.println("INFO " + message);
                    }
                });
            try (EgressPublisher publisher = new EgressPublisher(context))
            {
                final long fedNanos = feed(day, file, joinAt, publisher, ticks);
                final long last = publisher.lastPublishedSequence();
                final Result result = new Result();
                final AtomicBoolean done = new AtomicBoolean();
                final Thread consumer = new Thread(() -> join(instance, way.startsWith("snapshot"), last, result, done, day),
                    "late-consumer");
                consumer.start();
                long longestCycle = 0;
                while (!done.get())
                {
                    final long cycleStart = System.nanoTime();
                    publisher.doWork();
                    longestCycle = Math.max(longestCycle, System.nanoTime() - cycleStart);
                }
                consumer.join();
                if (null != result.failure)
                {
                    throw new IllegalStateException(way + ": " + result.failure);
                }
                System.out.printf("RESULT way=%s live_ms=%.1f ticks=%d snapshot_sequence=%d last_sequence=%d " +
                    "orders=%d top_mismatches=%d longest_duty_cycle_ms=%.2f feed_s=%.1f%n", way, result.nanos / 1e6,
                    result.ticks, result.snapshotSequence, last, result.orders, result.topMismatches,
                    longestCycle / 1e6, fedNanos / 1e9);
            }
        }
        finally
        {
            ticks.close();
            removeFiles(instance);
        }
    }

    /** Feeds the day's messages up to {@code joinAt} into the publisher on this thread; @return nanoseconds. */
    private static long feed(final BenchDay day, final UnsafeBuffer file, final long joinAt,
        final EgressPublisher publisher, final DayTicks ticks)
    {
        final long start = System.nanoTime();
        final TickHandler tee = (buffer, offset) ->
        {
            ticks.onTick(buffer, offset);
            publisher.onTick(buffer, offset);
        };
        final Normalizer normalizer = new Normalizer(new OrderBooks(day.books().conclude()),
            new ExchangeClock(LocalDate.of(2025, 1, 2)), tee, 1).depthLevels(DEPTH);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        int offset = 0;
        for (long message = 0; message < joinAt && offset < file.capacity(); message++)
        {
            final int length = file.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            decoder.decode(file, offset + 2, length, normalizer);
            offset += 2 + length;
            if ((message & 255) == 0)
            {
                publisher.doWork();
            }
        }
        publisher.flush();
        return System.nanoTime() - start;
    }

    private static void join(final String instance, final boolean snapshot, final long last, final Result result,
        final AtomicBoolean done, final BenchDay day)
    {
        final OrderBooks books = new OrderBooks(day.books().conclude());
        final BookRestore restore = new BookRestore(
            new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), (buffer, offset) -> { }, 1));
        final long[] handed = new long[1];
        final TickHandler handler = (buffer, offset) ->
        {
            handed[0]++;
            restore.onTick(buffer, offset);
        };
        final long start = System.nanoTime();
        try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance));
            EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("late")
                .token("late-token").snapshotOnConnect(snapshot).resumeFromSequence(snapshot ? 0 : 1)
                .pendingTicks(1 << 16).recordLatency(false)))
        {
            consumer.subscribeAll();
            final long deadline = start + TimeUnit.MINUTES.toNanos(10);
            while (consumer.lastDeliveredSequence() < last || consumer.isSnapshotPending())
            {
                consumer.poll(handler, 4096);
                if (System.nanoTime() > deadline)
                {
                    result.failure = "not live after 10 minutes at " + consumer.lastDeliveredSequence();
                    return;
                }
            }
            result.nanos = System.nanoTime() - start;
            result.ticks = handed[0];
            result.snapshotSequence = consumer.snapshotSequence();
            result.orders = books.orderCount();
            result.topMismatches = restore.topOfBookMismatches();
        }
        catch (final RuntimeException ex)
        {
            result.failure = ex.toString();
        }
        finally
        {
            done.set(true);
        }
    }

    /** Removes the shm files of a benchmark's instance. */
    static void removeFiles(final String instance) throws IOException
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of("/dev/shm"), instance + "-*"))
        {
            for (final Path file : files)
            {
                Files.deleteIfExists(file);
            }
        }
    }

    private static final class Result
    {
        volatile long nanos;
        volatile long ticks;
        volatile long snapshotSequence;
        volatile long orders;
        volatile long topMismatches;
        volatile String failure;
    }
}
