package io.mdgate.core.book;

/**
 * The price-level records of {@link OrderBooks}: one 32-byte record per level in a single {@code long[]}, holding
 * everything an order event reads or updates (price, book, aggregate size, order count) together. Which levels a
 * side has, and in what order, is kept by {@link PriceLadders}. Free records form a stack threaded through the
 * last field.
 * <p>
 * Layout per record (index {@code level * 4 + 2}): {@code [0]} price; {@code [1]} aggregate shares; {@code [2]} book
 * ({@code instrument * 2 + side}) in the high 32 bits, order count in the low 32; {@code [3]} the next free level
 * while free. Allocation-free after construction. Not thread-safe.
 */
final class LevelPool
{
    static final int NONE = -1;

    private static final long LOW = 0xFFFF_FFFFL;
    /**
     * Longs before the first record: an array's data starts 16 bytes into the object, and a large array (a G1
     * humongous object) starts on a region boundary, so 2 longs put every 32-byte record inside one cache line
     * instead of every other one straddling two.
     */
    private static final int PAD = 2;

    private final long[] records;
    private final int capacity;
    private int freeHead;
    private int used;

    LevelPool(final int capacity)
    {
        this.capacity = capacity;
        records = new long[at(capacity) + PAD];
        clear();
    }

    /**
     * @param price of the new level.
     * @param book  {@code instrument * 2 + side}.
     * @return an empty level with no orders, or {@link #NONE} when every record is in use.
     */
    int allocate(final long price, final int book)
    {
        final int level = freeHead;
        if (level != NONE)
        {
            final int at = at(level);
            freeHead = (int)records[at + 3];
            used++;
            records[at] = price;
            records[at + 1] = 0;
            records[at + 2] = (long)book << 32;
        }
        return level;
    }

    void free(final int level)
    {
        records[at(level) + 3] = freeHead & LOW;
        freeHead = level;
        used--;
    }

    long price(final int level)
    {
        return records[at(level)];
    }

    long size(final int level)
    {
        return records[at(level) + 1];
    }

    void addSize(final int level, final long delta)
    {
        records[at(level) + 1] += delta;
    }

    int book(final int level)
    {
        return (int)(records[at(level) + 2] >> 32);
    }

    int orderCount(final int level)
    {
        return (int)records[at(level) + 2];
    }

    /** Counts one more order of {@code shares} at the level. */
    void join(final int level, final long shares)
    {
        final int at = at(level);
        records[at + 1] += shares;
        records[at + 2]++;
    }

    /** @return the orders left after taking one of {@code shares} off. */
    int leave(final int level, final long shares)
    {
        final int at = at(level);
        records[at + 1] -= shares;
        return (int)--records[at + 2];
    }

    int used()
    {
        return used;
    }

    int capacity()
    {
        return capacity;
    }

    void clear()
    {
        for (int i = 0; i < capacity; i++)
        {
            records[at(i) + 3] = (i + 1 < capacity ? i + 1 : NONE) & LOW;
        }
        freeHead = 0;
        used = 0;
    }

    private static int at(final int record)
    {
        return (record << 2) + PAD;
    }
}
