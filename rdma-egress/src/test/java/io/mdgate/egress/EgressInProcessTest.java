package io.mdgate.egress;

import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerRejectedException;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.TopOfBookFlyweight;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Publisher and consumers in one JVM over shm: the publisher on its own agent thread, the consumers polled by the
 * test thread.
 */
class EgressInProcessTest
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Set<Long> marketWide = new HashSet<>();
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

    private PublisherHarness start(final Consumer<io.mdgate.egress.publisher.PublisherContext> customizer,
        final String... consumers)
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of(consumers), customizer);
        return harness;
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

    private static void awaitSubscribed(final EgressConsumer consumer)
    {
        Await.until("subscription answers", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
    }

    private static List<Long> collect(final EgressConsumer consumer, final long untilSequence, final List<Long> into)
    {
        Await.until("sequence " + untilSequence, 20, () ->
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

    /**
     * Publishes sequences from..to: ADD ticks on instruments 1..10 (sequence mod 10 + 1), except the last, which is
     * a market-wide event every consumer receives.
     */
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
    void shouldDeliverToEachRingConsumerExactlyItsInstrumentsInOrder()
    {
        start(context -> { }, "alpha", "beta");
        final EgressConsumer alpha = consumer("alpha", context -> { });
        final EgressConsumer beta = consumer("beta", context -> { });
        alpha.subscribe(1);
        alpha.subscribe(2);
        beta.subscribeAll();
        awaitSubscribed(alpha);
        awaitSubscribed(beta);

        publishAdds(1, 5000);

        assertEquals(expected(1, 5000, Set.of(1, 2)), collect(alpha, 5000, new ArrayList<>()));
        assertEquals(expected(1, 5000, null), collect(beta, 5000, new ArrayList<>()));
        assertEquals(0, alpha.counters().gaps());
        assertTrue(alpha.latency().getTotalCount() > 0);
    }

    @Test
    void shouldDeliverTheStreamFilteredToTheSubscriptionsAndRecoverWhatTheLogOverwrote()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()).streamSlots(16), List.of("gamma"),
            context -> context.batchBudgetNanos(0));
        final EgressConsumer gamma = consumer("gamma", context -> context.path(DeliveryPath.STREAM).ringSlots(0));
        gamma.subscribe(3);
        awaitSubscribed(gamma);

        publishAdds(1, 20_000);

        assertEquals(expected(1, 20_000, Set.of(3)), collect(gamma, 20_000, new ArrayList<>()));
        assertEquals(0, gamma.counters().unrecovered());
    }

    @Test
    void shouldResyncARingConsumerThatFellAWholeRingBehindWithoutLosingATick()
    {
        start(context -> context.sharedLogSlots(0), "slow"); // all-subscribed, on its ring: no shared log
        final EgressConsumer slow = consumer("slow", context -> context.ringSlots(64));
        slow.subscribeAll();
        awaitSubscribed(slow);

        publishAdds(1, 3000);
        harness.awaitDrained();

        assertEquals(expected(1, 3000, null), collect(slow, 3000, new ArrayList<>()));
        assertTrue(slow.counters().laps() >= 1, "lapped");
        assertTrue(slow.counters().recoveredDelivered() > 0, "recovered ticks delivered");
        assertTrue(harness.publisher().counters().laps() >= 1);
        assertEquals(0, slow.counters().unrecovered());
    }

    @Test
    void shouldResumeFromASequenceThroughTheRing()
    {
        start(context -> { }, "late");
        publishAdds(1, 1000);
        harness.awaitDrained();

        final EgressConsumer late = consumer("late", context -> context.resumeFromSequence(400));
        late.subscribe(5);
        final List<Long> received = new ArrayList<>();
        collect(late, 1000, received);
        publishAdds(1001, 1500);

        assertEquals(expected(400, 1500, Set.of(5)), collect(late, 1500, received));
    }

    @Test
    void shouldRefuseAWrongTokenAndAnUnknownNameAndCountThem()
    {
        start(context -> { }, "known");
        final ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(transport);

        final ConsumerRejectedException wrong = assertThrows(ConsumerRejectedException.class,
            () -> EgressConsumer.connect(transport, new ConsumerContext().name("known").token("guess")));
        final ConsumerRejectedException unknown = assertThrows(ConsumerRejectedException.class,
            () -> EgressConsumer.connect(transport, new ConsumerContext().name("stranger").token("x")));
        assertThrows(ConsumerRejectedException.class,
            () -> EgressConsumer.connect(transport, new ConsumerContext().name("known").token("guess")));

        assertEquals(ControlMessageDescriptor.REJECT_AUTHENTICATION, wrong.reason());
        assertEquals(ControlMessageDescriptor.REJECT_AUTHENTICATION, unknown.reason());
        Await.until("refusals counted", 5, () -> harness.publisher().counters().authenticationFailures() == 3);
        assertEquals(2, harness.events().stream().filter(e -> e.startsWith("refused consumer")).count(),
            "logged once per name: " + harness.events());
        assertEquals(0, harness.publisher().activeConsumers());
    }

    @Test
    void shouldKeepTheTopOfBookTableOfSubscribedInstrumentsIncludingOneSubscribedBySymbolBeforeItWasKnown()
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
        final List<Long> seen = collect(book, 5, new ArrayList<>());

        assertEquals(List.of(1L, 2L, 3L, 5L), seen);
        final TopOfBookFlyweight quote = new TopOfBookFlyweight();
        assertEquals(TopOfBookReader.READ, book.topOfBook(7, quote));
        assertEquals(4_100_000, quote.bidPrice());
        assertEquals(300, quote.bidSize());
        assertEquals(2, quote.bidOrders());
        assertEquals(4_101_000, quote.askPrice());
        assertEquals(500, quote.askSize());
        assertEquals(3, quote.gatewaySequence());
        assertEquals("MSFT", io.mdgate.core.itch.Alpha.unpack8(quote.symbol()).trim());
        assertEquals(-2, book.topOfBook(8, quote), "not subscribed: no slot");
    }

    @Test
    void shouldReportWhatTheRecoverySourceNoLongerHolds()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("gone"),
            context -> context.recoverySource((from, to, handler) -> 0)
                .recoveryStallNanos(TimeUnit.MILLISECONDS.toNanos(50)));
        publishAdds(1, 100);
        harness.awaitDrained();

        final EgressConsumer gone = consumer("gone", context -> context.resumeFromSequence(10));
        gone.subscribeAll();
        awaitSubscribed(gone);
        Await.until("the catch-up to end", 10, () ->
        {
            gone.poll((buffer, offset) -> { }, 100);
            return gone.counters().recoveriesCompleted() == 1;
        });

        assertEquals(91, gone.counters().unrecovered());
        assertEquals(0, gone.counters().delivered());
    }

    @Test
    void shouldReconnectAndRecoverAfterThePublisherDroppedTheSession()
    {
        start(context -> context.heartbeatIntervalNanos(TimeUnit.MILLISECONDS.toNanos(20))
            .heartbeatTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(300)), "again");
        final EgressConsumer again = consumer("again", context -> context
            .reconnectIntervalNanos(TimeUnit.MILLISECONDS.toNanos(50)));
        again.subscribeAll();
        awaitSubscribed(again);
        publishAdds(1, 100);
        collect(again, 100, new ArrayList<>());

        sleepWithoutPolling(TimeUnit.MILLISECONDS.toNanos(800));
        publishAdds(101, 400);
        final List<Long> after = collect(again, 400, new ArrayList<>());

        assertTrue(harness.publisher().counters().sessionsTimedOut() >= 1, "the silent consumer timed out");
        assertTrue(again.counters().connects() >= 2, "reconnected");
        assertEquals(expected(101, 400, null), after);
    }

    private static void sleepWithoutPolling(final long nanos)
    {
        final long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end)
        {
            Thread.onSpinWait();
        }
    }
}
