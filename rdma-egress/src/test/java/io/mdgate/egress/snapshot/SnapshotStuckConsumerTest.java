package io.mdgate.egress.snapshot;

import io.mdgate.egress.consumer.ConsumerContext;
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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A consumer that asks for a snapshot and then never reads again (its control channel full, its ring not drained)
 * holds up nobody: a late joiner that asks after it gets its whole snapshot while the stuck one is still connected
 * with its own snapshot unfinished, and is live with the books of a consumer that had every sequence; a consumer
 * already live gets every tick meanwhile; the stuck one is dropped at its heartbeat timeout and counted. Control
 * messages of 8 KiB and a small queue make the stuck consumer's snapshot (thousands of live orders, hundreds of KB)
 * larger than its channel and socket hold.
 */
@Timeout(60)
class SnapshotStuckConsumerTest
{
    private static final long HEARTBEAT_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1_500);

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private PublisherHarness harness;

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

    @Test
    void shouldServeALateJoinerPromptlyWhileAnotherConsumerNeverReadsItsSnapshot()
    {
        final SnapshotDay day = new SnapshotDay(91, 150_000, 8_000);
        final int last = day.count();
        final int join = last * 3 / 5;
        harness = new PublisherHarness(shm(ShmInstance.unique()), List.of("live", "stuck", "joiner"),
            context -> context.depthLevels(SnapshotDay.DEPTH).snapshotBooks(SnapshotDay.BOOKS)
                .heartbeatTimeoutNanos(HEARTBEAT_TIMEOUT_NANOS));
        final PublisherCounters counters = harness.publisher().counters();
        final BookModel full = new BookModel(SubscriptionView.ALL, new long[0]);
        final EgressConsumer live = consumer("live");
        for (long sequence = 1; sequence <= join; sequence++)
        {
            harness.publish(day.tick(sequence));
            if (sequence % 256 == 0)
            {
                live.poll(full, 1024);
            }
        }
        harness.awaitDrained();
        final EgressConsumer stuck = consumer("stuck");
        stuck.requestSnapshot(); // sent at once; this consumer is never polled again
        Await.until("the stuck consumer's snapshot under way", 10, () ->
        {
            live.poll(full, 1024);
            return harness.publisher().snapshotsUnderWay() == 1;
        });

        final BookModel late = new BookModel(SubscriptionView.ALL, new long[0]);
        final EgressConsumer joiner = consumer("joiner");
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

    private ShmContext shm(final String instance)
    {
        return ShmInstance.context(instance).controlMessageLength(8192).controlQueueLength(40_000);
    }

    /** A ring consumer of every instrument one by one, view ALL. */
    private EgressConsumer consumer(final String name)
    {
        final ShmTransport transport = new ShmTransport(shm(harness.shm().instance()));
        closeables.add(transport);
        final EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name(name)
            .token(name + PublisherHarness.TOKEN_SUFFIX).ringSlots(1 << 12));
        closeables.add(consumer);
        for (int i = 1; i <= SnapshotDay.INSTRUMENTS; i++)
        {
            consumer.subscribe(i, SubscriptionView.ALL);
        }
        Await.until(name + " subscribed", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 0);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
        return consumer;
    }
}
