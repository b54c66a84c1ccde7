package io.mdgate.core.book;

import java.util.Arrays;

/**
 * The order records of {@link OrderBooks}, found by ITCH order reference without hashing. References are
 * day-unique and handed out in increasing order, so the live ones cluster in a moving range: a reference's low bits
 * pick its record directly in a window of {@code window} records ({@code reference & (window - 1)}), and the
 * record holds the full reference to confirm it. Finding an order is one read of the record that is then updated.
 * <p>
 * An order whose window record is taken by an older live order (one a multiple of the window before it) gets a
 * record from an overflow area instead, found through a map, and the window record counts it: a lookup asks the map
 * only when the record it lands on has displaced orders, so a new reference whose record is free and counts none is
 * known to be absent at once.
 * <p>
 * Orders are not linked to each other: taking one off the book touches its own record and its level, never a
 * neighbour's (on a book bigger than the cache each neighbour would be one more miss). Time priority is kept as an
 * arrival number per order instead, which a caller that wants a level's queue sorts by.
 * <p>
 * Each record is 32 bytes of one {@code long[]} (index {@code order * 4 + 2}): {@code [0]} reference; {@code [1]}
 * level in the high 32 bits, shares (u32) in the low 32; {@code [2]} arrival number (the next free overflow record
 * while free); {@code [3]} bit 63 set while the record holds an order, and for a window record the orders it
 * displaced in the low 32 bits. At most {@code maxOrders} orders are live at once. Allocation-free after
 * construction. Not thread-safe.
 */
final class OrderPool
{
    static final int NONE = -1;

    private static final long LOW = 0xFFFF_FFFFL;
    /**
     * Longs before the first record: an array's data starts 16 bytes into the object, and a large array (a G1
     * humongous object) starts on a region boundary, so 2 longs put every 32-byte record inside one cache line
     * instead of every other one straddling two.
     */
    private static final int PAD = 2;
    private static final long OCCUPIED = Long.MIN_VALUE;

    private final long[] records;
    private final int window;
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
        this.mask = window - 1;
        this.maxOrders = maxOrders;
        records = new long[((window + maxOrders) << 2) + PAD];
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
        return records[at((int)reference & mask)];
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
            sum += records[at((int)references[i] & mask)];
        }
        return sum;
    }

    /** @return the level field of the reference's window record, whoever holds it (a prefetch hint only). */
    int windowLevel(final long reference)
    {
        return (int)(records[at((int)reference & mask) + 1] >> 32);
    }

    /** @return the live order with that reference, or {@link #NONE}. */
    int find(final long reference)
    {
        final int order = (int)reference & mask;
        final int at = at(order);
        final long state = records[at + 3];
        if (state < 0 && records[at] == reference)
        {
            return order;
        }
        if ((state & LOW) == 0)
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
        final int at = at(slot) + 3;
        if (records[at] >= 0)
        {
            records[at] |= OCCUPIED;
            return slot;
        }
        final int order = freeOverflow;
        freeOverflow = (int)records[at(order) + 2];
        records[at(order) + 3] = OCCUPIED;
        overflow.insert(reference, order);
        records[at]++;
        return order;
    }

    /** Gives back the record of a live order (or of a claim that was not placed) with that reference. */
    void release(final int order, final long reference)
    {
        used--;
        if (order < window)
        {
            records[at(order) + 3] &= ~OCCUPIED;
            return;
        }
        overflow.remove(reference);
        records[at((int)reference & mask) + 3]--;
        records[at(order) + 2] = freeOverflow & LOW;
        records[at(order) + 3] = 0;
        freeOverflow = order;
    }

    /** Fills a claimed record. */
    void place(final int order, final long reference, final int level, final long shares, final long arrival)
    {
        final int at = at(order);
        records[at] = reference;
        records[at + 1] = (long)level << 32 | (shares & LOW);
        records[at + 2] = arrival;
    }

    long reference(final int order)
    {
        return records[at(order)];
    }

    int level(final int order)
    {
        return (int)(records[at(order) + 1] >> 32);
    }

    long shares(final int order)
    {
        return records[at(order) + 1] & LOW;
    }

    void shares(final int order, final long shares)
    {
        final int at = at(order) + 1;
        records[at] = (records[at] & ~LOW) | (shares & LOW);
    }

    /** @return the order's arrival number: a later order at the same level has a bigger one. */
    long arrival(final int order)
    {
        return records[at(order) + 2];
    }

    /** @return the first live order after {@code order} in record order (start with -1), or {@link #NONE}. */
    int nextLive(final int order)
    {
        final int end = window + maxOrders;
        for (int next = order + 1; next < end; next++)
        {
            if (records[at(next) + 3] < 0)
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
        for (int i = 0; i < maxOrders; i++)
        {
            final int order = window + i;
            records[at(order) + 2] = (i + 1 < maxOrders ? order + 1 : NONE) & LOW;
        }
        freeOverflow = maxOrders > 0 ? window : NONE;
        overflow.clear();
        used = 0;
    }

    private static int at(final int record)
    {
        return (record << 2) + PAD;
    }
}
