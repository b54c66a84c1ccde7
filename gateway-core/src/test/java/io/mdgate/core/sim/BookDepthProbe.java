package io.mdgate.core.sim;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.AddOrderMpidFlyweight;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderExecutedWithPriceFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;

/**
 * Replays a session's order messages into {@link OrderBooks} and measures, through the books alone, how far
 * from the touch each add lands (in one-cent levels from the best price of its own side, 0 when it is at or
 * better than that best), the deepest side seen, and the lowest price of any order. For tests.
 */
final class BookDepthProbe implements ItchMessageHandler
{
    private static final long CENT = 100;

    final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1 << 20).maxLevels(1 << 19).conclude());
    long addsBehindATouch;
    long addsBeyond;
    long maxDistance;
    int deepestSide;
    long lowestPrice = Long.MAX_VALUE;
    long failures;
    private final long beyond;

    /** @param beyond adds more than this many levels from the touch are counted in {@link #addsBeyond}. */
    BookDepthProbe(final long beyond)
    {
        this.beyond = beyond;
    }

    double shareBeyond()
    {
        return (double)addsBeyond / addsBehindATouch;
    }

    private void add(final AddOrderFlyweight m)
    {
        final int side = BookSide.of(m.side());
        final long best = books.bestPrice(m.stockLocate(), side);
        if (best != OrderBooks.NO_PRICE)
        {
            final long distance = Math.max(0, side == BookSide.BID ? best - m.price() : m.price() - best) / CENT;
            addsBehindATouch++;
            addsBeyond += distance > beyond ? 1 : 0;
            maxDistance = Math.max(maxDistance, distance);
        }
        check(books.add(m.stockLocate(), m.orderReference(), m.side(), m.shares(), m.price()));
        placed(m.stockLocate(), side, m.price());
    }

    private void placed(final int locate, final int side, final long price)
    {
        deepestSide = Math.max(deepestSide, books.levelCount(locate, side));
        lowestPrice = Math.min(lowestPrice, price);
    }

    private void check(final int result)
    {
        failures += result < 0 ? 1 : 0;
    }

    @Override
    public void onAddOrder(final AddOrderFlyweight m)
    {
        add(m);
    }

    @Override
    public void onAddOrderMpid(final AddOrderMpidFlyweight m)
    {
        add(m);
    }

    @Override
    public void onOrderExecuted(final OrderExecutedFlyweight m)
    {
        check(books.execute(m.orderReference(), m.executedShares()));
    }

    @Override
    public void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight m)
    {
        check(books.execute(m.orderReference(), m.executedShares()));
    }

    @Override
    public void onOrderCancel(final OrderCancelFlyweight m)
    {
        check(books.cancel(m.orderReference(), m.cancelledShares()));
    }

    @Override
    public void onOrderDelete(final OrderDeleteFlyweight m)
    {
        check(books.delete(m.orderReference()));
    }

    @Override
    public void onOrderReplace(final OrderReplaceFlyweight m)
    {
        check(books.replace(m.originalOrderReference(), m.newOrderReference(), m.shares(), m.price()));
        placed(books.lastInstrument(), books.lastSide(), m.price());
    }
}
