package io.mdgate.egress;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.publisher.PublisherCounters;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Consumers subscribed to every instrument read the publisher's shared tick log over shm, which the publisher writes
 * once per tick however many read it, while filtered consumers keep their rings; same order, same exactly-once
 * delivery, the same lap and recovery rules.
 */
class SharedLogFanOutTest
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();
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

    private void start(final Consumer<PublisherContext> customizer, final List<String> consumers)
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), consumers, customizer);
    }

    private EgressConsumer consumer(final String name)
    {
        return consumer(name, ConsumerContext.DEFAULT_PENDING_TICKS);
    }

    private EgressConsumer consumer(final String name, final int pendingTicks)
    {
        final ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(transport);
        final EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name(name)
            .token(name + PublisherHarness.TOKEN_SUFFIX).controlPollNanos(0).pendingTicks(pendingTicks)
            .eventLog(message -> { }));
        closeables.add(0, consumer);
        return consumer;
    }

    private static void awaitReady(final EgressConsumer consumer, final boolean viaLog)
    {
        Await.until("subscription answers", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0 && consumer.readsSharedLog() == viaLog;
        });
    }

    private static int instrumentOf(final long sequence)
    {
        return (int)(sequence % 10) + 1;
    }

    private void publishAdds(final long from, final long to)
    {
        for (long sequence = from; sequence <= to; sequence++)
        {
            harness.publish(Ticks.add(sequence, instrumentOf(sequence), CLOCK.nanoTime()));
        }
    }

    private static List<Long> expected(final long from, final long to, final Set<Integer> instruments)
    {
        final List<Long> expected = new ArrayList<>();
        for (long sequence = from; sequence <= to; sequence++)
        {
            if (null == instruments || instruments.contains(instrumentOf(sequence)))
            {
                expected.add(sequence);
            }
        }
        return expected;
    }

    private static void pollInto(final EgressConsumer consumer, final List<Long> into)
    {
        consumer.poll((buffer, offset) ->
        {
            assertTrue(Ticks.isIntactAdd(buffer, offset), "tick arrived damaged");
            into.add(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
        }, 256);
    }

    private static Map<String, Long> delivered(final PublisherHarness harness)
    {
        final Map<String, Long> delivered = new HashMap<>();
        harness.publisher().forEachConsumer(delivered::put);
        return delivered;
    }

    @Test
    void shouldGiveEveryConsumerEachOfItsTicksOnceInOrderWhileCopyingATickOnceForAllAllSubscribedConsumers()
    {
        final List<String> names = List.of("all0", "all1", "all2", "all3", "filtered");
        start(context -> { }, names);
        final List<EgressConsumer> all = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            final EgressConsumer consumer = consumer(names.get(i));
            consumer.subscribeAll();
            all.add(consumer);
        }
        final EgressConsumer filtered = consumer("filtered");
        filtered.subscribe(1);
        filtered.subscribe(2);
        all.forEach(consumer -> awaitReady(consumer, true));
        awaitReady(filtered, false);
        assertEquals(4, harness.publisher().sharedLogReaders());

        final long last = 20_000;
        publishAdds(1, last);
        final List<List<Long>> received = new ArrayList<>();
        all.forEach(consumer -> received.add(new ArrayList<>()));
        final List<Long> filteredReceived = new ArrayList<>();
        Await.until("every consumer at sequence " + last, 30, () ->
        {
            boolean done = true;
            for (int i = 0; i < all.size(); i++)
            {
                pollInto(all.get(i), received.get(i));
                done &= all.get(i).lastDeliveredSequence() == last;
            }
            pollInto(filtered, filteredReceived);
            return done && filtered.lastDeliveredSequence() == expected(1, last, Set.of(1, 2)).get(4_000 - 1);
        });

        for (int i = 0; i < all.size(); i++)
        {
            assertEquals(expected(1, last, null), received.get(i), "ticks of " + names.get(i));
            assertEquals(0, all.get(i).counters().gaps(), "gaps of " + names.get(i));
            assertTrue(all.get(i).latency().getTotalCount() > 0, "latency measured from the log's ticks");
        }
        assertEquals(expected(1, last, Set.of(1, 2)), filteredReceived);
        final PublisherCounters counters = harness.publisher().counters();
        assertEquals(last, counters.sharedLogTicks(), "one copy of each tick into the shared log");
        assertEquals(expected(1, last, Set.of(1, 2)).size(), counters.ringTicksStaged(),
            "ring copies only for the filtered consumer's ticks, none per all-subscribed consumer");
        Await.until("delivered sequences reported", 10, () ->
        {
            all.forEach(consumer -> consumer.poll((buffer, offset) -> { }, 16));
            filtered.poll((buffer, offset) -> { }, 16);
            final Map<String, Long> delivered = delivered(harness);
            return delivered.size() == 5 && delivered.get("all0") == last && delivered.get("all3") == last &&
                delivered.get("filtered") == filtered.lastDeliveredSequence();
        });
    }

    @Test
    void shouldLapAStalledAllSubscribedConsumerThatThenRecoversItsRangeWhileTheOthersNeverWait()
    {
        start(context -> context.sharedLogSlots(1024), List.of("stalled", "brisk"));
        // Its pending buffer holds 64 ticks, fewer than the half log it resumes behind the writer: what overflows it
        // was read from the log and must be recovered too, although no later tick arrives to show the gap.
        final EgressConsumer stalled = consumer("stalled", 64);
        final EgressConsumer brisk = consumer("brisk");
        stalled.subscribeAll();
        brisk.subscribeAll();
        awaitReady(stalled, true);
        awaitReady(brisk, true);

        final long last = 10_000;
        final List<Long> briskReceived = new ArrayList<>();
        for (long from = 1; from <= last; from += 500)
        {
            publishAdds(from, from + 499);
            harness.awaitDrained();
            final long through = from + 499;
            Await.until("the brisk consumer at " + through, 10, () ->
            {
                pollInto(brisk, briskReceived);
                return brisk.lastDeliveredSequence() == through;
            });
        }
        assertEquals(expected(1, last, null), briskReceived, "the brisk consumer never waited for the stalled one");
        assertEquals(0, stalled.lastDeliveredSequence(), "the stalled consumer has not polled yet");
        assertEquals(0, brisk.counters().laps());

        final List<Long> stalledReceived = new ArrayList<>();
        Await.until("the stalled consumer recovered to " + last, 30, () ->
        {
            pollInto(stalled, stalledReceived);
            return stalled.lastDeliveredSequence() == last && !stalled.isRecovering();
        });
        assertEquals(expected(1, last, null), stalledReceived, "every tick once, in order, after the lap");
        assertTrue(stalled.counters().laps() >= 1, "the log told the stalled consumer it was lapped");
        assertTrue(stalled.counters().logTicksSkipped() >= last - 1024, "it skipped what the log overwrote");
        assertTrue(stalled.counters().recoveredDelivered() >= last - 1024, "and recovered it over RECOVER");
        assertTrue(stalled.counters().pendingOverflows() >= 1, "live ticks beyond its pending buffer were dropped");
        assertEquals(0, stalled.counters().unrecovered());
        assertEquals(0, stalled.counters().duplicates());
        assertEquals(0, harness.publisher().counters().laps(), "the publisher never stopped for a log reader");
        assertTrue(stalled.readsSharedLog());
    }

    @Test
    void shouldMoveAFilteredRingConsumerToTheLogWhenItSubscribesToEverythingWithoutAGapOrADuplicate()
    {
        start(context -> { }, List.of("mover"));
        final EgressConsumer mover = consumer("mover");
        mover.subscribe(1);
        awaitReady(mover, false);
        publishAdds(1, 2000);
        harness.awaitDrained();
        final List<Long> received = new ArrayList<>();
        Await.until("the ring's ticks", 20, () ->
        {
            pollInto(mover, received);
            return mover.lastDeliveredSequence() == 2000; // 2000 mod 10 + 1 = 1: the last tick of instrument 1
        });

        mover.subscribeAll();
        awaitReady(mover, true);
        publishAdds(2001, 4000);
        Await.until("sequence 4000", 20, () ->
        {
            pollInto(mover, received);
            return mover.lastDeliveredSequence() == 4000;
        });

        final List<Long> expected = expected(1, 2000, Set.of(1));
        expected.addAll(expected(2001, 4000, null));
        assertEquals(expected, received);
        assertEquals(0, mover.counters().duplicates());
        assertEquals(0, mover.counters().recoveriesRequested(), "nothing was missing at the move");
        assertEquals(200, harness.publisher().counters().ringTicksStaged(), "the ring got only instrument 1");
        assertEquals(2000, harness.publisher().counters().sharedLogTicks());
    }

    @Test
    void shouldKeepRingsForEveryConsumerWhenThePublisherHasNoSharedLog()
    {
        start(context -> context.sharedLogSlots(0), List.of("ring"));
        final EgressConsumer ring = consumer("ring");
        ring.subscribeAll();
        awaitReady(ring, false);
        publishAdds(1, 3000);
        final List<Long> received = new ArrayList<>();
        Await.until("sequence 3000", 20, () ->
        {
            pollInto(ring, received);
            return ring.lastDeliveredSequence() == 3000;
        });
        assertEquals(expected(1, 3000, null), received);
        assertFalse(ring.readsSharedLog());
        assertEquals(3000, harness.publisher().counters().ringTicksStaged());
        assertEquals(0, harness.publisher().counters().sharedLogTicks());
    }
}
