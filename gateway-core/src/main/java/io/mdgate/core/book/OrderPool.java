package io.mdgate.core.book;

import java.util.Arrays;

/**
 * The order records of {@link OrderBooks} as struct-of-arrays, one index per order, with a free list threaded
 * through {@link #next}. A live order is linked into its level's FIFO through {@link #prev} and {@link #next}.
 * Shares are u32 held in an {@code int}. Allocation-free after construction. Not thread-safe.
 */
final class OrderPool
{
    static final int NONE = -1;

    final long[] reference;
    final int[] shares;
    final int[] level;
    final int[] prev;
    final int[] next;

    private int freeHead;
    private int used;

    OrderPool(final int capacity)
    {
        reference = new long[capacity];
        shares = new int[capacity];
        level = new int[capacity];
        prev = new int[capacity];
        next = new int[capacity];
        clear();
    }

    /** @return a free order index, or {@link #NONE} when every record is in use. */
    int allocate()
    {
        final int index = freeHead;
        if (index != NONE)
        {
            freeHead = next[index];
            used++;
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
        return reference.length;
    }

    void clear()
    {
        final int capacity = reference.length;
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
