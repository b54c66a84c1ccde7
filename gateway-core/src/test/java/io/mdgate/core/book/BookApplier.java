package io.mdgate.core.book;

import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.AddOrderMpidFlyweight;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderExecutedWithPriceFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;

/**
 * Test support: applies ITCH order messages to {@link OrderBooks} through their public operations, nothing else
 * (the book on its own, without the normalizer).
 */
public final class BookApplier implements ItchMessageHandler
{
    private final OrderBooks books;

    public BookApplier(final OrderBooks books)
    {
        this.books = books;
    }

    @Override
    public void onAddOrder(final AddOrderFlyweight message)
    {
        books.add(message.stockLocate(), message.orderReference(), message.side(), message.shares(),
            message.price());
    }

    @Override
    public void onAddOrderMpid(final AddOrderMpidFlyweight message)
    {
        onAddOrder(message);
    }

    @Override
    public void onOrderExecuted(final OrderExecutedFlyweight message)
    {
        books.execute(message.orderReference(), message.executedShares());
    }

    @Override
    public void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight message)
    {
        books.execute(message.orderReference(), message.executedShares());
    }

    @Override
    public void onOrderCancel(final OrderCancelFlyweight message)
    {
        books.cancel(message.orderReference(), message.cancelledShares());
    }

    @Override
    public void onOrderDelete(final OrderDeleteFlyweight message)
    {
        books.delete(message.orderReference());
    }

    @Override
    public void onOrderReplace(final OrderReplaceFlyweight message)
    {
        books.replace(message.originalOrderReference(), message.newOrderReference(), message.shares(),
            message.price());
    }
}
