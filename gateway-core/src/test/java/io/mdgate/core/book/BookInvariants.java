package io.mdgate.core.book;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test support: checks what must hold in any book whatever the input: levels strictly best first, each level's
 * size and count the sum of its orders, each order linked back to its level, and the totals adding up.
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
                for (int level = books.bestLevel(instrument, side); level != OrderBooks.NONE;
                    level = books.nextLevel(level))
                {
                    final long price = books.priceOfLevel(level);
                    if (previous != OrderBooks.NO_PRICE)
                    {
                        assertTrue(BookSide.isBetter(side, previous, price),
                            "levels out of order at instrument " + instrument);
                    }
                    previous = price;
                    long size = 0;
                    int count = 0;
                    for (int order = books.firstOrderOfLevel(level); order != OrderBooks.NONE;
                        order = books.nextOrder(order))
                    {
                        size += books.sharesOfOrder(order);
                        count++;
                        assertEquals(order, books.order(books.referenceOfOrder(order)));
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
        assertEquals(levels, books.levelCount());
    }
}
