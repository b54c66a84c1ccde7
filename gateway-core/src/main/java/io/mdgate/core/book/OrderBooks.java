package io.mdgate.core.book;

import java.util.Arrays;

/**
 * Every instrument's order book, built from ITCH order events: per instrument and side its price levels in a
 * sorted array with the best at the end (best price and size in one read, a new order's level near the touch found
 * in a few steps, any depth by index), and per level its orders' time priority as arrival numbers. Orders are found by reference
 * through a direct-mapped window ({@link OrderPool}), not a hash; order records are 16 bytes and level records 32,
 * one cache line or less per record touched. A replaced order keeps its side and instrument and goes to the back of its new
 * level. Fully executed or cancelled orders leave the book.
 * <p>
 * Operations return {@link #OK}, {@link #CLAMPED} (applied, but the execution or cancel was larger than the order
 * and was cut to its size) or a negative code; every non-OK outcome is also counted. After an operation,
 * {@link #lastInstrument()}, {@link #lastSide()}, {@link #lastPrice()}, {@link #lastSharesRemoved()} and
 * {@link #lastRemaining()} describe the order it touched, so a caller needs no second lookup.
 * <p>
 * Prices are ITCH Price(4) values and shares ITCH u32 values, both held as non-negative {@code long}s.
 * All storage is allocated in the constructor from a {@link BookContext}; nothing allocates afterwards.
 * <p>
 * Threading: not thread-safe; one owning thread.
 */
public final class OrderBooks
{
    /** The operation was applied. */
    public static final int OK = 0;
    /** Applied, but the shares to take off exceeded the order's and were clamped to them. */
    public static final int CLAMPED = 1;
    /** No live order has that reference. */
    public static final int UNKNOWN_ORDER = -1;
    /** An add or replace named a reference that is already live. The book is unchanged. */
    public static final int DUPLICATE_ORDER = -2;
    /** Every order record is in use. */
    public static final int ORDER_CAPACITY_EXCEEDED = -3;
    /** Every level record is in use. */
    public static final int LEVEL_CAPACITY_EXCEEDED = -4;
    /** The stock locate is not below {@link BookContext#maxInstruments()}. */
    public static final int INSTRUMENT_OUT_OF_RANGE = -5;
    /** The side is neither 'B' nor 'S'. */
    public static final int INVALID_SIDE = -6;
    /** The price or share count is negative or above u32. */
    public static final int INVALID_VALUE = -7;

    /** Price of an empty side or a missing level. */
    public static final long NO_PRICE = -1;
    /** Handle, instrument or side that does not exist. */
    public static final int NONE = -1;

    private static final long U32 = 0xFFFF_FFFFL;
    /** Price levels one operation can change: a replace leaves one and joins another. */
    public static final int MAX_TOUCHED = 2;

    private final int maxInstruments;
    private final OrderPool orders;
    private final PriceLadders ladders;
    private final LevelPool levels;
    private final int[] instrumentOrders;
    private final InstrumentDirectory instruments;

    private int lastInstrument = NONE;
    private int lastSide = NONE;
    private long lastPrice = NO_PRICE;
    private long lastSharesRemoved;
    private long lastRemaining;
    private boolean lastTouchedBest;
    private long arrivals;

    private boolean recordTouched;
    private int touchedCount;
    private final long[] touchedPrice = new long[MAX_TOUCHED];
    private final int[] touchedLevel = new int[MAX_TOUCHED];
    private final boolean[] touchedExisted = new boolean[MAX_TOUCHED];
    private final int[] touchedRemovalDepth = new int[MAX_TOUCHED];
    private final long[] touchedSizeBefore = new long[MAX_TOUCHED];
    private final int[] touchedOrdersBefore = new int[MAX_TOUCHED];

    private long unknownOrderCount;
    private long duplicateOrderCount;
    private long clampedCount;
    private long orderCapacityExceededCount;
    private long levelCapacityExceededCount;
    private long instrumentOutOfRangeCount;
    private long invalidInputCount;

    /**
     * @param context capacities; validated here.
     * @throws IllegalArgumentException when a capacity is out of range.
     */
    public OrderBooks(final BookContext context)
    {
        context.conclude();
        maxInstruments = context.maxInstruments();
        orders = new OrderPool(context.referenceWindow(), context.maxOrders());
        ladders = new PriceLadders(context.maxLevels(), maxInstruments * 2);
        levels = ladders.levels;
        instrumentOrders = new int[maxInstruments];
        instruments = new InstrumentDirectory(maxInstruments);
    }

    /** @return symbols, trading states and activity per instrument. */
    public InstrumentDirectory instruments()
    {
        return instruments;
    }

