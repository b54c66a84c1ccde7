package io.mdgate.core.book;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test support: checks what must hold in any book whatever the input: levels strictly best first, each level's
 * size and count the sum of its orders, each order found by its reference and resting at its level, and the totals adding up.
 */
public final class BookInvariants
{
    private BookInvariants()
    {
    }

    public static void check(final OrderBooks books)
    {
        int orders = 0;
        int levels = 0;
        for (int instrument = 0; instrument < books.maxInstruments(); instrument++)
        {
            int instrumentOrders = 0;
            for (int side = BookSide.BID; side <= BookSide.ASK; side++)
            {
                long previous = OrderBooks.NO_PRICE;
                int sideLevels = 0;
                for (int depth = 0, level; (level = books.levelAt(instrument, side, depth)) != OrderBooks.NONE;
                    depth++)
                {
                    assertEquals(depth, books.depthOfLevel(level), "depth of a level at instrument " + instrument);
                    final long price = books.priceOfLevel(level);
                    if (previous != OrderBooks.NO_PRICE)
                    {
                        assertTrue(BookSide.isBetter(side, previous, price),
                            "levels out of order at instrument " + instrument);
                    }
                    previous = price;
                    final int[] queue = new int[books.orderCountOfLevel(level)];
                    final int count = books.queueOfLevel(level, queue);
                    long size = 0;
                    for (final int order : queue)
                    {
                        size += books.sharesOfOrder(order);
                        assertEquals(order, books.order(books.referenceOfOrder(order)));
                        assertEquals(level, books.levelOfOrder(order));
                        assertEquals(price, books.priceOfOrder(order));
                        assertEquals(side, books.sideOfOrder(order));
                        assertEquals(instrument, books.instrumentOfOrder(order));
                    }
                    assertTrue(count > 0, "an empty level stayed on the book");
                    assertEquals(size, books.sizeOfLevel(level));
                    assertEquals(count, books.orderCountOfLevel(level));
                    instrumentOrders += count;
                    sideLevels++;
                }
                assertEquals(sideLevels, books.levelCount(instrument, side));
                levels += sideLevels;
            }
            assertEquals(instrumentOrders, books.orderCount(instrument));
            orders += instrumentOrders;
        }
        assertEquals(orders, books.orderCount());
        int live = 0;
        for (int order = books.nextLiveOrder(OrderBooks.NONE); order != OrderBooks.NONE;
            order = books.nextLiveOrder(order))
        {
            live++;
        }
        assertEquals(orders, live, "live order records");
        assertEquals(levels, books.levelCount());
    }
}
