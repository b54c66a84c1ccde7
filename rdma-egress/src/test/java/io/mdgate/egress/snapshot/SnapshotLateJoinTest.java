package io.mdgate.egress.snapshot;

import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.publisher.PublisherCounters;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * snapshot holds up neither a late joiner's nor the live stream. The random-point scenario is {@link LateJoiners}'s,
 * which {@code VerbsDepthSnapshotTest} runs over verbs.
 */
@Timeout(120)
class SnapshotLateJoinTest
{
    private static final int MESSAGES = 30_000;
    private static final long HEARTBEAT_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1_500);

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private PublisherHarness harness;
    private LateJoiners joiners;
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
        harness = harness(List.of("full", "late0", "late1", "late2"), LateJoiners.SMALL_BUDGET);
        joiners.joinAtRandomPoints(view, path, subset, seed, MESSAGES);
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
        joiners = new LateJoiners(harness, closeables, 100);
        final PublisherCounters counters = harness.publisher().counters();
        final BookModel full = new BookModel(SubscriptionView.ALL, new long[0]);
        final EgressConsumer live = joiners.consumer("live", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        for (long sequence = 1; sequence <= join; sequence++)
        {
            harness.publish(day.tick(sequence));
            if (sequence % 256 == 0)
            {
                live.poll(full, 1024);
            }
        }
        harness.awaitDrained();
        final EgressConsumer stuck = joiners.consumer("stuck", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        stuck.requestSnapshot(); // sent at once; this consumer is never polled again
        Await.until("the stuck consumer's snapshot under way", 10, () ->
        {
            live.poll(full, 1024);
            return harness.publisher().snapshotsUnderWay() == 1;
        });

        final BookModel late = new BookModel(SubscriptionView.ALL, new long[0]);
        final EgressConsumer joiner = joiners.consumer("joiner", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
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

    @Test
    void shouldSnapshotWhileThePublisherPublishesAtFullRate()
    {
        final SnapshotDay day = new SnapshotDay(77, 150_000);
        final int last = day.count();
        final long[] checkpoints = LateJoiners.checkpoints(last, 40);
        harness = harness(List.of("full", "late"), LateJoiners.SMALL_BUDGET);
        final BookModel full = new BookModel(SubscriptionView.ALL, checkpoints);
        final EgressConsumer fullConsumer = joiners.consumer("full", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        joiners.allowUpTo(last / 20);
        final Thread publisher = joiners.publishing(day, 0);
        publisher.start();
        while (harness.publisher().lastPublishedSequence() < last / 20)
        {
            fullConsumer.poll(full, 512);
        }
        final BookModel late = new BookModel(SubscriptionView.ALL, checkpoints);
        final EgressConsumer lateConsumer = joiners.consumer("late", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        joiners.allowUpTo(last);
        while (harness.publisher().lastPublishedSequence() < last / 20 + 2_000)
        {
            fullConsumer.poll(full, 512);
        }
        lateConsumer.requestSnapshot();
        while (!LateJoiners.allDelivered(day, SubscriptionView.ALL, SnapshotDay.Subset.EVERY, fullConsumer,
            new EgressConsumer[] { lateConsumer }, last))
        {
            fullConsumer.poll(full, 512);
            lateConsumer.poll(late, 512);
        }
        LateJoiners.join(publisher);
        final long from = lateConsumer.snapshotSequence();
        assertTrue(from > last / 20 + 2_000 && late.snapshotSequence < last,
            "the snapshot was taken while the publisher was publishing: from " + from + " of " + last);
        LateJoiners.assertSnapshotParts(late, lateConsumer, "the late consumer");
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
        LateJoiners.assertExactlyOnceAfter(day, SubscriptionView.ALL, SnapshotDay.Subset.EVERY, late, lateConsumer,
            last, "the late consumer");
        assertTrue(lateConsumer.counters().snapshotSkipped() > 0 || lateConsumer.counters().laps() > 0 ||
            lateConsumer.counters().gaps() > 0,
            "live ticks covered by the snapshot were dropped and counted, or the ring was lapped and resynced");
    }

    private PublisherHarness harness(final List<String> consumers, final int recordsPerCycle)
    {
        final PublisherHarness created = new PublisherHarness(shm(ShmInstance.unique()), consumers,
            LateJoiners.publisherSettings(recordsPerCycle));
        joiners = new LateJoiners(created, closeables, 100);
        return created;
    }

    /** @return the instance's settings: the defaults, or small control messages and queue for the stuck consumer. */
    private ShmContext shm(final String instance)
    {
        final ShmContext context = ShmInstance.context(instance);
        return smallControlMessages ? context.controlMessageLength(8192).controlQueueLength(40_000) : context;
    }
}
