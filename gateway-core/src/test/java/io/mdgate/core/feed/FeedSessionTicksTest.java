package io.mdgate.core.feed;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.InstrumentDirectory;
import io.mdgate.core.book.ItchMessageWriter;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.RecordingTickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A feed session and a message processor, wired only as message, gap and packet context handler: the session start
 * reaches the normalizer by construction, so ticks carry the session, a SESSION tick marks each start and the books
 * start empty for each session.
 */
@Timeout(30)
class FeedSessionTicksTest
{
    private static final String NEXT = "NEXTSESS01";
    private static final long STOCK = Alpha.pack8("MSFT");
    private static final int LOCATE = 3;
    private static final long HOUR = 3_600_000_000_000L;
    private static final LocalDate DAY = LocalDate.of(2025, 1, 2);

    private final OrderBooks books = new OrderBooks(new BookContext().maxOrders(64).maxLevels(64).maxInstruments(16));
    private final RecordingTickHandler ticks = new RecordingTickHandler();
    private final Normalizer normalizer = new Normalizer(books, new ExchangeClock(DAY), ticks, 1);
    private final MessageProcessor processor = new MessageProcessor(normalizer);
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
    private final ItchMessageWriter writer = new ItchMessageWriter(message);
    private final FeedSession session = new FeedSession(new FeedSession.Context()
        .messageHandler(processor)
        .gapHandler(processor)
        .packetContextHandler(processor));

    FeedSessionTicksTest()
    {
        processor.packetDecoder(session.decoder());
        session.doWork(0);
    }

