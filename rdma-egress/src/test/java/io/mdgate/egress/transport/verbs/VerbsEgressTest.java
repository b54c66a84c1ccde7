package io.mdgate.egress.transport.verbs;

import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerRejectedException;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.TopOfBookFlyweight;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.Ticks;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The publisher and the consumer SDK over verbs in one JVM (the publisher on its own agent thread, consumers polled
 * by the test thread), each consumer with its own transport: authentication, subscriptions, ring and table contents
 * written with RDMA Writes, read positions written back, a lapped ring resynced, recovery, and the multicast stream.
 */
@Tag("softroce")
class VerbsEgressTest
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();
    private static final int WAIT_SECONDS = 90;

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Set<Long> marketWide = new HashSet<>();
    private VerbsPublisherHarness harness;

    @BeforeEach
    void requireDevice()
    {
        SoftRoce.assumeDevice();
    }

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

    private void start(final Consumer<PublisherContext> customizer, final String... consumers)
    {
        harness = new VerbsPublisherHarness(SoftRoce.context(), List.of(consumers), customizer);
    }

    private VerbsTransport transport()
    {
        final VerbsTransport transport = new VerbsTransport(harness.consumerContext());
        closeables.add(transport);
        return transport;
    }

    private EgressConsumer consumer(final String name, final Consumer<ConsumerContext> customizer)
    {
        final ConsumerContext context = new ConsumerContext().name(name)
            .token(name + VerbsPublisherHarness.TOKEN_SUFFIX).controlPollNanos(0);
        customizer.accept(context);
        final EgressConsumer consumer = EgressConsumer.connect(transport(), context);
        closeables.add(consumer);
        return consumer;
    }

    private static void awaitSubscribed(final EgressConsumer consumer)
    {
        Await.until("subscription answers", WAIT_SECONDS, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
    }

    private static List<Long> collect(final EgressConsumer consumer, final long untilSequence, final List<Long> into)
    {
        Await.until("sequence " + untilSequence, WAIT_SECONDS, () ->
        {
            consumer.poll((buffer, offset) ->
            {
                assertTrue(Ticks.isIntactAdd(buffer, offset) || buffer.getByte(offset + 62) != 1,
                    "tick arrived damaged");
                into.add(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
            }, 256);
            return consumer.lastDeliveredSequence() >= untilSequence;
        });
        return into;
    }

    private static int instrumentOf(final long sequence)
    {
        return (int)(sequence % 10) + 1;
    }

    private void publishAdds(final long from, final long to)
    {
        for (long sequence = from; sequence <= to; sequence++)
        {
            if (sequence == to)
            {
                marketWide.add(sequence);
                harness.publish(Ticks.systemEvent(sequence, 'C'));
            }
            else
            {
                harness.publish(Ticks.add(sequence, instrumentOf(sequence), CLOCK.nanoTime()));
            }
        }
    }

    private List<Long> expected(final long from, final long to, final Set<Integer> instruments)
    {
        final List<Long> expected = new ArrayList<>();
        for (long sequence = from; sequence <= to; sequence++)
        {
            if (marketWide.contains(sequence) || null == instruments || instruments.contains(instrumentOf(sequence)))
            {
                expected.add(sequence);
            }
        }
        return expected;
    }

    @Test
    void shouldAuthenticateAndWriteEachRingConsumerExactlyItsInstrumentsInOrder()
    {
        start(context -> { }, "alpha", "beta");
        final EgressConsumer alpha = consumer("alpha", context -> { });
        final EgressConsumer beta = consumer("beta", context -> { });
        alpha.subscribe(1);
        alpha.subscribe(2);
        beta.subscribeAll();
        awaitSubscribed(alpha);
        awaitSubscribed(beta);

        publishAdds(1, 3000);

        assertEquals(expected(1, 3000, Set.of(1, 2)), collect(alpha, 3000, new ArrayList<>()));
        assertEquals(expected(1, 3000, null), collect(beta, 3000, new ArrayList<>()));
        assertEquals(0, alpha.counters().gaps());
        assertEquals(0, beta.counters().tornReads(), "RDMA Writes of slots then stamps never read torn here");
        assertEquals(2, harness.publisher().activeConsumers());
    }

    @Test
    void shouldRefuseAWrongTokenOverRdmaCm()
    {
        start(context -> { }, "known");
        final VerbsTransport transport = transport();
        final ConsumerRejectedException wrong = assertThrows(ConsumerRejectedException.class,
            () -> EgressConsumer.connect(transport, new ConsumerContext().name("known").token("guess")));
        assertEquals(ControlMessageDescriptor.REJECT_AUTHENTICATION, wrong.reason());
        Await.until("the refusal counted", WAIT_SECONDS,
            () -> harness.publisher().counters().authenticationFailures() == 1);
        assertEquals(0, harness.publisher().activeConsumers());
    }

    @Test
    void shouldWriteTheTopOfBookTableOfASubscribedInstrument()
    {
        start(context -> { }, "book");
        final EgressConsumer book = consumer("book", context -> { });
        book.subscribe("MSFT");
        awaitSubscribed(book);

        harness.publish(Ticks.instrument(1, 7, "MSFT"));
        harness.publish(Ticks.topOfBook(2, 7, Side.BUY, 4_100_000, 300, 2));
        harness.publish(Ticks.topOfBook(3, 7, Side.SELL, 4_101_000, 500, 1));
        harness.publish(Ticks.topOfBook(4, 8, Side.SELL, 1, 1, 1));
        harness.publish(Ticks.systemEvent(5, 'Q'));
        assertEquals(List.of(1L, 2L, 3L, 5L), collect(book, 5, new ArrayList<>()));

        final TopOfBookFlyweight quote = new TopOfBookFlyweight();
        Await.until("the table slot", WAIT_SECONDS, () -> book.topOfBook(7, quote) == TopOfBookReader.READ &&
            quote.gatewaySequence() == 3);
        assertEquals(4_100_000, quote.bidPrice());
        assertEquals(300, quote.bidSize());
        assertEquals(4_101_000, quote.askPrice());
        assertEquals(500, quote.askSize());
    }

    @Test
    void shouldResyncALappedRingConsumerWhoseReadPositionsComeBackByRdmaWrite()
    {
        start(context -> { }, "slow");
        final EgressConsumer slow = consumer("slow", context -> context.ringSlots(64));
        slow.subscribeAll();
        awaitSubscribed(slow);

        publishAdds(1, 2000);
        harness.awaitDrained();

        // Catching up from a lap needs the read positions the consumer writes into the publisher's region: the
        // publisher replays no more than the consumer has room for.
        assertEquals(expected(1, 2000, null), collect(slow, 2000, new ArrayList<>()));
        assertTrue(slow.counters().laps() >= 1, "lapped");
        assertTrue(slow.counters().recoveredDelivered() > 0, "recovered ticks delivered");
        assertEquals(0, slow.counters().unrecovered());
    }

    @Test
    void shouldRecoverFromTheSourceWhatWasPublishedBeforeTheConsumerConnected()
    {
        start(context -> { }, "late");
        publishAdds(1, 800);
        harness.awaitDrained();

        final EgressConsumer late = consumer("late", context -> context.resumeFromSequence(300));
        late.subscribe(5);
        final List<Long> received = new ArrayList<>();
        collect(late, 800, received);
        publishAdds(801, 1200);

        assertEquals(expected(300, 1200, Set.of(5)), collect(late, 1200, received));
    }

    @Test
    void shouldDeliverTheMulticastStreamFilteredToTheSubscriptions()
    {
        start(context -> context.batchBudgetNanos(0), "gamma", "delta");
        final EgressConsumer gamma = consumer("gamma", context -> context.path(DeliveryPath.STREAM).ringSlots(0));
        final EgressConsumer delta = consumer("delta", context -> context.path(DeliveryPath.STREAM).ringSlots(0));
        gamma.subscribe(3);
        delta.subscribeAll();
        awaitSubscribed(gamma);
        awaitSubscribed(delta);

        final List<Long> toGamma = new ArrayList<>();
        final List<Long> toDelta = new ArrayList<>();
        for (long from = 1; from <= 4000; from += 500)
        {
            publishAdds(from, from + 499);
            collect(gamma, from + 499, toGamma);
            collect(delta, from + 499, toDelta);
        }

        assertEquals(expected(1, 4000, Set.of(3)), toGamma);
        assertEquals(expected(1, 4000, null), toDelta);
        assertEquals(0, gamma.counters().unrecovered());
    }

    @Test
    void shouldReconnectByItselfAndRecoverAfterThePublisherDroppedTheSession()
    {
        start(context -> context.heartbeatIntervalNanos(TimeUnit.MILLISECONDS.toNanos(50))
            .heartbeatTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(1000)), "again");
        final EgressConsumer again = consumer("again", context -> context
            .reconnectIntervalNanos(TimeUnit.MILLISECONDS.toNanos(100)));
        again.subscribeAll();
        awaitSubscribed(again);
        publishAdds(1, 100);
        collect(again, 100, new ArrayList<>());

        final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3000);
        while (System.nanoTime() < end)
        {
            Thread.onSpinWait(); // silent: the publisher times the session out and disconnects the queue pair
        }
        publishAdds(101, 400);
        final List<Long> after = collect(again, 400, new ArrayList<>());

        assertTrue(harness.publisher().counters().sessionsTimedOut() >= 1, "the silent consumer timed out");
        assertTrue(again.counters().connects() >= 2, "reconnected over RDMA-CM");
        assertEquals(expected(101, 400, null), after);
    }
}
