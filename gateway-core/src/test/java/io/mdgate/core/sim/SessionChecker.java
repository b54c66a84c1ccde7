package io.mdgate.core.sim;

import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.AddOrderMpidFlyweight;
import io.mdgate.core.itch.BrokenTradeFlyweight;
import io.mdgate.core.itch.CrossTradeFlyweight;
import io.mdgate.core.itch.DirectListingCapitalRaiseFlyweight;
import io.mdgate.core.itch.IpoQuotingPeriodUpdateFlyweight;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.LuldAuctionCollarFlyweight;
import io.mdgate.core.itch.MarketParticipantPositionFlyweight;
import io.mdgate.core.itch.MwcbDeclineLevelFlyweight;
import io.mdgate.core.itch.MwcbStatusFlyweight;
import io.mdgate.core.itch.NoiiFlyweight;
import io.mdgate.core.itch.OperationalHaltFlyweight;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderExecutedWithPriceFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;
import io.mdgate.core.itch.RegShoRestrictionFlyweight;
import io.mdgate.core.itch.RetailPriceImprovementFlyweight;
import io.mdgate.core.itch.StockDirectoryFlyweight;
import io.mdgate.core.itch.StockTradingActionFlyweight;
import io.mdgate.core.itch.SystemEventFlyweight;
import io.mdgate.core.itch.TradeFlyweight;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A plain-collections reference model of a session for tests: keeps every live order and each instrument's
 * price levels, and records every rule a generated session breaks (unknown references, over-executions,
 * references that do not increase, crossed or locked books, executions away from the best price or in a
 * halted instrument, broken trades naming unknown matches, timestamps going backwards).
 */
class SessionChecker implements ItchMessageHandler
{
    private record Order(int locate, char side, long shares, long price)
    {
    }

    final List<String> violations = new ArrayList<>();
    final Map<Integer, Character> tradingState = new HashMap<>();
    final Set<Integer> directory = new HashSet<>();
    long messages;
    long lastTimestamp;
    long maxReference;
    long crossedChecks;

    private final Map<Long, Order> live = new HashMap<>();
    private final Map<Integer, TreeMap<Long, Integer>> bids = new HashMap<>();
    private final Map<Integer, TreeMap<Long, Integer>> asks = new HashMap<>();
    private final Set<Long> matches = new HashSet<>();

    private void violation(final String what)
    {
        if (violations.size() < 20)
        {
            violations.add("message " + messages + ": " + what);
        }
    }

    private void timestamp(final long ts)
    {
        messages++;
        if (ts < lastTimestamp)
        {
            violation("timestamp " + ts + " before " + lastTimestamp);
        }
        if (ts >= 86_400_000_000_000L)
        {
            violation("timestamp past midnight " + ts);
        }
        lastTimestamp = ts;
    }

    private TreeMap<Long, Integer> levels(final int locate, final char side)
    {
        return (side == 'B' ? bids : asks).computeIfAbsent(locate, k -> new TreeMap<>());
    }

    private void level(final Order order, final int delta)
    {
        levels(order.locate, order.side).merge(order.price, delta, (a, b) -> a + b == 0 ? null : a + b);
    }

    private void newOrder(final long ref, final Order order)
    {
        if (ref <= maxReference)
        {
            violation("reference " + ref + " does not increase past " + maxReference);
        }
        maxReference = Math.max(maxReference, ref);
        if (!directory.contains(order.locate))
        {
            violation("order for locate " + order.locate + " without a directory message");
        }
        live.put(ref, order);
        level(order, 1);
        checkUncrossed(order.locate);
    }

    private void checkUncrossed(final int locate)
    {
        final TreeMap<Long, Integer> b = levels(locate, 'B');
        final TreeMap<Long, Integer> a = levels(locate, 'S');
        crossedChecks++;
        if (!b.isEmpty() && !a.isEmpty() && b.lastKey() >= a.firstKey())
        {
            violation("locate " + locate + " crossed or locked: bid " + b.lastKey() + " ask " + a.firstKey());
        }
    }

    private Order existing(final long ref)
    {
        final Order order = live.get(ref);
        if (null == order)
        {
            violation("reference " + ref + " is not live");
        }
        return order;
    }

