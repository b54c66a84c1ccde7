package io.mdgate.egress.snapshot;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.publisher.PublisherCounters;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Late joiners over shm: a publisher is fed the ticks of a seeded ITCH session through a normalizer with depth; a
 * consumer subscribed from sequence 1 builds the books from everything, and late consumers that join at random
 * points and ask for a snapshot build theirs from the snapshot and the live ticks after it. The publisher builds
 * snapshots a part or two per duty cycle ({@code snapshotRecordsPerCycle} 8), so each instrument's part is taken at
 * its own sequence S(i) while live ticks keep coming. At checkpoints after the last part and at the end, each late
 * consumer's books (orders in time priority, depth, top of book, trading state, symbol, as its view defines them,
 * for its instruments) equal the full consumer's; it got every sequence after the snapshot that its view takes
 * exactly once, in order: after from, and for each instrument after its S(i). A consumer that never reads its
 * snapshot holds up neither a late joiner's nor the live stream.
 */
@Timeout(120)
class SnapshotLateJoinTest
{
    private static final int MESSAGES = 30_000;
    /**
     * Snapshot work per publisher duty cycle: a part or two, so every snapshot is built over many cycles while the
     * day goes on being published.
     */
    private static final int SMALL_BUDGET = 8;
    private static final long HEARTBEAT_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1_500);

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final AtomicLong allowedUpTo = new AtomicLong();
    private PublisherHarness harness;
    private boolean smallControlMessages;

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    @ParameterizedTest(name = "view {0}, path {1}, instruments {2}, seed {3}")
    @CsvSource({ "ALL, RING, EVERY, 11", "ORDERS, RING, EVERY, 12", "DEPTH, RING, EVERY, 13", "TOP, RING, EVERY, 14",
        "ALL, STREAM, EVERY, 15", "ORDERS, STREAM, EVERY, 16", "ALL, LOG, EVERY, 17", "DEPTH, LOG, EVERY, 18",
        "ALL, RING, ODD, 19", "ORDERS, RING, FIRST_FIVE, 20", "DEPTH, STREAM, ODD, 21", "ALL, STREAM, FIRST_FIVE, 22" })
    void shouldGiveLateJoinersAtRandomPointsTheBooksOfAConsumerThatHadEverySequence(final SubscriptionView view,
        final String path, final SnapshotDay.Subset subset, final long seed)
    {
        final SnapshotDay day = new SnapshotDay(seed, MESSAGES);
        final int last = day.count();
        final Random random = new Random(seed);
        final long[] joins = { last / 10 + random.nextInt(last / 5), last * 2 / 5 + random.nextInt(last / 5),
            last * 7 / 10 + random.nextInt(last / 10) };
        final long[] checkpoints = checkpoints(last, 12);
        harness = harness(List.of("full", "late0", "late1", "late2"), SMALL_BUDGET);
        final BookModel full = new BookModel(SubscriptionView.ALL, subset, checkpoints);
        final EgressConsumer fullConsumer = consumer("full", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        final BookModel[] late = new BookModel[joins.length];
        final EgressConsumer[] lateConsumers = new EgressConsumer[joins.length];

        allowedUpTo.set(joins[0]);
        final Thread publisher = publishing(day, 64);
        publisher.start();
        int joined = 0;
        while (joined < joins.length || !allDelivered(day, view, subset, fullConsumer, lateConsumers, last))
        {
            if (joined < joins.length && harness.publisher().lastPublishedSequence() >= joins[joined])
            {
                late[joined] = new BookModel(view, subset, checkpoints);
                lateConsumers[joined] = consumer("late" + joined, path, view, subset);
                lateConsumers[joined].requestSnapshot();
                joined++;
                allowedUpTo.set(joined < joins.length ? joins[joined] : last);
            }
            fullConsumer.poll(full, 512);
            for (int i = 0; i < joined; i++)
            {
                lateConsumers[i].poll(late[i], 512);
            }
        }
        join(publisher);
        final String whole = full.describe(view, subset);
        for (int i = 0; i < joins.length; i++)
        {
            final BookModel model = late[i];
            final String who = "late consumer " + i + " joined at " + joins[i] + ", snapshot from " +
                lateConsumers[i].snapshotSequence() + " to " + model.snapshotSequence;
            assertTrue(model.snapshotTicks > 0, who + ": got a snapshot");
            assertSnapshotParts(model, lateConsumers[i], who);
            assertTrue(lateConsumers[i].snapshotSequence() >= joins[i] && model.snapshotSequence <= last, who);
            assertEquals(whole, model.describe(view, subset), who + ": the books at the end");
            if ((view.mask() & SubscriptionView.ORDER) != 0)
            {
                assertEquals(0, model.restore.topOfBookMismatches(), who + ": every top of book agrees with the books");
            }
            int compared = 0;
            for (int c = 0; c < checkpoints.length; c++)
            {
                final String expected = full.states[view.ordinal()][c];
                final String actual = model.states[view.ordinal()][c];
                if (null != actual)
                {
                    assertNotNull(expected, "the full consumer passed checkpoint " + checkpoints[c]);
                    assertEquals(expected, actual, who + ": the books at checkpoint " + checkpoints[c]);
                    compared++;
                }
            }
            assertTrue(compared >= 1, who + ": compared " + compared + " checkpoints");
            assertExactlyOnceAfter(day, view, subset, model, lateConsumers[i], last, who);
            if (path.equals("LOG"))
            {
                assertTrue(lateConsumers[i].readsSharedLog(), who + ": moved to the shared log");
            }
        }
    }

    /**
     * A consumer that asks for a snapshot and then never reads again (its control channel full, its ring not
     * drained) holds up nobody: a late joiner that asks after it gets its whole snapshot while the stuck one is still
     * connected with its own snapshot unfinished, and is live with the books of a consumer that had every sequence; a
     * consumer already live gets every tick meanwhile; the stuck one is dropped at its heartbeat timeout and counted.
     * Control messages of 8 KiB and a small queue make the stuck consumer's snapshot (thousands of live orders,
     * hundreds of KB) larger than its channel and socket hold.
     */
    @Test
    void shouldServeALateJoinerPromptlyWhileAnotherConsumerNeverReadsItsSnapshot()
    {
        final SnapshotDay day = new SnapshotDay(91, 150_000, 8_000);
        final int last = day.count();
        final int join = last * 3 / 5;
        smallControlMessages = true;
        harness = new PublisherHarness(shm(ShmInstance.unique()), List.of("live", "stuck", "joiner"),
            context -> context.depthLevels(SnapshotDay.DEPTH).snapshotBooks(SnapshotDay.BOOKS)
                .heartbeatTimeoutNanos(HEARTBEAT_TIMEOUT_NANOS));
        final PublisherCounters counters = harness.publisher().counters();
        final BookModel full = new BookModel(SubscriptionView.ALL, new long[0]);
        final EgressConsumer live = consumer("live", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        for (long sequence = 1; sequence <= join; sequence++)
        {
            harness.publish(day.tick(sequence));
            if (sequence % 256 == 0)
            {
                live.poll(full, 1024);
            }
        }
        harness.awaitDrained();
        final EgressConsumer stuck = consumer("stuck", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        stuck.requestSnapshot(); // sent at once; this consumer is never polled again
        Await.until("the stuck consumer's snapshot under way", 10, () ->
        {
            live.poll(full, 1024);
            return harness.publisher().snapshotsUnderWay() == 1;
        });

        final BookModel late = new BookModel(SubscriptionView.ALL, new long[0]);
        final EgressConsumer joiner = consumer("joiner", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        joiner.requestSnapshot();
        long sequence = join;
        while (joiner.isSnapshotPending())
        {
            if (sequence < last)
            {
                harness.publish(day.tick(++sequence)); // live ticks go on during the joiner's snapshot
            }
            joiner.poll(late, 1024);
            live.poll(full, 1024);
        }
        assertEquals(1, joiner.counters().snapshots(), "the joiner's snapshot came whole");
        assertEquals(0, counters.sessionsTimedOut(), "before the stuck consumer was dropped");
        assertEquals(3, harness.publisher().activeConsumers(), "the stuck consumer is still connected");
        assertEquals(1, counters.snapshotsSent(), "the stuck consumer's snapshot has not gone out: it waits alone " + harness.events());

        while (sequence < last)
        {
            harness.publish(day.tick(++sequence));
            joiner.poll(late, 1024);
            live.poll(full, 1024);
        }
        Await.until("both consumers live at the end of the day", 20, () ->
        {
            joiner.poll(late, 1024);
            live.poll(full, 1024);
            return joiner.lastDeliveredSequence() == last && live.lastDeliveredSequence() == last;
        });
        assertEquals(full.describe(SubscriptionView.ALL), late.describe(SubscriptionView.ALL),
            "the joiner's books equal those of the consumer that had every sequence");
        assertEquals(last, full.live.size(), "the live consumer got every tick once, stuck consumer or not");
        Await.until("the stuck consumer dropped", 10, () -> counters.sessionsTimedOut() == 1);
        Await.until("two consumers left", 5, () -> harness.publisher().activeConsumers() == 2);
        assertEquals(1, counters.snapshotsSent(), "the stuck consumer never got its snapshot");
        assertTrue(harness.events().stream().anyMatch(line -> line.contains("'stuck' left: heartbeat timeout")),
            harness.events().toString());
    }

    /**
     * The snapshot's shape: ticks before any live tick, parts in sequence order, one sequence per instrument's part,
     * the same S(i) the SDK reports, counted once.
     */
    private static void assertSnapshotParts(final BookModel model, final EgressConsumer consumer, final String who)
    {
        assertEquals(0, model.snapshotTicksAfterLive, who + ": the snapshot came before any live tick");
        assertEquals(0, model.snapshotSequenceMismatches, who + ": parts come in sequence order");
        assertEquals(0, model.partSequenceMismatches, who + ": each instrument's part is at one sequence");
        for (int i = 1; i <= SnapshotDay.INSTRUMENTS; i++)
        {
            assertEquals(model.partSequence[i], consumer.snapshotSequence(i), who + ": S(" + i + ")");
            assertTrue(model.partSequence[i] == 0 || model.partSequence[i] >= consumer.snapshotSequence(),
                who + ": S(" + i + ") is not before the snapshot's from");
        }
        assertEquals(model.snapshotTicks, consumer.counters().snapshotTicks(), who);
        assertEquals(1, consumer.counters().snapshots(), who);
    }

    @Test
    void shouldSnapshotWhileThePublisherPublishesAtFullRate()
    {
        final SnapshotDay day = new SnapshotDay(77, 150_000);
        final int last = day.count();
        final long[] checkpoints = checkpoints(last, 40);
        harness = harness(List.of("full", "late"), SMALL_BUDGET);
        final BookModel full = new BookModel(SubscriptionView.ALL, checkpoints);
        final EgressConsumer fullConsumer = consumer("full", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        allowedUpTo.set(last / 20);
        final Thread publisher = publishing(day, 0);
        publisher.start();
        while (harness.publisher().lastPublishedSequence() < last / 20)
        {
            fullConsumer.poll(full, 512);
        }
        final BookModel late = new BookModel(SubscriptionView.ALL, checkpoints);
        final EgressConsumer lateConsumer = consumer("late", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        allowedUpTo.set(last);
        while (harness.publisher().lastPublishedSequence() < last / 20 + 2_000)
        {
            fullConsumer.poll(full, 512);
        }
        lateConsumer.requestSnapshot();
        while (!allDelivered(day, SubscriptionView.ALL, SnapshotDay.Subset.EVERY, fullConsumer,
            new EgressConsumer[] { lateConsumer }, last))
        {
            fullConsumer.poll(full, 512);
            lateConsumer.poll(late, 512);
        }
        join(publisher);
        final long from = lateConsumer.snapshotSequence();
        assertTrue(from > last / 20 + 2_000 && late.snapshotSequence < last,
            "the snapshot was taken while the publisher was publishing: from " + from + " of " + last);
        assertSnapshotParts(late, lateConsumer, "the late consumer");
        assertTrue(late.snapshotSequence > from, "the parts were taken over several duty cycles while live ticks " +
            "went on: from " + from + " to " + late.snapshotSequence);
        assertEquals(full.describe(SubscriptionView.ALL), late.describe(SubscriptionView.ALL));
        int compared = 0;
        for (int c = 0; c < checkpoints.length; c++)
        {
            if (null != late.states[SubscriptionView.ALL.ordinal()][c])
            {
                assertEquals(full.states[SubscriptionView.ALL.ordinal()][c],
                    late.states[SubscriptionView.ALL.ordinal()][c], "checkpoint " + checkpoints[c]);
                compared++;
            }
        }
        assertTrue(compared >= 1, "compared " + compared + " checkpoints after S " + late.snapshotSequence);
        assertExactlyOnceAfter(day, SubscriptionView.ALL, SnapshotDay.Subset.EVERY, late, lateConsumer, last,
            "the late consumer");
        assertTrue(lateConsumer.counters().snapshotSkipped() > 0 || lateConsumer.counters().laps() > 0 ||
            lateConsumer.counters().gaps() > 0,
            "live ticks covered by the snapshot were dropped and counted, or the ring was lapped and resynced");
    }

    /**
     * Every sequence after the snapshot that the consumer takes came once, in order: after from, and for a tick of an
     * instrument with a part, after that part's S(i); nothing else.
     */
    private static void assertExactlyOnceAfter(final SnapshotDay day, final SubscriptionView view,
        final SnapshotDay.Subset subset, final BookModel model, final EgressConsumer consumer, final int last,
        final String who)
    {
        int at = 0;
        for (long sequence = consumer.snapshotSequence() + 1; sequence <= last; sequence++)
        {
            final int instrument = day.instrument(sequence);
            final long floor = instrument <= SnapshotDay.INSTRUMENTS ? model.partSequence[instrument] : 0;
            if (day.takes(view, subset, sequence) && sequence > floor)
            {
                assertTrue(at < model.live.size(), who + ": sequence " + sequence + " was never delivered");
                assertEquals(sequence, model.live.getLong(at), who + ": delivered in order, each once, none missing");
                at++;
            }
        }
        assertEquals(at, model.live.size(), who + ": nothing but the sequences after the snapshot its view takes");
    }

    private static long[] checkpoints(final int last, final int count)
    {
        final long[] checkpoints = new long[count];
        for (int i = 0; i < count; i++)
        {
            checkpoints[i] = (long)last * (i + 1) / (count + 1);
        }
        return checkpoints;
    }

    private static boolean allDelivered(final SnapshotDay day, final SubscriptionView view,
        final SnapshotDay.Subset subset, final EgressConsumer full, final EgressConsumer[] late, final int last)
    {
        if (full.lastDeliveredSequence() < last)
        {
            return false;
        }
        long lastTaken = last;
        while (!day.takes(view, subset, lastTaken))
        {
            lastTaken--;
        }
        for (final EgressConsumer consumer : late)
        {
            if (null == consumer || consumer.lastDeliveredSequence() < lastTaken || consumer.isSnapshotPending())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Publishes the day on a thread of its own, up to {@link #allowedUpTo} (the test holds it at a join point until
     * the late consumer is connected and subscribed, and lets it go on as the snapshot is asked for); every
     * {@code pauseEvery} ticks it pauses 200 us (0: never).
     */
    private Thread publishing(final SnapshotDay day, final int pauseEvery)
    {
        final Thread thread = new Thread(() ->
        {
            for (long sequence = 1; sequence <= day.count(); sequence++)
            {
                while (sequence > allowedUpTo.get())
                {
                    Thread.onSpinWait();
                }
                harness.publish(day.tick(sequence));
                if (pauseEvery > 0 && sequence % pauseEvery == 0)
                {
                    LockSupport.parkNanos(200_000);
                }
            }
        }, "day-publisher");
        thread.setDaemon(true);
        return thread;
    }

    private static void join(final Thread thread)
    {
        try
        {
            thread.join(30_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    private PublisherHarness harness(final List<String> consumers, final int recordsPerCycle)
    {
        return new PublisherHarness(shm(ShmInstance.unique()), consumers,
            context -> context.depthLevels(SnapshotDay.DEPTH).snapshotBooks(SnapshotDay.BOOKS).snapshotTicks(1 << 14)
                .snapshotRecordsPerCycle(recordsPerCycle));
    }

    /** @return the instance's settings: the defaults, or small control messages and queue for the stuck consumer. */
    private ShmContext shm(final String instance)
    {
        final ShmContext context = ShmInstance.context(instance);
        return smallControlMessages ? context.controlMessageLength(8192).controlQueueLength(40_000) : context;
    }

    /**
     * @param path {@code RING} or {@code STREAM} (the subset's instruments one by one with the view), or {@code LOG}:
     *             every instrument with the view, through the shared tick log (the subset must be EVERY).
     */
    private EgressConsumer consumer(final String name, final String path, final SubscriptionView view,
        final SnapshotDay.Subset subset)
    {
        final ShmTransport transport = new ShmTransport(shm(harness.shm().instance()));
        closeables.add(transport);
        final ConsumerContext context = new ConsumerContext().name(name).token(name + PublisherHarness.TOKEN_SUFFIX)
            .path(path.equals("STREAM") ? DeliveryPath.STREAM : DeliveryPath.RING).ringSlots(1 << 12);
        final EgressConsumer consumer = EgressConsumer.connect(transport, context);
        closeables.add(consumer);
        if (path.equals("LOG"))
        {
            consumer.subscribeAll(view);
        }
        else
        {
            for (int i = 1; i <= SnapshotDay.INSTRUMENTS; i++)
            {
                if (subset.has(i))
                {
                    consumer.subscribe(i, view);
                }
            }
        }
        Await.until(name + " subscribed", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 0);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
        return consumer;
    }
}
