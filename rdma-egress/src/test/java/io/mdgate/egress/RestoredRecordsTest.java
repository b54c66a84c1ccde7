package io.mdgate.egress;

import io.mdgate.core.itch.Alpha;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.TopOfBookFlyweight;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A publisher restarted on its journal takes the session's ticks through {@link EgressPublisher#restoreTick} before
 * its duty cycle starts. What a consumer that connects afterwards gets must not depend on whether an instrument
 * traded since: a subscription by a symbol the journal named resolves at once (not PENDING until the feed names it
 * again), and its top-of-book slot holds the restored quote before any live tick.
 */
@Timeout(60)
class RestoredRecordsTest
{
    @Test
    void shouldResolveASymbolNamedBeforeTheRestartAndFillItsTableSlotWithoutALiveTick() throws Exception
    {
        final ShmContext shm = ShmInstance.context(ShmInstance.unique());
        final ShmTransport transport = new ShmTransport(shm);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicBoolean answered = new AtomicBoolean();
        final AtomicReference<String> outcome = new AtomicReference<>();
        final List<Long> delivered = java.util.Collections.synchronizedList(new ArrayList<>());
        Thread consumerThread = null;
        try (EgressPublisher publisher = new EgressPublisher(new PublisherContext().transport(transport)
            .recoverySource(new TickArchive(1024)).token("late", "l").maxInstruments(64).eventLog(message -> { })))
        {
            publisher.restoreTick(Ticks.session(1, 1), 0);
            publisher.restoreTick(Ticks.instrument(2, 7, "MSFT"), 0);
            publisher.restoreTick(Ticks.instrument(3, 8, "AAPL"), 0);
            publisher.restoreTick(Ticks.topOfBook(4, 7, Side.BUY, 4_100_000, 300, 2), 0);
            publisher.restoreTick(Ticks.topOfBook(5, 7, Side.SELL, 4_101_000, 500, 1), 0);

            consumerThread = new Thread(() ->
            {
                try (ShmTransport own = new ShmTransport(ShmInstance.context(shm.instance()));
                    EgressConsumer late = EgressConsumer.connect(own, new ConsumerContext().name("late").token("l")
                        .controlPollNanos(0).eventLog(message -> { })))
                {
                    late.subscribe("MSFT");
                    late.subscribe("NVDA");
                    while (running.get() && late.subscriptionsAwaitingAnswer() > 0)
                    {
                        late.poll((buffer, offset) -> delivered.add(buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN)), 16);
                    }
                    final TopOfBookFlyweight quote = new TopOfBookFlyweight();
                    final int read = late.topOfBook(7, quote);
                    outcome.set(read != TopOfBookReader.READ ? "read " + read : quote.bidPrice() + "x" +
                        quote.bidSize() + "/" + quote.bidOrders() + " " + quote.askPrice() + "x" + quote.askSize() +
                        " at " + quote.gatewaySequence() + " " + Alpha.unpack8(quote.symbol()).trim() + "; nvda " +
                        late.topOfBook(8, quote));
                    answered.set(true);
                }
            });
            consumerThread.setDaemon(true);
            consumerThread.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!answered.get() && System.nanoTime() < deadline)
            {
                publisher.doWork();
            }
            assertTrue(answered.get(), "both subscriptions were answered");
            // MSFT's slot holds the restored quote; AAPL (id 8) was not asked for, and NVDA, never named, has no slot.
            assertEquals("4100000x300/2 4101000x500 at 5 MSFT; nvda -2", outcome.get());
            assertEquals(List.of(), delivered, "no tick was published: restoring sends nothing");
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
}
