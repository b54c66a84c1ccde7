package io.mdgate.core.book;

import java.util.Arrays;

/**
 * The order records of {@link OrderBooks}, found by ITCH order reference without hashing. References are
 * day-unique and handed out in increasing order, so the live ones cluster in a moving range: a reference's low bits
 * pick its record directly in a window of {@code window} records ({@code reference & (window - 1)}), and the
 * record holds the rest of the reference to confirm it. Finding an order is one read of the record that is then
 * updated.
 * <p>
 * An order whose window record is taken by an older live order (one a multiple of the window before it), or whose
 * reference is too large for the record's tag, gets a record from an overflow area instead, found through a map, and
 * the window record is marked as having displaced orders: a lookup asks the map only when the record it lands on is
 * so marked, so a new reference whose record is free and unmarked is known to be absent at once.
 * <p>
 * Orders are not linked to each other: taking one off the book touches its own record and its level, never a
 * neighbour's (on a book bigger than the cache each neighbour would be one more miss). Time priority is kept as an
 * arrival number per order instead, in an array of its own that only an add writes and only a level's queue
 * reads, which a caller that wants the queue sorts by.
 * <p>
 * Each record is 16 bytes of one {@code long[]} (index {@code order * 2}), four to a cache line, so the span of
 * live references costs half the cache it did with the arrival number inside the record: {@code [0]} level in the
 * high 32 bits, shares (u32) in the low 32 (the next free overflow record while free); {@code [1]} bit 63 set while
 * the record holds an order, bit 62 set on a window record while it has displaced orders, and in the low
 * {@link #TAG_BITS} bits the reference above the window's bits (a window record). An overflow record's full
 * reference is kept beside it. At most {@code maxOrders} orders are live at once. Allocation-free after
 * construction. Not thread-safe.
 */
final class OrderPool
{
    static final int NONE = -1;

    /** Bits of a window record's reference tag: references below 2^(TAG_BITS + log2(window)) can use the window. */
    static final int TAG_BITS = 48;

    private static final long LOW = 0xFFFF_FFFFL;
    private static final long OCCUPIED = Long.MIN_VALUE;
    private static final long DISPLACED = 1L << 62;
    private static final long TAG = (1L << TAG_BITS) - 1;

    private final long[] records;
    private final long[] arrivals;
    private final long[] overflowReferences;
    private final int[] displacedCounts;
    private final int window;
    private final int windowBits;
    private final int mask;
    private final int maxOrders;
    private final LongIntMap overflow;
    private int freeOverflow;
    private int used;

    /**
     * @param window    records addressed directly by reference, a power of two.
     * @param maxOrders the most live orders, each of which may need an overflow record.
     */
    OrderPool(final int window, final int maxOrders)
    {
        this.window = window;
        this.windowBits = Integer.numberOfTrailingZeros(window);
        this.mask = window - 1;
        this.maxOrders = maxOrders;
        records = new long[(window + maxOrders) << 1];
        arrivals = new long[window + maxOrders];
        overflowReferences = new long[maxOrders];
        displacedCounts = new int[window];
        overflow = new LongIntMap(maxOrders);
        clear();
    }

    /**
     * Reads the window record of a reference without using it, so that it is on its way into the cache while other
     * work goes on: a batch of messages touched first and processed next waits for one memory latency, not one per
     * message.
     *
     * @return the first word of the record, for the caller to fold into a value it keeps (so the read stays).
     */
    long touch(final long reference)
    {
        return records[((int)reference & mask) << 1];
    }

    /**
     * {@link #touch} for the first {@code count} references of an array, in a loop of a few instructions per
     * reference, so that every read is in flight at once rather than as many as fit between the work around them.
     *
     * @return the sum of the records' first words, for the caller to keep.
     */
    long touch(final long[] references, final int count)
    {
        final long[] records = this.records;
        final int mask = this.mask;
        long sum = 0;
        for (int i = 0; i < count; i++)
        {
            sum += records[((int)references[i] & mask) << 1];
        }
        return sum;
    }

