package io.mdgate.core.tick;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickDecoder;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DepthImage}: applied to empty depth views, its LEVEL ticks give each instrument's top D levels per side as
 * the books hold them, stamped with the state's sequence, and nothing for instruments without orders.
 */
class DepthImageTest
{
    private static final int INSTRUMENTS = 6;

    @Test
    void shouldGiveEmptyViewsTheBooksTopLevelsPerSide()
    {
        final OrderBooks books = new OrderBooks(new BookContext().maxInstruments(16).referenceWindow(1 << 12));
        final SplittableRandom random = new SplittableRandom(11);
        long reference = 1;
        for (int i = 0; i < 3_000; i++)
        {
            final int instrument = 1 + random.nextInt(INSTRUMENTS - 1); // the last instrument gets no orders
            final boolean buy = random.nextBoolean();
            final long price = (buy ? 100_0000 - random.nextInt(40) * 100 : 100_0100 + random.nextInt(40) * 100);
            books.add(instrument, reference++, buy ? 'B' : 'S', 1 + random.nextInt(500), price);
            if (random.nextInt(3) == 0)
            {
                books.delete(1 + random.nextInt((int)reference - 1));
            }
        }
        final int depth = 7;
        final DepthBook[] views = new DepthBook[INSTRUMENTS + 1];
        for (int i = 0; i <= INSTRUMENTS; i++)
        {
            views[i] = new DepthBook(depth);
        }
        final TickDecoder decoder = new TickDecoder();
        final long[] sequences = { 0, 0 };
        final long written = new DepthImage().write(books, depth, 3, 12_345, 987_654_321L, (buffer, offset) ->
        {
            decoder.wrap(buffer, offset, TickDecoder.BLOCK_LENGTH, TickDecoder.SCHEMA_VERSION);
            assertEquals(EventType.LEVEL, decoder.eventType());
            assertEquals(3, decoder.sessionId());
            assertEquals(987_654_321L, decoder.exchangeTimestamp());
            sequences[decoder.gatewaySequence() == 12_345 ? 0 : 1]++;
            assertEquals(DepthBook.CHANGED, views[decoder.instrumentId()].apply(buffer, offset), "a new level each");
        });
        assertEquals(written, sequences[0], "every tick carries the state's sequence");
        assertEquals(0, sequences[1]);
        long expected = 0;
        for (int i = 1; i <= INSTRUMENTS; i++)
        {
            for (int side = BookSide.BID; side <= BookSide.ASK; side++)
            {
                final int held = Math.min(depth, books.levelCount(i, side));
                expected += held;
                assertEquals(held, views[i].levels(side), "instrument " + i + " side " + side);
                for (int d = 0; d < held; d++)
                {
                    assertEquals(books.depthPrice(i, side, d), views[i].price(side, d));
                    assertEquals(books.depthSize(i, side, d), views[i].quantity(side, d));
                    assertEquals(books.depthOrderCount(i, side, d), views[i].orders(side, d));
                }
            }
        }
        assertEquals(expected, written);
        assertTrue(books.levelCount(1, BookSide.BID) > depth, "a side deeper than D, cut to D");
        assertEquals(0, views[INSTRUMENTS].levels(BookSide.BID) + views[INSTRUMENTS].levels(BookSide.ASK));
        assertEquals(0, new DepthImage().write(books, 0, 3, 1, 1, (buffer, offset) -> { }), "D = 0: nothing");
    }
}
