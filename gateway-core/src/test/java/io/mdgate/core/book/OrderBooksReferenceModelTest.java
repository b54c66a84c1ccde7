package io.mdgate.core.book;

import io.mdgate.core.itch.ItchMessageDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives the books and a plain-collections oracle with the same long seeded message flow and compares every
 * instrument's full depth, both sides, after every message.
 */
@Timeout(120)
class OrderBooksReferenceModelTest
{
    private static final int INSTRUMENTS = 5;
    private static final int MESSAGES = 60_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 42, 20_240_310, 7_777_777_777L })
    void shouldMatchTheReferenceModelAfterEveryMessage(final long seed)
    {
        System.out.println("OrderBooksReferenceModelTest seed " + seed);
        final SeededOrderFlow flow = new SeededOrderFlow(seed, INSTRUMENTS, 600);
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1024).maxLevels(1024).maxInstruments(16).referenceWindow(1024));
        final ReferenceBook reference = new ReferenceBook();
        final BookApplier applier = new BookApplier(books);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);

        for (int i = 0; i < MESSAGES; i++)
        {
            final int length = flow.next(buffer, 0);
            assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, 0, length, applier));
            decoder.decode(buffer, 0, length, reference);
            final String where = "seed " + seed + ", message " + i + " ('" + (char)buffer.getByte(0) + "')";
            for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
            {
                assertSameBook(books, reference, instrument, BookSide.BID, where);
                assertSameBook(books, reference, instrument, BookSide.ASK, where);
            }
            assertEquals(reference.orderCount(), books.orderCount(), where);
        }
        BookInvariants.check(books);
        assertTrue(books.unknownOrderCount() > 0, "the flow should exercise unknown references");
        assertTrue(books.clampedCount() > 0, "the flow should exercise oversized executions and cancels");
        assertTrue(books.duplicateOrderCount() > 0, "the flow should exercise duplicate adds");
    }

    static void assertSameBook(
        final OrderBooks books, final ReferenceBook reference, final int instrument, final int side, final String where)
    {
        final List<ReferenceBook.Level> expected = reference.depth(instrument, side);
        final List<ReferenceBook.Level> actual = new ArrayList<>();
        for (int depth = 0, level; (level = books.levelAt(instrument, side, depth)) != OrderBooks.NONE; depth++)
        {
            actual.add(new ReferenceBook.Level(
                books.priceOfLevel(level), books.sizeOfLevel(level), books.orderCountOfLevel(level)));
        }
        final String context = where + ", instrument " + instrument + " side " + BookSide.toChar(side);
        assertEquals(expected, actual, context);

        final ReferenceBook.Level best = expected.isEmpty() ? null : expected.get(0);
        assertEquals(best == null ? OrderBooks.NO_PRICE : best.price(), books.bestPrice(instrument, side), context);
        assertEquals(best == null ? 0 : best.size(), books.bestSize(instrument, side), context);
        assertEquals(best == null ? 0 : best.orders(), books.bestOrderCount(instrument, side), context);

        final List<Long> queue = new ArrayList<>();
        final int bestLevel = books.bestLevel(instrument, side);
        if (bestLevel != OrderBooks.NONE)
        {
            final int[] orders = new int[books.orderCountOfLevel(bestLevel)];
            books.queueOfLevel(bestLevel, orders);
            for (final int order : orders)
            {
                queue.add(books.referenceOfOrder(order));
            }
        }
        assertEquals(reference.bestQueue(instrument, side), queue, context + " (time priority at the best level)");
    }
}
