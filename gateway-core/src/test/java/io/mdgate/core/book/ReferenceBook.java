package io.mdgate.core.book;

import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.AddOrderMpidFlyweight;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderExecutedWithPriceFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Test oracle: the simplest order book that could be right, on plain Java collections (a HashMap of orders, a
 * TreeMap of levels per instrument and side, a LinkedHashMap per level for time priority). Same rules as
 * {@link OrderBooks}: unknown references and duplicate adds are ignored, executions and cancels larger than the
 * order remove it, a replace keeps side and instrument and queues the new order last.
 */
public final class ReferenceBook implements ItchMessageHandler
{
    /** One price level as the oracle sees it. */
    public record Level(long price, long size, int orders)
    {
    }

    private static final class Order
    {
        final long reference;
        final int instrument;
        final int side;
        final long price;
        long shares;

        Order(final long reference, final int instrument, final int side, final long price, final long shares)
        {
            this.reference = reference;
            this.instrument = instrument;
            this.side = side;
            this.price = price;
            this.shares = shares;
        }
    }

    private final Map<Long, Order> orders = new HashMap<>();
    private final Map<Integer, TreeMap<Long, LinkedHashMap<Long, Order>>> books = new HashMap<>();

    @Override
    public void onAddOrder(final AddOrderFlyweight message)
    {
        add(message.stockLocate(), message.orderReference(), message.side(), message.shares(), message.price());
    }

    @Override
    public void onAddOrderMpid(final AddOrderMpidFlyweight message)
    {
        onAddOrder(message);
    }

    @Override
    public void onOrderExecuted(final OrderExecutedFlyweight message)
    {
        reduce(message.orderReference(), message.executedShares());
    }

    @Override
    public void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight message)
    {
        reduce(message.orderReference(), message.executedShares());
    }

    @Override
    public void onOrderCancel(final OrderCancelFlyweight message)
    {
        reduce(message.orderReference(), message.cancelledShares());
    }

    @Override
    public void onOrderDelete(final OrderDeleteFlyweight message)
    {
        final Order order = orders.get(message.orderReference());
        if (order != null)
        {
            remove(order);
        }
    }

    @Override
    public void onOrderReplace(final OrderReplaceFlyweight message)
    {
        final Order order = orders.get(message.originalOrderReference());
        final long newReference = message.newOrderReference();
        if (order == null || (newReference != order.reference && orders.containsKey(newReference)))
        {
            return;
        }
        remove(order);
        insert(new Order(newReference, order.instrument, order.side, message.price(), message.shares()));
    }

    public void add(final int instrument, final long reference, final char side, final long shares, final long price)
    {
        if (orders.containsKey(reference) || BookSide.of(side) == BookSide.INVALID)
        {
            return;
        }
        insert(new Order(reference, instrument, BookSide.of(side), price, shares));
    }

    /** @return levels best first. */
    public List<Level> depth(final int instrument, final int side)
    {
        final TreeMap<Long, LinkedHashMap<Long, Order>> book = books.get(instrument * 2 + side);
        if (book == null)
        {
            return Collections.emptyList();
        }
        final NavigableMap<Long, LinkedHashMap<Long, Order>> bestFirst =
            side == BookSide.BID ? book.descendingMap() : book;
        final List<Level> levels = new ArrayList<>();
        for (final Map.Entry<Long, LinkedHashMap<Long, Order>> entry : bestFirst.entrySet())
        {
            long size = 0;
            for (final Order order : entry.getValue().values())
            {
                size += order.shares;
            }
            levels.add(new Level(entry.getKey(), size, entry.getValue().size()));
        }
        return levels;
    }

    /** @return the best level, or null when the side is empty. */
    public Level best(final int instrument, final int side)
    {
        final List<Level> depth = depth(instrument, side);
        return depth.isEmpty() ? null : depth.get(0);
    }

    /** @return references of the best level's orders, oldest first. */
    public List<Long> bestQueue(final int instrument, final int side)
    {
        final TreeMap<Long, LinkedHashMap<Long, Order>> book = books.get(instrument * 2 + side);
        if (book == null || book.isEmpty())
        {
            return Collections.emptyList();
        }
        final LinkedHashMap<Long, Order> level = side == BookSide.BID ? book.lastEntry().getValue() :
            book.firstEntry().getValue();
        return new ArrayList<>(level.keySet());
    }

    public int orderCount()
    {
        return orders.size();
    }

    public boolean contains(final long reference)
    {
        return orders.containsKey(reference);
    }

    /** @return live references, in no particular order. */
    public Iterator<Long> references()
    {
        return orders.keySet().iterator();
    }

    private void reduce(final long reference, final long shares)
    {
        final Order order = orders.get(reference);
        if (order == null)
        {
            return;
        }
        if (shares >= order.shares)
        {
            remove(order);
        }
        else
        {
            order.shares -= shares;
        }
    }

    private void insert(final Order order)
    {
        orders.put(order.reference, order);
        books.computeIfAbsent(order.instrument * 2 + order.side, k -> new TreeMap<>())
            .computeIfAbsent(order.price, k -> new LinkedHashMap<>())
            .put(order.reference, order);
    }

    private void remove(final Order order)
    {
        orders.remove(order.reference);
        final TreeMap<Long, LinkedHashMap<Long, Order>> book = books.get(order.instrument * 2 + order.side);
        final LinkedHashMap<Long, Order> level = book.get(order.price);
        level.remove(order.reference);
        if (level.isEmpty())
        {
            book.remove(order.price);
        }
    }
}
