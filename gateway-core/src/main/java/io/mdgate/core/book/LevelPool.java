package io.mdgate.core.book;

import java.util.Arrays;

/**
 * The price-level records of {@link OrderBooks} as struct-of-arrays, one index per level, with a free list threaded
 * through {@link #next}. A live level is linked into its side's best-first list through {@link #prev} and
 * {@link #next}, and holds the head and tail of its orders' FIFO. {@link #book} is {@code instrument * 2 + side}.
 * Allocation-free after construction. Not thread-safe.
 */
final class LevelPool
{
    static final int NONE = -1;

    final long[] price;
    final long[] size;
    final int[] orderCount;
    final int[] headOrder;
    final int[] tailOrder;
    final int[] prev;
    final int[] next;
    final int[] book;

    private int freeHead;
    private int used;

    LevelPool(final int capacity)
    {
        price = new long[capacity];
        size = new long[capacity];
        orderCount = new int[capacity];
        headOrder = new int[capacity];
        tailOrder = new int[capacity];
        prev = new int[capacity];
        next = new int[capacity];
        book = new int[capacity];
        clear();
    }

    /**
     * @param levelPrice of the new level.
     * @param levelBook  {@code instrument * 2 + side}.
     * @return an empty, unlinked level, or {@link #NONE} when every record is in use.
     */
    int allocate(final long levelPrice, final int levelBook)
    {
        final int index = freeHead;
        if (index != NONE)
        {
            freeHead = next[index];
            used++;
            price[index] = levelPrice;
            size[index] = 0;
            orderCount[index] = 0;
            headOrder[index] = NONE;
            tailOrder[index] = NONE;
            prev[index] = NONE;
            next[index] = NONE;
            book[index] = levelBook;
        }
        return index;
    }

    void free(final int index)
    {
        next[index] = freeHead;
        freeHead = index;
        used--;
    }

    int used()
    {
        return used;
    }

    int capacity()
    {
        return price.length;
    }

    void clear()
    {
        final int capacity = price.length;
        for (int i = 0; i < capacity; i++)
        {
            next[i] = i + 1;
        }
        next[capacity - 1] = NONE;
        Arrays.fill(prev, NONE);
        freeHead = 0;
        used = 0;
    }
}
