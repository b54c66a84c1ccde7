package io.mdgate.egress;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subscription views over shm, publisher and consumers in one JVM: each consumer gets exactly the ticks of its
 * views, on its ring (filtered by the publisher), from the multicast stream and from the shared log (filtered by the
 * SDK), and GAP, SESSION and other market-wide ticks reach every view.
 */
@Timeout(60)
class SubscriptionViewTest
{
    private static final int SUBSCRIBED = 7;
    private static final int OTHER = 8;
    private static final EventType[] SCRIPT = {
        EventType.ADD, EventType.LEVEL, EventType.TOP_OF_BOOK, EventType.EXECUTE, EventType.LEVEL, EventType.TRADE,
        EventType.CANCEL, EventType.EXECUTE_WITH_PRICE, EventType.LEVEL, EventType.DELETE, EventType.REPLACE,
        EventType.TRADING_STATUS, EventType.CROSS_TRADE, EventType.IMBALANCE, EventType.INSTRUMENT };
    private static final Set<EventType> ORDER_EVENTS = EnumSet.of(EventType.ADD, EventType.EXECUTE,
        EventType.EXECUTE_WITH_PRICE, EventType.CANCEL, EventType.DELETE, EventType.REPLACE);

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<long[]> published = new ArrayList<>();
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

    private EgressConsumer consumer(final String name, final Consumer<ConsumerContext> customizer)
    {
        final ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(transport);
        final ConsumerContext context = new ConsumerContext().name(name).token(name + PublisherHarness.TOKEN_SUFFIX)
            .controlPollNanos(0);
        customizer.accept(context);
        final EgressConsumer consumer = EgressConsumer.connect(transport, context);
        closeables.add(0, consumer);
        return consumer;
    }