    /**
     * Adds an order at the back of its price level (ITCH 'A' and 'F').
     *
     * @param instrument stock locate.
     * @param reference  order reference, unique among live orders.
     * @param side       'B' or 'S'.
     * @param shares     u32.
     * @param price      Price(4), u32.
     * @return {@link #OK} or a negative code.
     */
    public int add(final int instrument, final long reference, final char side, final long shares, final long price)
    {
        clearLast();
        if (instrument < 0 || instrument >= maxInstruments)
        {
            instrumentOutOfRangeCount++;
            return INSTRUMENT_OUT_OF_RANGE;
        }
        final int bookSide = BookSide.of(side);
        if (bookSide == BookSide.INVALID)
        {
            invalidInputCount++;
            return INVALID_SIDE;
        }
        if (isNotU32(shares) || isNotU32(price))
        {
            invalidInputCount++;
            return INVALID_VALUE;
        }
        lastInstrument = instrument;
        lastSide = bookSide;
        lastPrice = price;
        if (orders.find(reference) != OrderPool.NONE)
        {
            duplicateOrderCount++;
            return DUPLICATE_ORDER;
        }
        instruments.recordActivity(instrument);
        return insert(instrument, bookSide, reference, shares, price);
    }

    /**
     * Takes executed shares off an order (ITCH 'E' and 'C'); the order leaves the book when none remain.
     *
     * @return {@link #OK}, {@link #CLAMPED} or {@link #UNKNOWN_ORDER}.
     */
    public int execute(final long reference, final long shares)
    {
        return reduce(reference, shares);
    }

    /**
     * Takes cancelled shares off an order (ITCH 'X'); the order leaves the book when none remain.
     *
     * @return {@link #OK}, {@link #CLAMPED} or {@link #UNKNOWN_ORDER}.
     */
    public int cancel(final long reference, final long shares)
    {
        return reduce(reference, shares);
    }

    /**
     * Removes an order (ITCH 'D').
     *
     * @return {@link #OK} or {@link #UNKNOWN_ORDER}.
     */
    public int delete(final long reference)
    {
        clearLast();
        final int order = orders.find(reference);
        if (order == OrderPool.NONE)
        {
            unknownOrderCount++;
            return UNKNOWN_ORDER;
        }
        describe(order);
        lastSharesRemoved = orders.shares(order);
        remove(order);
        return OK;
    }

    /**
     * Replaces an order (ITCH 'U'): the original leaves the book and the new one, with the original's side and
     * instrument, joins the back of its price level even when the price did not change.
     * {@link #lastPrice()} is the original's price afterwards and {@link #lastRemaining()} the new order's shares.
     *
     * @return {@link #OK}, {@link #UNKNOWN_ORDER}, {@link #DUPLICATE_ORDER}, {@link #INVALID_VALUE} or
     * {@link #LEVEL_CAPACITY_EXCEEDED} (then the original is gone and the new order could not be placed).
     */
    public int replace(final long originalReference, final long newReference, final long shares, final long price)
    {
        clearLast();
        final int order = orders.find(originalReference);
        if (order == OrderPool.NONE)
        {
            unknownOrderCount++;
            return UNKNOWN_ORDER;
        }
        describe(order);
        if (isNotU32(shares) || isNotU32(price))
        {
            invalidInputCount++;
            return INVALID_VALUE;
        }
        if (newReference != originalReference && orders.find(newReference) != OrderPool.NONE)
        {
            duplicateOrderCount++;
            return DUPLICATE_ORDER;
        }
        lastSharesRemoved = orders.shares(order);
        remove(order);
        return insert(lastInstrument, lastSide, newReference, shares, price);
    }

    /**
     * Whether operations record the levels they touch ({@link #touchedCount()} and the rest), which a depth
     * publisher needs; off by default, as it costs a little on every operation.
     */
    public OrderBooks recordTouchedLevels(final boolean record)
    {
        recordTouched = record;
        touchedCount = 0;
        return this;
    }

    /**
     * @return price levels of {@link #lastSide()} the last operation changed (0 to {@link #MAX_TOUCHED}): created,
     * joined, reduced or emptied. A replace at one price counts that price once. With the other {@code touched*}
     * methods this is what a depth publisher needs to say which levels of the top D moved, without comparing them.
     */
    public int touchedCount()
    {
        return touchedCount;
    }

    /** @return price of a touched level. */
    public long touchedPrice(final int index)
    {
        return touchedPrice[index];
    }

    /** @return the touched price's level now, or {@link #NONE} when the price has left the book. */
    public int touchedLevel(final int index)
    {
        return touchedLevel[index];
    }

