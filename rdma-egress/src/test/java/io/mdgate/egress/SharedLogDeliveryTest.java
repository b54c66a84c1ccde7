package io.mdgate.egress;

import io.mdgate.core.itch.Alpha;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A consumer reading the shared log delivers it a run of ticks at a time: what it counts and times must still be
 * what counting and timing each tick alone gives, complete whenever a poll returns.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharedLogDeliveryTest
{
    /** The consumer's clock: every poll finds its ticks at this epoch time, so each tick's latency is known. */
    private static final long RECEIPT = 1_800_000_000_000_000_000L;
    private static final EpochNanoClock FIXED = () -> RECEIPT;
    private static final long LAST = 5_000;
    private static final long INSTRUMENT_TICK = 2_345;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
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

    private EgressConsumer logConsumer()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("reader"), context -> { });
        final ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(transport);
        final EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("reader")
            .token("reader" + PublisherHarness.TOKEN_SUFFIX).controlPollNanos(0).epochClock(FIXED)
            .eventLog(message -> { }));
        closeables.add(0, consumer);
        consumer.subscribeAll();
        Await.until("the consumer on the shared log", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0 && consumer.readsSharedLog();
        });
        return consumer;
    }

    /**
     * Latencies from 1 us to 50 us in steps wider than a histogram bucket there, three ticks of a "packet" sharing
     * one receive timestamp, so a run of ticks holds several buckets, each more than once.
     */
    private static long latencyOf(final long sequence)
    {
        return 1_000 + (sequence / 3 % 50) * 997;
    }

    private void publish(final long from, final long to)
    {
        for (long sequence = from; sequence <= to; sequence++)
        {
            harness.publish(sequence == INSTRUMENT_TICK ? Ticks.instrument(sequence, 7, "MSFT") :
                Ticks.add(sequence, (int)(sequence % 10) + 1, RECEIPT - latencyOf(sequence)));
        }
    }

    @Test
    void shouldHaveCountedAndTimedEveryLogTickItDeliveredWhenEachPollReturns()
    {
        final EgressConsumer consumer = logConsumer();
        publish(1, LAST);
        harness.awaitDrained();
        final Histogram each = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final List<Long> received = new ArrayList<>();
        Await.until("sequence " + LAST, 30, () ->
        {
            // 100 is no multiple of a run, so polls end inside runs too.
            consumer.poll((buffer, offset) -> onTick(buffer, offset, received, each), 100);
            assertEquals(received.size(), consumer.counters().delivered(), "delivered counted by the poll's end");
            assertEquals(each, consumer.latency(), "latencies as if each tick had been recorded alone");
            return consumer.lastDeliveredSequence() == LAST;
        });
        assertEquals(LAST, received.size());
        for (int i = 0; i < received.size(); i++)
        {
            assertEquals(i + 1, received.get(i), "every tick once, in order");
        }
        assertEquals(LAST - 1, each.getTotalCount(), "every live tick timed but the instrument tick (no stamp)");
        assertEquals(Alpha.pack8("MSFT"), consumer.symbolOf(7), "the instrument tick in a run named its symbol");
        assertEquals(0, consumer.counters().gaps());
        assertEquals(0, consumer.counters().duplicates());
    }

    @Test
    void shouldForgetEverySymbolAtASessionTickAndTakeTheNewSessionsNames()
    {
        final EgressConsumer consumer = logConsumer();
        harness.publish(Ticks.instrument(1, 7, "MSFT"));
        harness.publish(Ticks.instrument(2, 8, "AAPL"));
        awaitDelivered(consumer, 2);
        assertEquals(Alpha.pack8("MSFT"), consumer.symbolOf(7));

        harness.publish(Ticks.session(3, 2));
        harness.publish(Ticks.instrument(4, 7, "IBM"));
        awaitDelivered(consumer, 4);
        assertEquals(Alpha.pack8("IBM"), consumer.symbolOf(7), "locate 7 in the new session");
        assertEquals(0, consumer.symbolOf(8), "locate 8 not named by the new session");
    }

    private void awaitDelivered(final EgressConsumer consumer, final long sequence)
    {
        harness.awaitDrained();
        Await.until("sequence " + sequence, 30, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.lastDeliveredSequence() == sequence;
        });
    }

    @Test
    void shouldDeliverTheTicksAfterAMissingRangeInTheLogInOrderOnceTheRangeIsFoundUnrecoverable()
    {
        final EgressConsumer consumer = logConsumer();
        publish(1, 100);
        publish(106, 300); // 101..105 never existed: the archive cannot recover them either
        harness.awaitDrained();
        final Histogram each = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final List<Long> received = new ArrayList<>();
        Await.until("sequence 300", 30, () ->
        {
            consumer.poll((buffer, offset) -> onTick(buffer, offset, received, each), 256);
            return consumer.lastDeliveredSequence() == 300 && !consumer.isRecovering();
        });
        final List<Long> expected = new ArrayList<>();
        for (long sequence = 1; sequence <= 300; sequence++)
        {
            if (sequence < 101 || sequence > 105)
            {
                expected.add(sequence);
            }
        }
        assertEquals(expected, received);
        assertEquals(expected.size(), consumer.counters().delivered());
        assertEquals(1, consumer.counters().gaps(), "one gap, found inside a run");
        assertEquals(5, consumer.counters().unrecovered());
        assertEquals(0, consumer.counters().duplicates());
        assertEquals(each, consumer.latency(), "the ticks held during the recovery timed as the others");
        assertFalse(consumer.isRecovering());
        assertTrue(consumer.readsSharedLog());
    }

    private static void onTick(final DirectBuffer buffer, final int offset, final List<Long> received,
        final Histogram each)
    {
        received.add(buffer.getLong(offset, LE));
        final long receive = buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET, LE);
        if (receive > 0)
        {
            each.recordValue(RECEIPT - receive);
        }
    }
}
