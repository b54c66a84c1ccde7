package io.mdgate.core.sim;

import org.agrona.MutableDirectBuffer;

/**
 * The continuous-trading order flow. Each message is drawn from a mix in which adds dominate, then deletes,
 * replaces, executions, cancels and hidden trades; the delete share follows how full the books are, so the
 * live order count settles near its target. New and replaced orders rest passively around each instrument's
 * random-walking fair mid and never cross the other side, most within {@link SimulationConfig#NEAR_DEPTH} levels
 * of the quote and a configured share far behind it; executions take the oldest order at the best level
 * on the side the fair mid has moved towards, sometimes sweeping on through several orders at one timestamp.
 * Every order an execution, cancel, delete or replace names is live in {@link LiveOrders}. Allocation-free.
 * Not thread-safe.
 */
final class OrderFlow
{
    private static final int ADD = 430;
    private static final int ADD_MPID = 15;
    private static final int REPLACE = 90;
    private static final int EXECUTE = 50;
    private static final int EXECUTE_WITH_PRICE = 5;
    private static final int CANCEL = 25;
    private static final int TRADE = 20;
    private static final int DELETE = 365;
    private static final int NOT_DELETE = ADD + ADD_MPID + REPLACE + EXECUTE + EXECUTE_WITH_PRICE + CANCEL + TRADE;
    private static final double MAX_FILL = 2.0;
    private static final int NEAR_DEPTH = SimulationConfig.NEAR_DEPTH;

    private final MessageComposer composer;
    private final Instruments instruments;
    private final LiveOrders orders;
    private final MarketEvents events;
    private final MatchNumbers matches;
    private final SimRandom random;
    private final SessionClock clock;
    private final double targetOrders;
    private final double farShare;
    private final int farLevels;
    private long lastReference;
    private int sweepLeft;
    private int sweepInstrument;
    private int sweepSide;

    OrderFlow(
        final MessageComposer composer,
        final Instruments instruments,
        final LiveOrders orders,
        final MarketEvents events,
        final MatchNumbers matches,
        final SimRandom random,
        final SessionClock clock,
        final long targetOrders,
        final double farShare,
        final int farLevels,
        final long firstReference)
    {
        this.composer = composer;
        this.instruments = instruments;
        this.orders = orders;
        this.events = events;
        this.matches = matches;
        this.random = random;
        this.clock = clock;
        this.targetOrders = targetOrders;
        this.farShare = farShare;
        this.farLevels = farLevels;
        this.lastReference = firstReference - 1;
    }

    /** Writes the next order-flow message (or a due market event) and returns its length. */
    int next(final MutableDirectBuffer buffer, final int offset, final long flowIndex, final long flowLeft)
    {
        if (events.isDue(flowIndex))
        {
            final int length = events.tryEmit(buffer, offset, flowIndex, flowLeft, clock);
            if (length > 0)
            {
                return length;
            }
        }
        if (sweepLeft > 0)
        {
            sweepLeft--;
            final int slot = orders.oldestAtBest(sweepInstrument, sweepSide);
            if (slot != LiveOrders.NONE && sweepInstrument != events.halted())
            {
                return execute(buffer, offset, clock.hold(), slot, false);
            }
            sweepLeft = 0;
        }
        final long ts = clock.advance();
        final int deleteWeight = (int)(DELETE * Math.min(orders.size() / targetOrders, MAX_FILL));
        int r = random.nextInt(NOT_DELETE + deleteWeight);
        if ((r -= ADD) < 0)
        {
            return add(buffer, offset, ts, false);
        }
        if ((r -= ADD_MPID) < 0)
        {
            return add(buffer, offset, ts, true);
        }
        if (orders.size() == 0)
        {
            return add(buffer, offset, ts, false);
        }
        if ((r -= REPLACE) < 0)
        {
            return replace(buffer, offset, ts);
        }
        if ((r -= EXECUTE) < 0)
        {
            return aggress(buffer, offset, ts, false);
        }
        if ((r -= EXECUTE_WITH_PRICE) < 0)
        {
            return aggress(buffer, offset, ts, true);
        }
        if ((r -= CANCEL) < 0)
        {
            return cancel(buffer, offset, ts);
        }
        if ((r -= TRADE) < 0)
        {
            return hiddenTrade(buffer, offset, ts);
        }
        return delete(buffer, offset, ts, random.nextInt(orders.size()));
    }

    private long nextReference()
    {
        lastReference += 1 + random.nextInt(4);
        return lastReference;
    }

    private long shares()
    {
        final int r = random.nextInt(100);
        if (r < 15)
        {
            return random.between(1, 99);
        }
        if (r < 90)
        {
            return 100L * random.between(1, 5);
        }
        return 100L * random.between(6, 100);
    }

    /** @return a level for a passive order that does not lock or cross the other side. */
    private int restingLevel(final int i, final int side)
    {
        final int depth = isFar() ? random.between(NEAR_DEPTH + 1, farLevels) : random.geometric(0.55, NEAR_DEPTH);
        if (side == LiveOrders.BUY)
        {
            final int ask = orders.best(i, LiveOrders.SELL);
            final int level = instruments.passiveLevel(i, true, depth);
            return ask == LiveOrders.NONE ? level : Math.min(level, ask - 1);
        }
        final int bid = orders.best(i, LiveOrders.BUY);
        final int level = instruments.passiveLevel(i, false, depth);
        return bid == LiveOrders.NONE ? level : Math.max(level, bid + 1);
    }

    /** Draws nothing when no order goes far, so such sessions keep the bytes they had before far orders existed. */
    private boolean isFar()
    {
        return farShare > 0 && random.chance(farShare);
    }

    private static char sideCode(final int side)
    {
        return side == LiveOrders.BUY ? 'B' : 'S';
    }

