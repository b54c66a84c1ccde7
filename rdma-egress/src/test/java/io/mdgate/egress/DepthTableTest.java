package io.mdgate.egress;

import io.mdgate.core.book.BookApplier;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.DepthDiff;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.book.SeededOrderFlow;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.itch.ItchMessageDecoder;
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
    private final DepthBook[] reference = new DepthBook[INSTRUMENTS + 1];
    private final long[] lastChange = new long[INSTRUMENTS + 1];
    private PublisherHarness harness;
    private long sequence;

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

    /** Publishes the LEVEL ticks of {@code messages} messages of a seeded flow, and a system event after them. */
    private long publishFlow(final long seed, final int messages)
    {
        final SeededOrderFlow flow = new SeededOrderFlow(seed, INSTRUMENTS, 900);
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(2048).maxLevels(2048).maxInstruments(16));
        final DepthDiff diff = new DepthDiff(PUBLISHER_DEPTH, INSTRUMENTS + 1);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final BookApplier applier = new BookApplier(books);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        for (int i = 1; i <= INSTRUMENTS; i++)
        {
            reference[i] = new DepthBook(PUBLISHER_DEPTH);
        }
        for (int m = 0; m < messages; m++)
        {
            decoder.decode(message, 0, flow.next(message, 0), applier);
            for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
            {
                for (final DepthDiff.Level level : diff.diff(books, instrument))
                {
                    level.encode(tick, 0, ++sequence);
                    if (reference[instrument].apply(tick, 0) == DepthBook.CHANGED)
                    {
                        lastChange[instrument] = sequence;
                    }
                    harness.publish(tick);
                }
            }
        }
        harness.publish(Ticks.systemEvent(++sequence, 'Q'));
        return sequence;
    }

    private void assertTableHoldsTheReference(final EgressConsumer consumer, final int levels)
    {
        final DepthBook view = new DepthBook();
        for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
        {
            assertEquals(TopOfBookReader.READ, consumer.depth(instrument, view), "instrument " + instrument);
            assertEquals(levels, view.depth());
            assertEquals(lastChange[instrument], consumer.depthSequence(), "the last change's sequence");
            for (int side = DepthBook.BID; side <= DepthBook.ASK; side++)
            {
                final String where = "instrument " + instrument + " side " + side + ": " + view + " vs " +
                    reference[instrument];
                assertEquals(Math.min(levels, reference[instrument].levels(side)), view.levels(side), where);
                for (int i = 0; i < view.levels(side); i++)
                {
                    assertEquals(reference[instrument].price(side, i), view.price(side, i), where);
                    assertEquals(reference[instrument].quantity(side, i), view.quantity(side, i), where);
                    assertEquals(reference[instrument].orders(side, i), view.orders(side, i), where);
                }
            }
        }
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

        final long last = publishFlow(11, 6_000);
        drainTo(deep, last);
        drainTo(shallow, last);

        assertTableHoldsTheReference(deep, 5);
        assertTableHoldsTheReference(shallow, 3);
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
        assertTableHoldsTheReference(late, 5);

        harness.publish(Ticks.session(++sequence, 2));
        harness.publish(Ticks.systemEvent(++sequence, 'O'));
        drainTo(deep, sequence);
        assertEquals(TopOfBookReader.READ, deep.depth(2, view));
        assertEquals(0, view.levels(DepthBook.BID) + view.levels(DepthBook.ASK), "a new session empties the depth");
        assertEquals(sequence - 1, deep.depthSequence());
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