    /** @return whether the touched price had a level before the operation. */
    public boolean touchedExisted(final int index)
    {
        return touchedExisted[index];
    }

    /** @return the depth the touched price's level had when it left the book (meaningful when it left). */
    public int touchedRemovalDepth(final int index)
    {
        return touchedRemovalDepth[index];
    }

    /** @return shares at the touched price before the operation, 0 when it had no level. */
    public long touchedSizeBefore(final int index)
    {
        return touchedSizeBefore[index];
    }

    /** @return orders at the touched price before the operation, 0 when it had no level. */
    public int touchedOrdersBefore(final int index)
    {
        return touchedOrdersBefore[index];
    }

    /**
     * Starts bringing the record of an order into the cache ahead of an operation on it; see
     * {@link io.mdgate.core.feed.MessageProcessor#prefetch}. Changes nothing.
     *
     * @return a value derived from the record, for the caller to keep so the read is not optimised away.
     */
    public long prefetch(final long reference)
    {
        return orders.touch(reference);
    }

    /**
     * {@link #prefetch(long)} for the first {@code count} references of an array, all reads issued back to back.
     *
     * @return a value derived from the records, for the caller to keep.
     */
    public long prefetch(final long[] references, final int count)
    {
        return orders.touch(references, count);
    }

    /**
     * Second step of a prefetch: reads the level record of the order with that reference, if its window record
     * holds it (an order in an overflow record is skipped). Changes nothing.
     *
     * @return a value derived from the level, for the caller to keep.
     */
    public long prefetchLevel(final long reference)
    {
        final int level = orders.windowLevel(reference);
        return level >= 0 && level < levels.capacity() ? levels.price(level) : 0;
    }

    /**
     * Second step of a prefetch for an add: reads the best entry of the side ({@code instrument * 2 + side}) the add
     * will search. Changes nothing.
     *
     * @return a value derived from the entry, for the caller to keep.
     */
    public long prefetchSide(final int book)
    {
        return book < maxInstruments * 2 ? ladders.bestPrice(book) : 0;
    }

    /** Empties every book and the instrument directory, e.g. for a new session. Not for the hot path. */
    public void clear()
    {
        orders.clear();
        ladders.clear();
        Arrays.fill(instrumentOrders, 0);
        instruments.clear();
        clearLast();
    }

    /** @return instrument of the order the last operation touched, or {@link #NONE}. */
    public int lastInstrument()
    {
        return lastInstrument;
    }

    /** @return {@link BookSide} of the order the last operation touched, or {@link #NONE}. */
    public int lastSide()
    {
        return lastSide;
    }

    /** @return price the touched order had before the operation (its own price for an add), or {@link #NO_PRICE}. */
    public long lastPrice()
    {
        return lastPrice;
    }

    /** @return shares the last operation took off the book: executed or cancelled after clamping, deleted, replaced. */
    public long lastSharesRemoved()
    {
        return lastSharesRemoved;
    }

    /**
     * @return whether the last operation changed the best level of {@link #lastSide()}: an order joined, left or
     * was reduced at the best price, or a level became or stopped being the best. When false, that side's best
     * price, size and order count are what they were before the operation, so a top-of-book check can stop here.
     */
    public boolean lastTouchedBest()
    {
        return lastTouchedBest;
    }

    /** @return shares left on the touched order after the operation (the new order's for a replace), 0 if it left. */
    public long lastRemaining()
    {
        return lastRemaining;
    }

    /** @return best price on that side, or {@link #NO_PRICE} when the side is empty. */
    public long bestPrice(final int instrument, final int side)
    {
        final int book = book(instrument, side);
        return book == NONE ? NO_PRICE : ladders.bestPrice(book);
    }

    /** @return total shares at the best price on that side, 0 when empty. */
    public long bestSize(final int instrument, final int side)
    {
        final int level = bestLevel(instrument, side);
        return level == NONE ? 0 : levels.size(level);
    }

    /** @return orders at the best price on that side, 0 when empty. */
    public int bestOrderCount(final int instrument, final int side)
    {
        final int level = bestLevel(instrument, side);
        return level == NONE ? 0 : levels.orderCount(level);
    }

    /** @return true when both sides are non-empty and the best bid is at or above the best offer. */
    public boolean isCrossed(final int instrument)
    {
        if (instrument < 0 || instrument >= maxInstruments)
        {
            return false;
        }
        final long bid = ladders.bestPrice(instrument << 1);
        final long ask = ladders.bestPrice((instrument << 1) | BookSide.ASK);
        return bid != NO_PRICE && ask != NO_PRICE && bid >= ask;
    }

