package io.mdgate.core.book;

import java.util.Arrays;

/**
 * A fixed-capacity open-addressing map from any {@code long} key to a non-negative {@code int} value, sized once
 * for a maximum number of entries and never resized. Linear probing over a power-of-two table at most half full;
 * removal shifts the following entries back instead of leaving tombstones, so probe lengths do not degrade over a
 * long session. Allocation-free after construction. Not thread-safe.
 */
final class LongIntMap
{
    /** Returned by {@link #get(long)} and {@link #remove(long)} when the key is absent. */
    static final int MISSING = -1;

    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
    private static final int FREE = -1;

    private final long[] keys;
    private final int[] values;
    private final int mask;
    private final int shift;
    private final int maxSize;
    private int size;

    /**
     * @param maxSize the most entries the map will hold, at least 1 and at most 2^29.
     */
    LongIntMap(final int maxSize)
    {
        if (maxSize < 1 || maxSize > (1 << 29))
        {
            throw new IllegalArgumentException("maxSize must be between 1 and " + (1 << 29) + ", was " + maxSize);
        }
        final int capacity = Math.max(2, Integer.highestOneBit(maxSize * 2 - 1) << 1);
        this.keys = new long[capacity];
        this.values = new int[capacity];
        Arrays.fill(values, FREE);
        this.mask = capacity - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(capacity);
        this.maxSize = maxSize;
    }

    int size()
    {
        return size;
    }

    int maxSize()
    {
        return maxSize;
    }

    /** @return the value for the key or {@link #MISSING}. */
    int get(final long key)
    {
        int slot = slot(key);
        int value;
        while ((value = values[slot]) != FREE)
        {
            if (keys[slot] == key)
            {
                return value;
            }
            slot = (slot + 1) & mask;
        }
        return MISSING;
    }

    /**
     * Inserts a key that must not be present yet.
     *
     * @param key   absent from the map.
     * @param value non-negative.
     * @return false when the map already holds {@code maxSize} entries.
     */
    boolean insert(final long key, final int value)
    {
        if (size >= maxSize)
        {
            return false;
        }
        int slot = slot(key);
        while (values[slot] != FREE)
        {
            slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        values[slot] = value;
        size++;
        return true;
    }

    /** @return the value the key had, or {@link #MISSING} when it was absent. */
    int remove(final long key)
    {
        int slot = slot(key);
        int value;
        while ((value = values[slot]) != FREE)
        {
            if (keys[slot] == key)
            {
                closeGap(slot);
                size--;
                return value;
            }
            slot = (slot + 1) & mask;
        }
        return MISSING;
    }

    void clear()
    {
        Arrays.fill(values, FREE);
        size = 0;
    }

    /** Moves back every entry of the probe run after the hole that may live there, then frees the last hole. */
    private void closeGap(final int removedSlot)
    {
        int hole = removedSlot;
        int next = (hole + 1) & mask;
        while (values[next] != FREE)
        {
            final int home = slot(keys[next]);
            if (((next - home) & mask) >= ((next - hole) & mask))
            {
                keys[hole] = keys[next];
                values[hole] = values[next];
                hole = next;
            }
            next = (next + 1) & mask;
        }
        values[hole] = FREE;
    }

    private int slot(final long key)
    {
        return (int)((key * GOLDEN) >>> shift);
    }
}