    private int add(final MutableDirectBuffer buffer, final int offset, final long ts, final boolean attributed)
    {
        if (orders.isFull())
        {
            return delete(buffer, offset, ts, random.nextInt(orders.size()));
        }
        final int i = instruments.pickActive(random);
        instruments.walk(i, random);
        final int side = random.nextInt(2);
        final int level = restingLevel(i, side);
        final long ref = nextReference();
        final long qty = shares();
        orders.add(ref, i, side, level, (int)qty);
        final int locate = Instruments.locate(i);
        final long price = instruments.price(i, level);
        if (attributed)
        {
            return composer.addOrderMpid(buffer, offset, ts, locate, ref, sideCode(side), qty, instruments.symbol(i),
                price, MarketEvents.MPIDS[random.nextInt(MarketEvents.MPIDS.length)]);
        }
        return composer.addOrder(buffer, offset, ts, locate, ref, sideCode(side), qty, instruments.symbol(i), price);
    }

    private int replace(final MutableDirectBuffer buffer, final int offset, final long ts)
    {
        final int slot = random.nextInt(orders.size());
        final int i = orders.instrument(slot);
        instruments.walk(i, random);
        final long originalRef = orders.reference(slot);
        final int level = restingLevel(i, orders.side(slot));
        final long qty = random.chance(0.4) ? orders.shares(slot) : shares();
        final long newRef = nextReference();
        orders.replace(slot, newRef, level, (int)qty);
        return composer.orderReplace(buffer, offset, ts, Instruments.locate(i), originalRef, newRef, qty,
            instruments.price(i, level));
    }

    /** An incoming order takes liquidity on the side the fair mid has moved towards. */
    private int aggress(final MutableDirectBuffer buffer, final int offset, final long ts, final boolean withPrice)
    {
        int i = instruments.pickActive(random);
        if (!isTradable(i))
        {
            i = orders.instrument(random.nextInt(orders.size()));
            if (!isTradable(i))
            {
                return add(buffer, offset, ts, false);
            }
        }
        final int bid = orders.best(i, LiveOrders.BUY);
        final int ask = orders.best(i, LiveOrders.SELL);
        final int side;
        if (bid == LiveOrders.NONE || ask == LiveOrders.NONE)
        {
            side = bid == LiveOrders.NONE ? LiveOrders.SELL : LiveOrders.BUY;
        }
        else
        {
            final int fair2 = instruments.fair2(i);
            final int sum = bid + ask;
            side = fair2 > sum ? LiveOrders.SELL : fair2 < sum ? LiveOrders.BUY : random.nextInt(2);
        }
        if (!withPrice && random.chance(0.2))
        {
            sweepLeft = 1 + random.geometric(0.5, 4);
            sweepInstrument = i;
            sweepSide = side;
        }
        return execute(buffer, offset, ts, orders.oldestAtBest(i, side), withPrice);
    }

    private boolean isTradable(final int i)
    {
        return i != events.halted() &&
            (orders.best(i, LiveOrders.BUY) != LiveOrders.NONE || orders.best(i, LiveOrders.SELL) != LiveOrders.NONE);
    }

    private int execute(
        final MutableDirectBuffer buffer, final int offset, final long ts, final int slot, final boolean withPrice)
    {
        final int i = orders.instrument(slot);
        final int locate = Instruments.locate(i);
        final long ref = orders.reference(slot);
        final int open = orders.shares(slot);
        final int qty = open <= 1 || random.chance(0.6) ? open : random.between(1, open - 1);
        final long price = instruments.price(i, orders.level(slot));
        if (qty == open)
        {
            orders.remove(slot);
        }
        else
        {
            orders.reduce(slot, qty);
        }
        final long match = matches.next(locate);
        if (withPrice)
        {
            return composer.orderExecutedWithPrice(buffer, offset, ts, locate, ref, qty, match,
                random.chance(0.85) ? 'Y' : 'N', price);
        }
        return composer.orderExecuted(buffer, offset, ts, locate, ref, qty, match);
    }

    private int cancel(final MutableDirectBuffer buffer, final int offset, final long ts)
    {
        final int slot = random.nextInt(orders.size());
        final int open = orders.shares(slot);
        if (open < 2)
        {
            return delete(buffer, offset, ts, slot);
        }
        final int qty = random.between(1, open - 1);
        final long ref = orders.reference(slot);
        final int locate = Instruments.locate(orders.instrument(slot));
        orders.reduce(slot, qty);
        return composer.orderCancel(buffer, offset, ts, locate, ref, qty);
    }

    private int delete(final MutableDirectBuffer buffer, final int offset, final long ts, final int slot)
    {
        final long ref = orders.reference(slot);
        final int locate = Instruments.locate(orders.instrument(slot));
        orders.remove(slot);
        return composer.orderDelete(buffer, offset, ts, locate, ref);
    }

    /** A non-displayed order executes, at the midpoint when both sides are quoted. */
    private int hiddenTrade(final MutableDirectBuffer buffer, final int offset, final long ts)
    {
        final int i = instruments.pickActive(random);
        if (i == events.halted())
        {
            return add(buffer, offset, ts, false);
        }
        final int bid = orders.best(i, LiveOrders.BUY);
        final int ask = orders.best(i, LiveOrders.SELL);
        final long price = bid == LiveOrders.NONE || ask == LiveOrders.NONE ?
            instruments.priceAround(i, 0.0, random) : (instruments.price(i, bid) + instruments.price(i, ask)) / 2;
        final int locate = Instruments.locate(i);
        return composer.trade(buffer, offset, ts, locate, random.chance(0.5) ? 'B' : 'S', shares(),
            instruments.symbol(i), price, matches.next(locate));
    }
}
