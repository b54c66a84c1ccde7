package io.mdgate.core.depth;

import io.mdgate.core.book.BookApplier;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.DepthDiff;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.book.SeededOrderFlow;
import io.mdgate.core.itch.ItchMessageDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives the order books with a seeded order flow, derives the LEVEL ticks the depth contract requires after every
 * message ({@link DepthDiff}), applies them as ticks to a {@link DepthBook} per instrument, in the reference order
 * and shuffled, and checks both books hold exactly the order books' top D per side after every message: for D = 1,
 * a few depths, and one deeper than any side gets.
 */
@Timeout(120)
class DepthBookReferenceTest
{
    private static final int INSTRUMENTS = 3;
    private static final int MESSAGES = 20_000;

    @ParameterizedTest(name = "D {0}, seed {1}, {2} live orders")
    @CsvSource({ "1, 1, 600", "2, 42, 600", "5, 7, 900", "7, 20240310, 900", "64, 99, 240" })
    void shouldHoldTheBooksTopLevelsAfterEveryMessage(final int depth, final long seed, final int liveOrders)
    {
        final SeededOrderFlow flow = new SeededOrderFlow(seed, INSTRUMENTS, liveOrders);
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1024).maxLevels(1024).maxInstruments(16));
        final DepthDiff diff = new DepthDiff(depth, INSTRUMENTS + 1);
        final DepthBook[] inOrder = new DepthBook[INSTRUMENTS + 1];
        final DepthBook[] shuffled = new DepthBook[INSTRUMENTS + 1];
        for (int i = 1; i <= INSTRUMENTS; i++)
        {
            inOrder[i] = new DepthBook(depth);
            shuffled[i] = new DepthBook(depth);
        }
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final BookApplier applier = new BookApplier(books);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        final Random order = new Random(seed);
        int deepest = 0;
        long levelTicks = 0;
        long removals = 0;
        long sequence = 0;

        for (int m = 0; m < MESSAGES; m++)
        {
            final int length = flow.next(message, 0);
            assertEquals(ItchMessageDecoder.OK, decoder.decode(message, 0, length, applier));
            for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
            {
                final List<DepthDiff.Level> levels = diff.diff(books, instrument);
                final List<DepthDiff.Level> mixed = new ArrayList<>(levels);
                Collections.shuffle(mixed, order);
                for (final DepthDiff.Level level : levels)
                {
                    level.encode(tick, 0, ++sequence);
                    assertTrue(inOrder[instrument].apply(tick, 0) != DepthBook.REFUSED);
                    levelTicks++;
                    removals += level.quantity() == 0 ? 1 : 0;
                }
                for (final DepthDiff.Level level : mixed)
                {
                    level.encode(tick, 0, sequence);
                    shuffled[instrument].apply(tick, 0);
                }
                final String where = "D " + depth + ", seed " + seed + ", message " + m + " ('" +
                    (char)message.getByte(0) + "'), instrument " + instrument;
                assertSameTop(books, instrument, depth, inOrder[instrument], where);
                assertSameTop(books, instrument, depth, shuffled[instrument], where + ", ticks shuffled");
                deepest = Math.max(deepest, Math.max(books.levelCount(instrument, 0), books.levelCount(instrument, 1)));
            }
        }
        assertTrue(levelTicks > MESSAGES / 10, "the flow should move the depth: " + levelTicks + " LEVEL ticks");
        assertTrue(removals > 0, "the flow should remove levels");
        if (depth == 64)
        {
            assertTrue(deepest < depth, "D " + depth + " should exceed the deepest side, " + deepest + " levels");
        }
        else
        {
            assertTrue(deepest > depth, "the flow should have more levels than D " + depth + ": " + deepest);
        }
    }

    private static void assertSameTop(final OrderBooks books, final int instrument, final int depth,
        final DepthBook book, final String where)
    {
        for (int side = 0; side <= 1; side++)
        {
            final int levels = Math.min(depth, books.levelCount(instrument, side));
            final String context = where + (side == 0 ? " bids " : " asks ") + book;
            assertEquals(levels, book.levels(side), context);
            for (int i = 0; i < levels; i++)
            {
                assertEquals(books.depthPrice(instrument, side, i), book.price(side, i), context + " price " + i);
                assertEquals(books.depthSize(instrument, side, i), book.quantity(side, i), context + " size " + i);
                assertEquals(books.depthOrderCount(instrument, side, i), book.orders(side, i),
                    context + " orders " + i);
            }
        }
    }
}
