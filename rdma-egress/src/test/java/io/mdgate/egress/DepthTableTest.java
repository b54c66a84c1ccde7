package io.mdgate.egress;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.DepthCheckpoints;
import io.mdgate.egress.support.DepthFlow;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The depth table over shm: the publisher keeps the depth of D levels from the LEVEL ticks of a seeded order flow
 * and writes each consumer's slots, which hold exactly the top min(L, D) of a book fed the same ticks; a late
 * subscriber gets the snapshot with its answer, a SESSION tick empties it, and a view that takes no LEVEL ticks,
 * or a consumer without a depth table, gets none.
 */
@Timeout(60)
class DepthTableTest
{
    private static final int INSTRUMENTS = 3;
    private static final int PUBLISHER_DEPTH = 5;

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

    private static void drainTo(final EgressConsumer consumer, final long last)
    {
        Await.until("sequence " + last, 20, () ->
        {
            consumer.poll((buffer, offset) -> { }, 256);
            return consumer.lastDeliveredSequence() >= last;
        });
    }

    @Test
    void shouldKeepEachConsumersDepthTableAtTheTopLevelsOfTheLevelTicks()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()),
            List.of("deep", "shallow", "top", "none", "late"), context -> context.depthLevels(PUBLISHER_DEPTH));
        final EgressConsumer deep = consumer("deep", context -> context.depthLevels(8));
        final EgressConsumer shallow = consumer("shallow", context -> context.depthLevels(3));
        final EgressConsumer top = consumer("top", context -> { });
        final EgressConsumer none = consumer("none", context -> context.depthLevels(0));
        for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
        {
            deep.subscribe(instrument, SubscriptionView.DEPTH);
            shallow.subscribe(instrument);
            top.subscribe(instrument, SubscriptionView.TOP);
            none.subscribe(instrument, SubscriptionView.DEPTH);
        }
        for (final EgressConsumer consumer : List.of(deep, shallow, top, none))
        {
            awaitSubscribed(consumer);
        }
        assertEquals(5, deep.depthLevels(), "the lesser of the consumer's 8 and the publisher's 5");
        assertEquals(3, shallow.depthLevels());
        assertEquals(0, none.depthLevels());

        final DepthFlow flow = new DepthFlow(harness, 11, INSTRUMENTS, PUBLISHER_DEPTH, 900);
        flow.publish(6_000);
        long sequence = flow.nextSequence();
        harness.publish(Ticks.systemEvent(sequence, 'Q'));
        final long last = sequence;
        drainTo(deep, last);
        drainTo(shallow, last);

        flow.assertTableHoldsTheReference(deep, 5, "deep");
        flow.assertTableHoldsTheReference(shallow, 3, "shallow");
        final DepthBook view = new DepthBook();
        assertEquals(TopOfBookReader.EMPTY, top.depth(1, view), "a TOP view takes no LEVEL ticks: never written");
        assertEquals(-2, none.depth(1, view), "no depth table");
        assertEquals(-2, deep.depth(INSTRUMENTS + 1, view), "not subscribed: no slot");
        assertTrue(harness.publisher().counters().depthWrites() > 1000, "written as the levels moved");

        final EgressConsumer late = consumer("late", context -> { });
        for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
        {
            late.subscribe(instrument, SubscriptionView.DEPTH);
        }
        awaitSubscribed(late);
        flow.assertTableHoldsTheReference(late, 5, "late");

        harness.publish(Ticks.session(flow.nextSequence(), 2));
        sequence = flow.nextSequence();
        harness.publish(Ticks.systemEvent(sequence, 'O'));
        drainTo(deep, sequence);
        assertEquals(TopOfBookReader.READ, deep.depth(2, view));
        assertEquals(0, view.levels(DepthBook.BID) + view.levels(DepthBook.ASK), "a new session empties the depth");
        assertEquals(sequence - 1, deep.depthSequence());
    }

    @Test
    void shouldHoldTheReferenceLevelsAtEveryCheckpointOfTheDayAndForALateSubscriber()
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), DepthCheckpoints.CONSUMERS,
            DepthCheckpoints.publisherSettings());
        new DepthCheckpoints(harness, closeables, 20).run(29, 4_000, 500);
    }

    @Test
    void shouldWriteTheDepthOncePerMessageAtItsLastTickOrWhenAnotherInstrumentOrTheDutyCycleEndComesFirst()
        throws Exception
    {
        final ShmContext shm = ShmInstance.context(ShmInstance.unique());
        final ShmTransport transport = new ShmTransport(shm);
        final AtomicBoolean subscribed = new AtomicBoolean();
        final AtomicBoolean running = new AtomicBoolean(true);
        Thread consumerThread = null;
        try (EgressPublisher publisher = new EgressPublisher(new PublisherContext().transport(transport)
            .recoverySource(new TickArchive(1024)).token("one", "o").maxInstruments(64).eventLog(message -> { })))
        {
            consumerThread = new Thread(() ->
            {
                try (ShmTransport own = new ShmTransport(ShmInstance.context(shm.instance()));
                    EgressConsumer one = EgressConsumer.connect(own, new ConsumerContext().name("one").token("o")
                        .controlPollNanos(0).eventLog(message -> { })))
                {
                    one.subscribe(1, SubscriptionView.DEPTH);
                    while (running.get())
                    {
                        one.poll((buffer, offset) -> { }, 64);
                        subscribed.compareAndSet(false, one.subscriptionsAwaitingAnswer() == 0);
                    }
                }
            });
            consumerThread.setDaemon(true);
            consumerThread.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!subscribed.get() && System.nanoTime() < deadline)
            {
                publisher.doWork();
            }
            assertTrue(subscribed.get(), "the consumer subscribed");
            final long snapshot = publisher.counters().depthWrites();

            publisher.onTick(Ticks.level(1, 1, Side.BUY, 1_000_000, 100, 1, 0), 0);
            assertEquals(snapshot, publisher.counters().depthWrites(), "not before the message ends");
            publisher.onTick(lastInMessage(Ticks.level(2, 1, Side.BUY, 999_900, 200, 2, 1)), 0);
            assertEquals(snapshot + 1, publisher.counters().depthWrites(), "once, at the message's last tick");
            publisher.onTick(Ticks.level(3, 1, Side.SELL, 1_000_100, 300, 1, 0), 0);
            publisher.onTick(Ticks.topOfBook(4, 2, Side.BUY, 5, 5, 1), 0);
            assertEquals(snapshot + 2, publisher.counters().depthWrites(), "a tick of another instrument came first");
            publisher.onTick(Ticks.level(5, 1, Side.SELL, 1_000_100, 0, 0, 0), 0);
            publisher.doWork();
            assertEquals(snapshot + 3, publisher.counters().depthWrites(), "the duty cycle ended first");
        }
        finally
        {
            running.set(false);
            if (null != consumerThread)
            {
                consumerThread.join(10_000);
            }
            transport.close();
            ShmInstance.removeFiles(shm);
        }
    }

    private static UnsafeBuffer lastInMessage(final UnsafeBuffer tick)
    {
        final short flags = tick.getShort(TickLayout.FLAGS_OFFSET, ByteOrder.LITTLE_ENDIAN);
        tick.putShort(TickLayout.FLAGS_OFFSET, (short)(flags | 1 << 2), ByteOrder.LITTLE_ENDIAN);
        return tick;
    }
}
