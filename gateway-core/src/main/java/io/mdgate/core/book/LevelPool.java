package io.mdgate.core.book;

/**
 * The price-level records of {@link OrderBooks}: one 32-byte record per level in a single {@code long[]}, holding
 * everything an order event reads or updates (price, book, aggregate size, order count) together. Which levels a
 * side has, and in what order, is kept by {@link PriceLadders}. Free records form a stack threaded through the
 * last field.
 * <p>
 * Layout per record (index {@code level << 2}): {@code [0]} price; {@code [1]} aggregate shares; {@code [2]} book
 * ({@code instrument * 2 + side}) in the high 32 bits, order count in the low 32; {@code [3]} the next free level
 * while free. Allocation-free after construction. Not thread-safe.
 */
final class LevelPool
{
    static final int NONE = -1;

    private static final long LOW = 0xFFFF_FFFFL;

    private final long[] records;
    private final int capacity;
    private int freeHead;
    private int used;

    LevelPool(final int capacity)
    {
        this.capacity = capacity;
        records = new long[capacity << 2];
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
            final int at = level << 2;
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
        records[(level << 2) + 3] = freeHead & LOW;
        freeHead = level;
        used--;
    }

    long price(final int level)
    {
        return records[level << 2];
    }

    long size(final int level)
    {
        return records[(level << 2) + 1];
    }

    void addSize(final int level, final long delta)
    {
        records[(level << 2) + 1] += delta;
    }

    int book(final int level)
    {
        return (int)(records[(level << 2) + 2] >> 32);
    }

    int orderCount(final int level)
    {
        return (int)records[(level << 2) + 2];
    }

    /** Counts one more order of {@code shares} at the level. */
    void join(final int level, final long shares)
    {
        final int at = level << 2;
        records[at + 1] += shares;
        records[at + 2]++;
    }

    /** @return the orders left after taking one of {@code shares} off. */
    int leave(final int level, final long shares)
    {
        final int at = level << 2;
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
            records[(i << 2) + 3] = (i + 1 < capacity ? i + 1 : NONE) & LOW;
        }
        freeHead = 0;
        used = 0;
    }
}
