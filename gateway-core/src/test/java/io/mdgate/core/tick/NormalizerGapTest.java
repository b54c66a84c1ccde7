package io.mdgate.core.tick;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.ItchMessageWriter;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GAP tick the feed session asks for when messages are lost for good (docs/TICK.md).
 */
@Timeout(30)
class NormalizerGapTest
{
    private static final int AAPL = 13;
    private static final long T = 34_200_000_000_123L;

    private final ExchangeClock clock = new ExchangeClock(LocalDate.of(2024, 3, 11));
    private final OrderBooks books = new OrderBooks(new BookContext().maxOrders(64).maxLevels(64).maxInstruments(64));
    private final RecordingTickHandler ticks = new RecordingTickHandler();
    private final Normalizer normalizer = new Normalizer(books, clock, ticks, 500);
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final ItchMessageWriter writer = new ItchMessageWriter(buffer);

    @Test
    void shouldPublishOneGapTickNamingTheFirstLostSequenceAndTheCount()
    {
        normalizer.receiveTimestamp(1_700_000_000_000_000_123L).sessionId(4).lineB(true).recovered(false);

        normalizer.onGap(1_000, 37);

        assertEquals(1, ticks.size());
        final TickDecoder gap = ticks.tick(0);
        assertEquals(EventType.GAP, gap.eventType());
        assertEquals(1_000, gap.exchangeSequence());
        assertEquals(37, gap.matchOrNewReference());
        assertEquals(0, gap.orderReference());
        assertEquals(0, gap.quantity());
        assertEquals(Integer.MIN_VALUE, gap.price().mantissa());
        assertEquals(0, gap.instrumentId());
        assertEquals(Side.NONE, gap.side());
        assertEquals(500, gap.gatewaySequence());
        assertEquals(4, gap.sessionId());
        assertEquals(1_700_000_000_000_000_123L, gap.receiveTimestamp());
        assertTrue(gap.flags().lineB());
        assertTrue(gap.flags().lastInMessage());
        assertFalse(gap.flags().lastInPacket());
        assertEquals(1, normalizer.gapCount());
        assertEquals(37, normalizer.gapMessageCount());
        assertEquals(0, normalizer.messageCount());
    }

    @Test
    void shouldPublishOnlyTheTicksAfterThoseACrashJournaledWhenTheMessageComesAgain()
    {
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        normalizer.resume(1, T, 1, 9);
        normalizer.exchangeSequence(9).lastInPacket(true);
        final int length = writer.addOrder(0, AAPL, T, 77, 'B', 300, Alpha.pack8("AAPL"), 1_500_000);
        assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, 0, length, normalizer));

        assertEquals(1, ticks.size(), "the ADD was journaled before the crash; only the top of book is new");
        final TickDecoder top = ticks.tick(0);
        assertEquals(EventType.TOP_OF_BOOK, top.eventType());
        assertEquals(500, top.gatewaySequence(), "the ADD had 499, the last journaled");
        assertTrue(top.flags().lastInMessage());
        assertEquals(0, normalizer.partialMessagesNotCompleted());

        normalizer.exchangeSequence(10);
        final int next = writer.addOrder(0, AAPL, T + 1, 78, 'B', 100, Alpha.pack8("AAPL"), 1_400_000);
        assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, 0, next, normalizer));
        assertEquals(2, ticks.size(), "the next message in full: an ADD below the touch");
        assertEquals(501, ticks.last().gatewaySequence());
    }

    @Test
    void shouldNumberAGapAfterTheJournaledTicksOfAMessageThatNeverCameAgain()
    {
        normalizer.resume(1, T, 2, 9);

        normalizer.onGap(9, 3);

        assertEquals(1, ticks.size());
        final TickDecoder gap = ticks.tick(0);
        assertEquals(EventType.GAP, gap.eventType());
        assertEquals(500, gap.gatewaySequence(), "after the two journaled ticks, 498 and 499");
        assertEquals(1, normalizer.partialMessagesNotCompleted());
        assertEquals(501, normalizer.nextGatewaySequence());
    }

    @Test
    void shouldStampTheGapWithTheExchangeTimeOfTheMessageBeforeItAndKeepTheGatewaySequenceContinuous()
    {
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        normalizer.exchangeSequence(9).lastInPacket(true);
        final int length = writer.addOrder(0, AAPL, T, 77, 'B', 300, Alpha.pack8("AAPL"), 1_500_000);
        assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, 0, length, normalizer));
        assertEquals(2, ticks.size());

        normalizer.onGap(10, 5);

        final TickDecoder gap = ticks.last();
        assertEquals(EventType.GAP, gap.eventType());
        assertEquals(clock.toEpochNanos(T), gap.exchangeTimestamp());
        assertEquals(502, gap.gatewaySequence());
        assertFalse(gap.flags().lastInPacket(), "a gap never ends a packet");
        assertEquals(300, books.bestSize(AAPL, BookSide.BID), "a gap leaves the books alone");
    }
}