    private static void awaitSubscribed(final EgressConsumer consumer, final boolean viaLog)
    {
        Await.until("subscription answers", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0 && consumer.readsSharedLog() == viaLog;
        });
    }

    private void publish(final UnsafeBuffer tick)
    {
        published.add(new long[] {
            tick.getLong(0, ByteOrder.LITTLE_ENDIAN), tick.getShort(56, ByteOrder.LITTLE_ENDIAN) & 0xFFFF,
            tick.getByte(62) });
        harness.publish(tick);
    }

    /** Every event type on the subscribed and another instrument, with GAP, SESSION and system events between. */
    private long publishScript(final int rounds)
    {
        long sequence = 0;
        for (int round = 0; round < rounds; round++)
        {
            for (final EventType type : SCRIPT)
            {
                final int instrument = (sequence % 3 == 2) ? OTHER : SUBSCRIBED;
                publish(type == EventType.LEVEL ?
                    Ticks.level(++sequence, instrument, Side.BUY, 1_000_000 + round, 100 + round, 1, 0) :
                    Ticks.event(++sequence, instrument, type));
            }
            publish(Ticks.gap(++sequence, 1000 + round, 3));
            if (round % 10 == 0)
            {
                publish(Ticks.session(++sequence, 2 + round / 10));
            }
            publish(Ticks.systemEvent(++sequence, 'Q'));
        }
        publish(Ticks.systemEvent(++sequence, 'C'));
        return sequence;
    }

    /** @return the sequences a consumer of these views should get, in order. */
    private List<Long> expected(final SubscriptionView subscribedView, final SubscriptionView allView)
    {
        final List<Long> expected = new ArrayList<>();
        for (final long[] tick : published)
        {
            final byte type = (byte)tick[2];
            final boolean marketWide = tick[1] == 0;
            final boolean bySubscription = tick[1] == SUBSCRIBED && null != subscribedView && subscribedView.takes(type);
            final boolean byAll = null != allView && allView.takes(type);
            if (marketWide || bySubscription || byAll)
            {
                expected.add(tick[0]);
            }
        }
        return expected;
    }

    private static List<Long> collect(final EgressConsumer consumer, final long last, final List<Byte> types)
    {
        final List<Long> sequences = new ArrayList<>();
        Await.until("sequence " + last, 20, () ->
        {
            consumer.poll((buffer, offset) ->
            {
                sequences.add(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
                types.add(buffer.getByte(offset + 62));
            }, 256);
            return consumer.lastDeliveredSequence() >= last;
        });
        return sequences;
    }

    @Test
    void shouldGiveEachRingConsumerExactlyTheTicksOfItsViewWithGapAndSessionTicksForAll()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()),
            List.of("all", "top", "depth", "orders"), context -> { });
        final EgressConsumer all = consumer("all", context -> { });
        final EgressConsumer top = consumer("top", context -> { });
        final EgressConsumer depth = consumer("depth", context -> { });
        final EgressConsumer orders = consumer("orders", context -> { });
        all.subscribe(SUBSCRIBED);
        top.subscribe(SUBSCRIBED, SubscriptionView.TOP);
        depth.subscribe(SUBSCRIBED, SubscriptionView.DEPTH);
        orders.subscribe(SUBSCRIBED, SubscriptionView.ORDERS);
        for (final EgressConsumer consumer : List.of(all, top, depth, orders))
        {
            awaitSubscribed(consumer, false);
        }

        final long last = publishScript(30);

        final List<Byte> allTypes = new ArrayList<>();
        final List<Byte> topTypes = new ArrayList<>();
        final List<Byte> depthTypes = new ArrayList<>();
        final List<Byte> ordersTypes = new ArrayList<>();
        assertEquals(expected(SubscriptionView.ALL, null), collect(all, last, allTypes));
        assertEquals(expected(SubscriptionView.TOP, null), collect(top, last, topTypes));
        assertEquals(expected(SubscriptionView.DEPTH, null), collect(depth, last, depthTypes));
        assertEquals(expected(SubscriptionView.ORDERS, null), collect(orders, last, ordersTypes));

        assertTrue(allTypes.contains(code(EventType.ADD)) && allTypes.contains(code(EventType.LEVEL)));
        assertFalse(depthTypes.contains(code(EventType.ADD)), "DEPTH gets no ADD tick");
        assertTrue(depthTypes.contains(code(EventType.LEVEL)) && depthTypes.contains(code(EventType.TOP_OF_BOOK)));
        assertFalse(ordersTypes.contains(code(EventType.LEVEL)), "ORDERS gets no LEVEL tick");
        assertTrue(ordersTypes.contains(code(EventType.REPLACE)) && ordersTypes.contains(code(EventType.TRADE)));
        assertFalse(topTypes.contains(code(EventType.LEVEL)) || topTypes.contains(code(EventType.DELETE)));
        for (final List<Byte> types : List.of(allTypes, topTypes, depthTypes, ordersTypes))
        {
            assertEquals(30, types.stream().filter(t -> t == code(EventType.GAP)).count(), "every GAP tick");
            assertEquals(3, types.stream().filter(t -> t == code(EventType.SESSION)).count(), "every SESSION tick");
        }
        assertEquals(0, depth.counters().filtered(), "the publisher filtered the ring");
    }

    @Test
    void shouldFilterTheStreamAndTheSharedLogToTheViewsInTheSdk()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("stream", "log", "mixed"),
            context -> context.batchBudgetNanos(0));
        final EgressConsumer stream = consumer("stream", context -> context.path(DeliveryPath.STREAM).ringSlots(0));
        final EgressConsumer log = consumer("log", context -> { });
        final EgressConsumer mixed = consumer("mixed", context -> { });
        stream.subscribe(SUBSCRIBED, SubscriptionView.DEPTH);
        log.subscribeAll(SubscriptionView.ORDERS);
        mixed.subscribeAll(SubscriptionView.TOP);
        mixed.subscribe(SUBSCRIBED, SubscriptionView.DEPTH);
        awaitSubscribed(stream, false);
        awaitSubscribed(log, true);
        awaitSubscribed(mixed, true);

        final long last = publishScript(30);

        final List<Byte> streamTypes = new ArrayList<>();
        final List<Byte> logTypes = new ArrayList<>();
        assertEquals(expected(SubscriptionView.DEPTH, null), collect(stream, last, streamTypes));
        assertEquals(expected(null, SubscriptionView.ORDERS), collect(log, last, logTypes));
        assertEquals(expected(SubscriptionView.DEPTH, SubscriptionView.TOP), collect(mixed, last, new ArrayList<>()));
        assertFalse(streamTypes.contains(code(EventType.ADD)), "DEPTH gets no ADD tick from the stream");
        assertFalse(logTypes.contains(code(EventType.LEVEL)), "ORDERS gets no LEVEL tick from the shared log");
        assertEquals(30, logTypes.stream().filter(t -> t == code(EventType.GAP)).count());
        assertTrue(log.readsSharedLog() && mixed.readsSharedLog());
        assertEquals(0, stream.counters().unrecovered() + log.counters().unrecovered());
    }

    @Test
    void shouldDropTicksAlreadyInTheRingThatANarrowedViewNoLongerTakes()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("narrow"), context -> { });
        final EgressConsumer narrow = consumer("narrow", context -> { });
        narrow.subscribe(SUBSCRIBED);
        awaitSubscribed(narrow, false);
        for (long sequence = 1; sequence <= 40; sequence++)
        {
            harness.publish(sequence % 4 == 0 ?
                Ticks.level(sequence, SUBSCRIBED, Side.SELL, 1_000_000, sequence, 1, 0) :
                Ticks.add(sequence, SUBSCRIBED, 0));
        }
        harness.publish(Ticks.systemEvent(41, 'Q'));
        Await.until("staged", 10, () -> harness.publisher().counters().ringTicksStaged() == 41);

        narrow.subscribe(SUBSCRIBED, SubscriptionView.DEPTH);
        final List<Byte> types = new ArrayList<>();
        final List<Long> sequences = collect(narrow, 41, types);

        final List<Long> expected = new ArrayList<>();
        for (long sequence = 4; sequence <= 40; sequence += 4)
        {
            expected.add(sequence);
        }
        expected.add(41L);
        assertEquals(expected, sequences, "only the LEVEL ticks and the system event");
        assertEquals(30, narrow.counters().filtered(), "the ADD ticks staged before the view changed");
    }

    private static byte code(final EventType type)
    {
        return (byte)type.value();
    }
}