    /** @return the level field of the reference's window record, whoever holds it (a prefetch hint only). */
    int windowLevel(final long reference)
    {
        return (int)(records[((int)reference & mask) << 1] >> 32);
    }

    /** @return the live order with that reference, or {@link #NONE}. */
    int find(final long reference)
    {
        final int order = (int)reference & mask;
        final long state = records[(order << 1) + 1];
        if (state < 0 && (state & TAG) == reference >>> windowBits)
        {
            return order;
        }
        if ((state & DISPLACED) == 0)
        {
            return NONE;
        }
        final int displaced = overflow.get(reference);
        return displaced == LongIntMap.MISSING ? NONE : displaced;
    }

    /**
     * Takes a record for a reference that is not live. The record still needs {@link #place}.
     *
     * @return the order, or {@link #NONE} when {@code maxOrders} orders are live.
     */
    int claim(final long reference)
    {
        if (used >= maxOrders)
        {
            return NONE;
        }
        used++;
        final int slot = (int)reference & mask;
        final int at = (slot << 1) + 1;
        final long state = records[at];
        final long tag = reference >>> windowBits;
        if (state >= 0 && tag <= TAG)
        {
            records[at] = OCCUPIED | (state & DISPLACED) | tag;
            return slot;
        }
        final int order = freeOverflow;
        freeOverflow = (int)records[order << 1];
        records[(order << 1) + 1] = OCCUPIED;
        overflowReferences[order - window] = reference;
        overflow.insert(reference, order);
        displacedCounts[slot]++;
        records[at] = state | DISPLACED;
        return order;
    }

    /** Gives back the record of a live order (or of a claim that was not placed) with that reference. */
    void release(final int order, final long reference)
    {
        used--;
        if (order < window)
        {
            records[(order << 1) + 1] &= DISPLACED;
            return;
        }
        overflow.remove(reference);
        final int slot = (int)reference & mask;
        if (--displacedCounts[slot] == 0)
        {
            records[(slot << 1) + 1] &= ~DISPLACED;
        }
        records[order << 1] = freeOverflow & LOW;
        records[(order << 1) + 1] = 0;
        freeOverflow = order;
    }

    /** Fills a claimed record. */
    void place(final int order, final long reference, final int level, final long shares, final long arrival)
    {
        records[order << 1] = (long)level << 32 | (shares & LOW);
        arrivals[order] = arrival;
    }

    long reference(final int order)
    {
        return order < window ?
            (records[(order << 1) + 1] & TAG) << windowBits | order : overflowReferences[order - window];
    }

    int level(final int order)
    {
        return (int)(records[order << 1] >> 32);
    }

    long shares(final int order)
    {
        return records[order << 1] & LOW;
    }

    void shares(final int order, final long shares)
    {
        final int at = order << 1;
        records[at] = (records[at] & ~LOW) | (shares & LOW);
    }

    /** @return the order's arrival number: a later order at the same level has a bigger one. */
    long arrival(final int order)
    {
        return arrivals[order];
    }

    /** @return the first live order after {@code order} in record order (start with -1), or {@link #NONE}. */
    int nextLive(final int order)
    {
        final int end = window + maxOrders;
        for (int next = order + 1; next < end; next++)
        {
            if (records[(next << 1) + 1] < 0)
            {
                return next;
            }
        }
        return NONE;
    }

    int used()
    {
        return used;
    }

    int capacity()
    {
        return maxOrders;
    }

    /** @return live orders held in overflow records because their window record was taken. */
    int displaced()
    {
        return overflow.size();
    }

    void clear()
    {
        Arrays.fill(records, 0);
        Arrays.fill(displacedCounts, 0);
        for (int i = 0; i < maxOrders; i++)
        {
            final int order = window + i;
            records[order << 1] = (i + 1 < maxOrders ? order + 1 : NONE) & LOW;
        }
        freeOverflow = maxOrders > 0 ? window : NONE;
        overflow.clear();
        used = 0;
    }
}