    /** @return number of price levels on that side. */
    public int levelCount(final int instrument, final int side)
    {
        final int book = book(instrument, side);
        return book == NONE ? 0 : ladders.count(book);
    }

    /** @return price of the level at that depth (0 is best), or {@link #NO_PRICE}. */
    public long depthPrice(final int instrument, final int side, final int depth)
    {
        final int level = levelAt(instrument, side, depth);
        return level == NONE ? NO_PRICE : levels.price(level);
    }

    /** @return total shares of the level at that depth, 0 when there is none. */
    public long depthSize(final int instrument, final int side, final int depth)
    {
        final int level = levelAt(instrument, side, depth);
        return level == NONE ? 0 : levels.size(level);
    }

    /** @return orders in the level at that depth, 0 when there is none. */
    public int depthOrderCount(final int instrument, final int side, final int depth)
    {
        final int level = levelAt(instrument, side, depth);
        return level == NONE ? 0 : levels.orderCount(level);
    }

    /** @return handle of the best level on that side, or {@link #NONE}. */
    public int bestLevel(final int instrument, final int side)
    {
        final int book = book(instrument, side);
        return book == NONE ? NONE : ladders.best(book);
    }

    /**
     * @return handle of the level at that depth on that side (0 is the best), or {@link #NONE}; one array read,
     * so a depth view iterates {@code 0 .. levelCount - 1}.
     */
    public int levelAt(final int instrument, final int side, final int depth)
    {
        final int book = book(instrument, side);
        return book == NONE ? NONE : ladders.levelAt(book, depth);
    }

    /** @return depth of a live level on its side, 0 for the best. */
    public int depthOfLevel(final int level)
    {
        return ladders.depthOf(level);
    }

    public long priceOfLevel(final int level)
    {
        return levels.price(level);
    }

    public long sizeOfLevel(final int level)
    {
        return levels.size(level);
    }

    public int orderCountOfLevel(final int level)
    {
        return levels.orderCount(level);
    }

    /**
     * Fills {@code queue} with the level's orders in time priority, oldest first. A scan of every order record: for
     * snapshots, tools and tests, not the hot path.
     *
     * @return how many orders the level has; only the first {@code queue.length} are written.
     */
    public int queueOfLevel(final int level, final int[] queue)
    {
        int count = 0;
        for (int order = orders.nextLive(-1); order != NONE; order = orders.nextLive(order))
        {
            if (orders.level(order) == level)
            {
                if (count < queue.length)
                {
                    int at = count;
                    final long arrival = orders.arrival(order);
                    while (at > 0 && orders.arrival(queue[at - 1]) > arrival)
                    {
                        queue[at] = queue[at - 1];
                        at--;
                    }
                    queue[at] = order;
                }
                count++;
            }
        }
        return count;
    }

    /** @return the live order after {@code order} in handle order (start with {@link #NONE}), or {@link #NONE}. */
    public int nextLiveOrder(final int order)
    {
        return orders.nextLive(order);
    }

    /** @return the level a live order rests at. */
    public int levelOfOrder(final int order)
    {
        return orders.level(order);
    }

    public long referenceOfOrder(final int order)
    {
        return orders.reference(order);
    }

    public long sharesOfOrder(final int order)
    {
        return orders.shares(order);
    }

    /** @return handle of the live order with that reference, or {@link #NONE}. */
    public int order(final long reference)
    {
        return orders.find(reference);
    }

    public long priceOfOrder(final int order)
    {
        return levels.price(orders.level(order));
    }

    public int sideOfOrder(final int order)
    {
        return levels.book(orders.level(order)) & 1;
    }

    public int instrumentOfOrder(final int order)
    {
        return levels.book(orders.level(order)) >> 1;
    }

    /** @return live orders across all instruments. */
    public int orderCount()
    {
        return orders.used();
    }

    /** @return live orders of one instrument. */
    public int orderCount(final int instrument)
    {
        return instruments.contains(instrument) ? instrumentOrders[instrument] : 0;
    }

    /** @return non-empty price levels across all instruments and sides. */
    public int levelCount()
    {
        return levels.used();
    }

    public int maxOrders()
    {
        return orders.capacity();
    }

    public int maxLevels()
    {
        return levels.capacity();
    }

    public int maxInstruments()
    {
        return maxInstruments;
    }

    public long unknownOrderCount()
    {
        return unknownOrderCount;
    }

    public long duplicateOrderCount()
    {
        return duplicateOrderCount;
    }

    /** @return executions and cancels that asked for more shares than the order had. */
    public long clampedCount()
    {
        return clampedCount;
    }

    public long orderCapacityExceededCount()
    {
        return orderCapacityExceededCount;
    }

