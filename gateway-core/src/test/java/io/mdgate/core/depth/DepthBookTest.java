package io.mdgate.core.depth;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.mdgate.core.depth.DepthBook.ASK;
import static io.mdgate.core.depth.DepthBook.BID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DepthBookTest
{
    private final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);

    private UnsafeBuffer level(final Side side, final int price, final long quantity, final long orders)
    {
        new TickEncoder().wrap(tick, 0).eventType(EventType.LEVEL).side(side).instrumentId(7).quantity(quantity)
            .matchOrNewReference(orders).price().mantissa(price);
        return tick;
    }

    private static String prices(final DepthBook book, final int side)
    {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < book.levels(side); i++)
        {
            out.append(i == 0 ? "" : " ").append(book.price(side, i)).append('x').append(book.quantity(side, i))
                .append('/').append(book.orders(side, i));
        }
        return out.toString();
    }

    @Test
    void shouldKeepBidsBestFirstDescendingAndAsksAscending()
    {
        final DepthBook book = new DepthBook(5);
        book.apply(level(Side.BUY, 100, 10, 1), 0);
        book.apply(level(Side.BUY, 102, 20, 2), 0);
        book.apply(level(Side.BUY, 101, 30, 3), 0);
        book.apply(level(Side.SELL, 105, 5, 1), 0);
        book.apply(level(Side.SELL, 103, 6, 1), 0);

        assertEquals("102x20/2 101x30/3 100x10/1", prices(book, BID));
        assertEquals("103x6/1 105x5/1", prices(book, ASK));
    }

    @Test
    void shouldUpdateALevelInPlaceAndRemoveItOnQuantityZero()
    {
        final DepthBook book = new DepthBook(3);
        book.apply(level(Side.BUY, 100, 10, 1), 0);
        book.apply(level(Side.BUY, 99, 10, 1), 0);

        assertEquals(DepthBook.CHANGED, book.apply(level(Side.BUY, 100, 15, 2), 0));
        assertEquals(DepthBook.UNCHANGED, book.apply(level(Side.BUY, 100, 15, 2), 0));
        assertEquals("100x15/2 99x10/1", prices(book, BID));
        assertEquals(DepthBook.CHANGED, book.apply(level(Side.BUY, 100, 0, 0), 0));
        assertEquals("99x10/1", prices(book, BID));
        assertEquals(DepthBook.UNCHANGED, book.apply(level(Side.BUY, 100, 0, 0), 0), "a price it does not hold");
    }

    @Test
    void shouldHoldTheTopDWhetherANewLevelOrTheRemovalOfThePushedOutOneComesFirst()
    {
        final DepthBook newFirst = new DepthBook(2);
        final DepthBook removalFirst = new DepthBook(2);
        for (final DepthBook book : new DepthBook[] { newFirst, removalFirst })
        {
            book.apply(level(Side.SELL, 10, 1, 1), 0);
            book.apply(level(Side.SELL, 11, 1, 1), 0);
        }
        newFirst.apply(level(Side.SELL, 9, 1, 1), 0);
        assertEquals(2, newFirst.levels(ASK), "the spare place is never reported");
        newFirst.apply(level(Side.SELL, 11, 0, 0), 0);
        removalFirst.apply(level(Side.SELL, 11, 0, 0), 0);
        removalFirst.apply(level(Side.SELL, 9, 1, 1), 0);

        assertEquals("9x1/1 10x1/1", prices(newFirst, ASK));
        assertEquals("9x1/1 10x1/1", prices(removalFirst, ASK));
    }

    @Test
    void shouldLetALevelWorseThanTheWindowInWhenALevelAboveLeavesInTheSameMessage()
    {
        final DepthBook book = new DepthBook(2);
        book.apply(level(Side.BUY, 100, 1, 1), 0);
        book.apply(level(Side.BUY, 99, 1, 1), 0);

        book.apply(level(Side.BUY, 98, 4, 1), 0); // a replace moved the order at 100 to 98: the new level first
        book.apply(level(Side.BUY, 100, 0, 0), 0);

        assertEquals("99x1/1 98x4/1", prices(book, BID));
    }

    @Test
    void shouldRefuseTicksThatAreNotLevelsOrHaveNoSideOrPrice()
    {
        final DepthBook book = new DepthBook(2);
        new TickEncoder().wrap(tick, 0).eventType(EventType.TOP_OF_BOOK).side(Side.BUY).quantity(5).price()
            .mantissa(100);
        assertEquals(DepthBook.REFUSED, book.apply(tick, 0));
        assertEquals(DepthBook.REFUSED, book.apply(level(Side.NONE, 100, 5, 1), 0));
        assertEquals(DepthBook.REFUSED, book.apply(level(Side.BUY, DepthBook.NULL_PRICE, 5, 1), 0));
        assertEquals(0, book.levels(BID));
        assertEquals(0, book.levels(ASK));
    }

    @Test
    void shouldReadThePrefixOfADeeperBookAsTheTopLevelsOfAShallowerOne()
    {
        final DepthBook deep = new DepthBook(4);
        for (int i = 0; i < 4; i++)
        {
            deep.apply(DepthBook.BID, 100 - i, 10 + i, 1);
            deep.apply(DepthBook.ASK, 200 + i, 20 + i, 2);
        }
        final UnsafeBuffer prefix = new UnsafeBuffer(new byte[DepthBook.length(2)]);
        prefix.putBytes(0, deep.buffer(), deep.offset(), DepthBook.length(2));
        final DepthBook shallow = new DepthBook().wrap(prefix, 0, 2);

        assertEquals("100x10/1 99x11/1", prices(shallow, BID));
        assertEquals("200x20/2 201x21/2", prices(shallow, ASK));
        assertEquals(DepthBook.NULL_PRICE, shallow.price(BID, 2));
        assertEquals(0, shallow.quantity(ASK, 2));
    }

    @Test
    void shouldRefuseADepthOutsideOneToSixtyFour()
    {
        assertThrows(IllegalArgumentException.class, () -> new DepthBook(0));
        assertThrows(IllegalArgumentException.class, () -> new DepthBook(DepthBook.MAX_DEPTH + 1));
    }
}