    private void take(final long ref, final long shares, final boolean execution)
    {
        final Order order = existing(ref);
        if (null == order)
        {
            return;
        }
        if (shares < 1 || shares > order.shares)
        {
            violation("takes " + shares + " of " + order.shares + " shares from " + ref);
        }
        if (execution)
        {
            final TreeMap<Long, Integer> side = levels(order.locate, order.side);
            final long best = order.side == 'B' ? side.lastKey() : side.firstKey();
            if (best != order.price)
            {
                violation("execution of " + ref + " at " + order.price + " away from the best " + best);
            }
            if (tradingState.getOrDefault(order.locate, 'T') != 'T')
            {
                violation("execution in halted locate " + order.locate);
            }
        }
        if (shares >= order.shares)
        {
            live.remove(ref);
            level(order, -1);
        }
        else
        {
            live.put(ref, new Order(order.locate, order.side, order.shares - shares, order.price));
        }
    }

    private void match(final long match)
    {
        if (!matches.add(match))
        {
            violation("match number " + match + " issued twice");
        }
    }

    int liveOrders()
    {
        return live.size();
    }

    @Override
    public void onStockDirectory(final StockDirectoryFlyweight m)
    {
        timestamp(m.timestamp());
        directory.add(m.stockLocate());
    }

    @Override
    public void onStockTradingAction(final StockTradingActionFlyweight m)
    {
        timestamp(m.timestamp());
        tradingState.put(m.stockLocate(), m.tradingState());
    }

    @Override
    public void onAddOrder(final AddOrderFlyweight m)
    {
        timestamp(m.timestamp());
        newOrder(m.orderReference(), new Order(m.stockLocate(), m.side(), m.shares(), m.price()));
    }

    @Override
    public void onAddOrderMpid(final AddOrderMpidFlyweight m)
    {
        onAddOrder(m);
    }

    @Override
    public void onOrderExecuted(final OrderExecutedFlyweight m)
    {
        timestamp(m.timestamp());
        match(m.matchNumber());
        take(m.orderReference(), m.executedShares(), true);
    }

    @Override
    public void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight m)
    {
        timestamp(m.timestamp());
        match(m.matchNumber());
        take(m.orderReference(), m.executedShares(), true);
    }

    @Override
    public void onOrderCancel(final OrderCancelFlyweight m)
    {
        timestamp(m.timestamp());
        final Order order = existing(m.orderReference());
        if (null != order && m.cancelledShares() >= order.shares)
        {
            violation("cancel of all " + order.shares + " shares: a delete would be right");
        }
        take(m.orderReference(), m.cancelledShares(), false);
    }

    @Override
    public void onOrderDelete(final OrderDeleteFlyweight m)
    {
        timestamp(m.timestamp());
        final Order order = existing(m.orderReference());
        if (null != order)
        {
            take(m.orderReference(), order.shares, false);
        }
    }

    @Override
    public void onOrderReplace(final OrderReplaceFlyweight m)
    {
        timestamp(m.timestamp());
        final Order order = existing(m.originalOrderReference());
        if (null != order)
        {
            take(m.originalOrderReference(), order.shares, false);
            newOrder(m.newOrderReference(), new Order(order.locate, order.side, m.shares(), m.price()));
        }
    }

    @Override
    public void onTrade(final TradeFlyweight m)
    {
        timestamp(m.timestamp());
        match(m.matchNumber());
    }

    @Override
    public void onCrossTrade(final CrossTradeFlyweight m)
    {
        timestamp(m.timestamp());
        match(m.matchNumber());
    }

    @Override
    public void onBrokenTrade(final BrokenTradeFlyweight m)
    {
        timestamp(m.timestamp());
        if (!matches.contains(m.matchNumber()))
        {
            violation("broken trade names unknown match " + m.matchNumber());
        }
    }

    @Override
    public void onSystemEvent(final SystemEventFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onRegShoRestriction(final RegShoRestrictionFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onMarketParticipantPosition(final MarketParticipantPositionFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onMwcbDeclineLevel(final MwcbDeclineLevelFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onMwcbStatus(final MwcbStatusFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onIpoQuotingPeriodUpdate(final IpoQuotingPeriodUpdateFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onLuldAuctionCollar(final LuldAuctionCollarFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onOperationalHalt(final OperationalHaltFlyweight m)
    {
        timestamp(m.timestamp());
        tradingState.put(m.stockLocate(), m.operationalHaltAction() == 'H' ? 'h' : 'T');
    }

    @Override
    public void onNoii(final NoiiFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onRetailPriceImprovement(final RetailPriceImprovementFlyweight m)
    {
        timestamp(m.timestamp());
    }

    @Override
    public void onDirectListingCapitalRaise(final DirectListingCapitalRaiseFlyweight m)
    {
        timestamp(m.timestamp());
    }
}