    private byte[] packet(final String name, final long sequence, final IntUnaryOperator... messages)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1_400]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        encoder.wrap(buffer, 0, buffer.capacity()).session(MoldUdp64Session.of(name)).sequenceNumber(sequence);
        for (final IntUnaryOperator write : messages)
        {
            assertTrue(encoder.tryAppend(message, 0, write.applyAsInt(0)));
        }
        final byte[] bytes = new byte[encoder.length()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    private void send(final int line, final byte[] packet, final long receiveTimestamp)
    {
        session.onPacket(line, new UnsafeBuffer(packet), 0, packet.length, receiveTimestamp);
    }

    private void both(final byte[] packet)
    {
        send(A, packet, 1_000);
        send(B, packet, 2_000);
    }

    private List<TickDecoder> ofType(final EventType type)
    {
        final List<TickDecoder> found = new ArrayList<>();
        for (int i = 0; i < ticks.size(); i++)
        {
            if (ticks.tick(i).eventType() == type)
            {
                found.add(ticks.tick(i));
            }
        }
        return found;
    }

    @Test
    void shouldMarkTheFirstSessionWithASessionTickAndCarryItsNumberInEveryLaterTick()
    {
        both(packet(SESSION, 1, at -> writer.addOrder(at, LOCATE, 10 * HOUR, 1, 'B', 100, STOCK, 2_000_000)));

        assertEquals(3, ticks.size());
        final TickDecoder start = ticks.tick(0);
        assertEquals(EventType.SESSION, start.eventType());
        assertEquals(1, start.gatewaySequence());
        assertEquals(1, start.exchangeSequence());
        assertEquals(1, start.sessionId());
        final UnsafeBuffer name = new UnsafeBuffer(MoldUdp64Session.of(SESSION));
        assertEquals(name.getLong(0, ByteOrder.LITTLE_ENDIAN), start.orderReference());
        assertEquals(name.getShort(8, ByteOrder.LITTLE_ENDIAN) & 0xFFFF, start.matchOrNewReference());
        assertEquals(0, start.exchangeTimestamp(), "no tick before it");
        assertEquals(2_000, start.receiveTimestamp(), "B's copy made the session accepted");
        assertEquals(Integer.MIN_VALUE, start.price().mantissa());
        assertEquals(0, start.quantity());
        assertEquals(0, start.instrumentId());
        assertEquals(Side.NONE, start.side());
        assertTrue(start.flags().lastInMessage());
        assertTrue(start.flags().lineB());
        assertFalse(start.flags().lastInPacket());
        for (int i = 1; i < ticks.size(); i++)
        {
            assertEquals(1, ticks.tick(i).sessionId(), "tick " + i);
        }
        assertEquals(EventType.ADD, ticks.tick(1).eventType());
    }

    @Test
    void shouldResetBooksAndInstrumentsAtASessionChangeSoTheNewSessionMayReuseOrderReferences()
    {
        both(packet(SESSION, 1,
            at -> writer.stockDirectory(at, LOCATE, 9 * HOUR, STOCK, 100),
            at -> writer.addOrder(at, LOCATE, 10 * HOUR, 1, 'B', 100, STOCK, 2_000_000),
            at -> writer.addOrder(at, LOCATE, 10 * HOUR, 2, 'S', 50, STOCK, 2_010_000)));
        both(moldEndOfSession(SESSION, 4));
        assertEquals(2, books.orderCount());
        final long lastOfOldSession = ticks.last().exchangeTimestamp();
        ticks.clear();

        both(packet(NEXT, 1, at -> writer.addOrder(at, LOCATE, 11 * HOUR, 1, 'B', 70, STOCK, 1_500_000)));

        final TickDecoder start = ticks.tick(0);
        assertEquals(EventType.SESSION, start.eventType());
        assertEquals(2, start.sessionId());
        assertEquals(1, start.exchangeSequence());
        assertEquals(lastOfOldSession, start.exchangeTimestamp(), "that of the last tick before it");
        final TickDecoder add = ticks.tick(1);
        assertEquals(EventType.ADD, add.eventType());
        assertFalse(add.flags().unknownOrder());
        assertEquals(2, add.sessionId());
        assertEquals(1, books.orderCount(), "the reused reference was accepted on an empty book");
        assertEquals(1_500_000, books.bestPrice(LOCATE, BookSide.BID));
        assertEquals(70, books.bestSize(LOCATE, BookSide.BID));
        assertEquals(OrderBooks.NO_PRICE, books.bestPrice(LOCATE, BookSide.ASK));
        assertEquals(InstrumentDirectory.NO_SYMBOL, books.instruments().symbol(LOCATE));
        final TickDecoder top = ofType(EventType.TOP_OF_BOOK).get(0);
        assertEquals(1_500_000, top.price().mantissa());
        assertEquals(70, top.quantity());
        assertEquals(2, top.sessionId());
    }

    @Test
    void shouldMoveTheClockOnADayWhenTheNewSessionsTimesWouldFallBeforeTheLastTick()
    {
        both(packet(SESSION, 1, at -> writer.addOrder(at, LOCATE, 19 * HOUR, 1, 'B', 100, STOCK, 2_000_000)));
        both(moldEndOfSession(SESSION, 2));
        ticks.clear();

        both(packet(NEXT, 1, at -> writer.addOrder(at, LOCATE, 3 * HOUR, 1, 'B', 100, STOCK, 2_000_000)));

        final TickDecoder add = ofType(EventType.ADD).get(0);
        assertEquals(new ExchangeClock(DAY.plusDays(1)).toEpochNanos(3 * HOUR), add.exchangeTimestamp());
        assertEquals(DAY.plusDays(1), normalizer.clock().sessionDate());
    }

    @Test
    void shouldStartAtAResumedSessionNumberAndNeverLetExchangeTimeGoBack()
    {
        final long journaled = new ExchangeClock(DAY).toEpochNanos(12 * HOUR);
        final FeedSession resumed = new FeedSession(new FeedSession.Context()
            .messageHandler(processor)
            .gapHandler(processor)
            .resume(MoldUdp64Session.of(SESSION), 7, 10));
        normalizer.resume(7, journaled);
        resumed.doWork(0);
        final byte[] earlier = packet(SESSION, 10, at -> writer.systemEvent(at, 11 * HOUR, 'Q'));
        resumed.onPacket(A, new UnsafeBuffer(earlier), 0, earlier.length, 5);
        final byte[] later = packet(SESSION, 11, at -> writer.systemEvent(at, 13 * HOUR, 'M'));
        resumed.onPacket(A, new UnsafeBuffer(later), 0, later.length, 6);

        assertEquals(2, ticks.size(), "no SESSION tick for a resumed session");
        assertEquals(EventType.SYSTEM_EVENT, ticks.tick(0).eventType());
        assertEquals(7, ticks.tick(0).sessionId());
        assertEquals(journaled, ticks.tick(0).exchangeTimestamp(), "raised to the last journaled time");
        assertEquals(new ExchangeClock(DAY).toEpochNanos(13 * HOUR), ticks.tick(1).exchangeTimestamp());
    }
}