    public long levelCapacityExceededCount()
    {
        return levelCapacityExceededCount;
    }

    public long instrumentOutOfRangeCount()
    {
        return instrumentOutOfRangeCount;
    }

    /**
     * @return live orders kept in overflow records because an order a multiple of the reference window older held
     * their window record; a steady rise says the window is narrower than the spread of live references.
     */
    public int displacedOrderCount()
    {
        return orders.displaced();
    }

    /** @return adds and replaces refused for a bad side, price or share count. */
    public long invalidInputCount()
    {
        return invalidInputCount;
    }

    private int reduce(final long reference, final long shares)
    {
        clearLast();
        final int order = orders.find(reference);
        if (order == OrderPool.NONE)
        {
            unknownOrderCount++;
            return UNKNOWN_ORDER;
        }
        describe(order);
        final long remaining = orders.shares(order);
        if (shares < 0 || shares >= remaining)
        {
            lastSharesRemoved = remaining;
            remove(order);
            if (shares != remaining)
            {
                clampedCount++;
                return CLAMPED;
            }
            return OK;
        }
        final int level = orders.level(order);
        if (recordTouched)
        {
            touch(levels.price(level), level, true);
        }
        lastTouchedBest = ladders.best(levels.book(level)) == level;
        orders.shares(order, remaining - shares);
        levels.addSize(level, -shares);
        lastSharesRemoved = shares;
        lastRemaining = remaining - shares;
        return OK;
    }

    private int insert(final int instrument, final int side, final long reference, final long shares, final long price)
    {
        final int order = orders.claim(reference);
        if (order == OrderPool.NONE)
        {
            orderCapacityExceededCount++;
            return ORDER_CAPACITY_EXCEEDED;
        }
        final int level = ladders.findOrCreate((instrument << 1) | side, price);
        if (level == LevelPool.NONE)
        {
            orders.release(order, reference);
            levelCapacityExceededCount++;
            return LEVEL_CAPACITY_EXCEEDED;
        }
        if (recordTouched)
        {
            touch(price, level, !ladders.created());
        }
        lastTouchedBest |= ladders.depth() == 0;
        orders.place(order, reference, level, shares, arrivals++);
        levels.join(level, shares);
        instrumentOrders[instrument]++;
        lastRemaining = shares;
        return OK;
    }

    private void remove(final int order)
    {
        final int level = orders.level(order);
        instrumentOrders[levels.book(level) >> 1]--;
        final long shares = orders.shares(order);
        final int touched = recordTouched ? touch(levels.price(level), level, true) : -1;
        orders.release(order, orders.reference(order));
        if (levels.leave(level, shares) == 0)
        {
            ladders.remove(level);
            lastTouchedBest = ladders.depth() == 0;
            if (touched >= 0)
            {
                touchedLevel[touched] = NONE;
                touchedRemovalDepth[touched] = ladders.depth();
            }
        }
        else
        {
            lastTouchedBest = ladders.best(levels.book(level)) == level;
        }
    }

    private int book(final int instrument, final int side)
    {
        if (instrument < 0 || instrument >= maxInstruments || (side != BookSide.BID && side != BookSide.ASK))
        {
            return NONE;
        }
        return (instrument << 1) | side;
    }

    private void describe(final int order)
    {
        final int level = orders.level(order);
        final int book = levels.book(level);
        lastInstrument = book >> 1;
        lastSide = book & 1;
        lastPrice = levels.price(level);
        instruments.recordActivity(lastInstrument);
    }

    /**
     * Records that the operation changes the level at {@code price} (before it changes): the first touch of a price
     * keeps its state before the operation, a later one (a replace back to the same price) only its level now.
     *
     * @return the index of the price among the touched ones.
     */
    private int touch(final long price, final int level, final boolean existed)
    {
        for (int i = 0; i < touchedCount; i++)
        {
            if (touchedPrice[i] == price)
            {
                touchedLevel[i] = level;
                return i;
            }
        }
        final int i = touchedCount++;
        touchedPrice[i] = price;
        touchedLevel[i] = level;
        touchedExisted[i] = existed;
        touchedSizeBefore[i] = existed ? levels.size(level) : 0;
        touchedOrdersBefore[i] = existed ? levels.orderCount(level) : 0;
        return i;
    }

    private void clearLast()
    {
        touchedCount = 0;
        lastInstrument = NONE;
        lastSide = NONE;
        lastPrice = NO_PRICE;
        lastSharesRemoved = 0;
        lastRemaining = 0;
        lastTouchedBest = false;
    }

    private static boolean isNotU32(final long value)
    {
        return value < 0 || value > U32;
    }
}
