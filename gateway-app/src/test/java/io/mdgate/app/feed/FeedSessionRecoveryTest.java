package io.mdgate.app.feed;

import io.mdgate.app.sim.FaultConfig;
import io.mdgate.app.sim.RetransmitServer;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.feed.UdpRetransmitRequester;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.LocalDate;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feed session on a simulated session faulted by the simulator's own fault injector, recovering through the
 * simulator's re-request server over real UDP on 127.0.0.1, with the session, the server and the test on one thread.
 */
@Timeout(value = 120)
class FeedSessionRecoveryTest
{
    private static final int MESSAGES = 40_000;
    private static final FaultConfig FAULTS = new FaultConfig(0.05, 3, 0.02, 3, 0.01, 0);
    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** Feeds every datagram in the order the lines sent it, serving re-requests as it goes, until the end. */
    private static void run(final SimulatedLines lines, final FeedSession session, final RetransmitServer server)
    {
        session.doWork(System.nanoTime());
        int fed = 0;
        for (final SimulatedLines.Arrival arrival : lines.arrivals())
        {
            session.onPacket(arrival.line(), new UnsafeBuffer(arrival.packet()), 0, arrival.packet().length, fed);
            if (++fed % 8 == 0)
            {
                dutyCycle(session, server);
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        until(session::isEndOfSession, deadline, () -> dutyCycle(session, server));
    }

    private static void dutyCycle(final FeedSession session, final RetransmitServer server)
    {
        if (null != server)
        {
            server.poll();
        }
        session.doWork(System.nanoTime());
    }

    private static void until(final BooleanSupplier done, final long deadline, final Runnable step)
    {
        while (!done.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, "the session did not end in time");
            step.run();
        }
    }

    private static FeedSession.Context context()
    {
        return new FeedSession.Context().firstSequence(1).gapWaitNanos(WAIT_NANOS).retryIntervalNanos(WAIT_NANOS);
    }

    private static RetransmitServer server(final SimulatedLines lines)
    {
        return new RetransmitServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            MoldUdp64Session.of(SimulatedLines.SESSION), lines.store(), 1_000, SimulatedLines.MAX_PAYLOAD);
    }

    private static UdpRetransmitRequester requester(final RetransmitServer server)
    {
        return new UdpRetransmitRequester(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
    }

    @Test
    void shouldDeliverEveryMessageAsGeneratedOnceAndInOrderRecoveringWhatBothLinesLost()
    {
        final SimulatedLines lines = new SimulatedLines(11, MESSAGES, FAULTS, FAULTS);
        final long[] next = { 1 };
        try (RetransmitServer server = server(lines); UdpRetransmitRequester requester = requester(server))
        {
            final FeedSession session = new FeedSession(context()
                .requester(requester)
                .messageHandler((buffer, offset, length, sequence) ->
                {
                    assertEquals(next[0]++, sequence);
                    final byte[] delivered = new byte[length];
                    buffer.getBytes(offset, delivered);
                    assertArrayEquals(lines.message(sequence), delivered, "message " + sequence);
                })
                .gapHandler((first, count) -> next[0] = -1));

            run(lines, session, server);

            assertEquals(lines.messageCount() + 1, next[0], "every message, no gap");
            assertTrue(lines.lostOnBothLines() > 0, "the faults must hit both lines at once somewhere");
            assertEquals(lines.lostOnBothLines(), session.messages(FeedLines.RECOVERY),
                "exactly what neither line carried came from the re-request server");
            assertEquals(lines.faults(0).sent(), session.packets(FeedLines.A));
            assertEquals(lines.faults(1).sent(), session.packets(FeedLines.B));
            assertEquals(0, session.malformed(FeedLines.A) + session.malformed(FeedLines.B));
            assertTrue(server.messagesResent() >= session.messages(FeedLines.RECOVERY));
            assertTrue(session.gapsFilledByRerequest(FeedLines.A) + session.gapsFilledByRerequest(FeedLines.B) > 0);
            assertTrue(session.gapsFilledByOtherLine(FeedLines.A) + session.gapsFilledByOtherLine(FeedLines.B) > 0);
            System.out.printf("recovery: %d messages, %d lost on both lines, %d requests, %d answers, " +
                "lines sent A %d B %d packets%n", lines.messageCount(), lines.lostOnBothLines(),
                requester.requestsSent(), requester.answersReceived(), lines.faults(0).sent(), lines.faults(1).sent());
        }
    }

    @Test
    void shouldNormalizeTheFaultedFeedIntoTheSameTicksAsTheCleanSession()
    {
        final SimulatedLines lines = new SimulatedLines(12, MESSAGES, FAULTS, FAULTS);
        final TickDigest clean = new TickDigest();
        final MessageProcessor direct = processor(clean);
        direct.onSessionStarted(1, new UnsafeBuffer(MoldUdp64Session.of(SimulatedLines.SESSION)), 0, 1);
        for (long sequence = 1; sequence <= lines.messageCount(); sequence++)
        {
            final byte[] message = lines.message(sequence);
            direct.onPacketContext(FeedLines.A, 0);
            direct.process(new UnsafeBuffer(message), 0, message.length, sequence);
        }

        final TickDigest faulted = new TickDigest();
        final MessageProcessor processor = processor(faulted);
        try (RetransmitServer server = server(lines); UdpRetransmitRequester requester = requester(server))
        {
            final FeedSession session = new FeedSession(context()
                .requester(requester)
                .messageHandler(processor)
                .gapHandler(processor)
                .packetContextHandler(processor));
            processor.packetDecoder(session.decoder());

            run(lines, session, server);

            assertEquals(clean.ticks, faulted.ticks);
            assertEquals(clean.digest, faulted.digest, "the same ticks, whatever line or answer carried them");
            assertEquals(0, faulted.gaps);
            assertTrue(faulted.recovered >= session.messages(FeedLines.RECOVERY) && faulted.recovered > 0);
            assertTrue(faulted.lineB >= session.messages(FeedLines.B) && faulted.lineB > 0);
            assertEquals(lines.messageCount(), processor.messageCount());
        }
    }

    @Test
    void shouldPublishAGapTickForEachRangeBothLinesLostWhenThereIsNoRerequestServer()
    {
        final SimulatedLines lines = new SimulatedLines(13, MESSAGES, FAULTS, FAULTS);
        final TickDigest ticks = new TickDigest();
        final MessageProcessor processor = processor(ticks);
        final FeedSession session = new FeedSession(context()
            .messageHandler(processor)
            .gapHandler(processor)
            .packetContextHandler(processor));

        run(lines, session, null);

        final Normalizer normalizer = processor.normalizer();
        final long declared = session.gapsDeclaredLost(FeedLines.A) + session.gapsDeclaredLost(FeedLines.B);
        assertTrue(declared > 0);
        assertEquals(declared, ticks.gaps);
        assertEquals(declared, normalizer.gapCount());
        assertEquals(lines.lostOnBothLines(), session.messagesLost());
        assertEquals(lines.lostOnBothLines(), ticks.gapMessages);
        assertEquals(lines.messageCount(), session.messagesDelivered() + session.messagesLost());
        assertEquals(declared, session.gapsLost(FeedSession.LOST_NO_RECOVERY));
    }

    private static MessageProcessor processor(final TickHandler handler)
    {
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(200_000).maxLevels(100_000)
            .maxInstruments(64));
        return new MessageProcessor(new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), handler, 1));
    }

    /**
     * Counts ticks and folds each one's content into a digest, leaving out what depends on the route a message took
     * (line and recovery flags, receive time, the last-in-packet flag).
     */
    private static final class TickDigest implements TickHandler
    {
        private static final int ROUTE_FLAGS = 0x1 | 0x2 | 0x8;

        private final TickDecoder decoder = new TickDecoder();
        long ticks;
        long digest = 17;
        long gaps;
        long gapMessages;
        long recovered;
        long lineB;

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            decoder.wrap(buffer, offset, TickEncoder.BLOCK_LENGTH, TickEncoder.SCHEMA_VERSION);
            ticks++;
            if (decoder.eventType() == EventType.GAP)
            {
                gaps++;
                gapMessages += decoder.matchOrNewReference();
            }
            if (decoder.flags().recovered())
            {
                recovered++;
            }
            if (decoder.flags().lineB())
            {
                lineB++;
            }
            final long flags = buffer.getShort(offset + TickEncoder.flagsEncodingOffset()) & ~ROUTE_FLAGS;
            digest = digest * 31 + decoder.gatewaySequence();
            digest = digest * 31 + decoder.exchangeSequence();
            digest = digest * 31 + decoder.exchangeTimestamp();
            digest = digest * 31 + decoder.orderReference();
            digest = digest * 31 + decoder.matchOrNewReference();
            digest = digest * 31 + decoder.price().mantissa();
            digest = digest * 31 + decoder.quantity();
            digest = digest * 31 + decoder.instrumentId();
            digest = digest * 31 + flags;
            digest = digest * 31 + decoder.eventType().value();
            digest = digest * 31 + decoder.side().value();
        }
    }
}
