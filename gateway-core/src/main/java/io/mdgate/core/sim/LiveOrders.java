package io.mdgate.core.sim;

import java.util.Arrays;

/**
 * The generator's own view of every live order: preallocated parallel arrays indexed by slot, removed by
 * swapping the last slot into the hole, and threaded through per-level FIFO queues (circular doubly linked
 * lists) so the oldest order at an instrument's best bid or offer can be found at once, with the best levels
 * kept per instrument and side. Slots move on removal: hold a slot only until the next removal.
 * Allocation-free after construction. Not thread-safe.
 */
final class LiveOrders
{
    static final int BUY = 0;
    static final int SELL = 1;
    static final int NONE = -1;

    private final int levels;
    private final int capacity;
    private final long[] reference;
    private final int[] shares;
    private final int[] level;
    private final int[] instrument;
    private final byte[] side;
    private final int[] next;
    private final int[] prev;
    private final int[] levelHead;
    private final int[] best;
    private int size;

    LiveOrders(final int instruments, final int levels, final int capacity)
    {
        this.levels = levels;
        this.capacity = capacity;
        reference = new long[capacity];
        shares = new int[capacity];
        level = new int[capacity];
        instrument = new int[capacity];
        side = new byte[capacity];
        next = new int[capacity];
        prev = new int[capacity];
        levelHead = new int[instruments * 2 * levels];
        best = new int[instruments * 2];
        Arrays.fill(levelHead, NONE);
        Arrays.fill(best, NONE);
    }

    int size()
    {
        return size;
    }

    boolean isFull()
    {
        return size == capacity;
    }

    long reference(final int slot)
    {
        return reference[slot];
    }

    int shares(final int slot)
    {
        return shares[slot];
    }

    int level(final int slot)
    {
        return level[slot];
    }

    int instrument(final int slot)
    {
        return instrument[slot];
    }

    int side(final int slot)
    {
        return side[slot];
    }

    /** @return the best level of an instrument's side (highest bid, lowest offer), or {@link #NONE}. */
    int best(final int instrumentIndex, final int sideIndex)
    {
        return best[instrumentIndex * 2 + sideIndex];
    }

    /** @return the oldest order at an instrument's best level on a side, or {@link #NONE}. */
    int oldestAtBest(final int instrumentIndex, final int sideIndex)
    {
        final int bestLevel = best(instrumentIndex, sideIndex);
        return bestLevel == NONE ? NONE : levelHead[(instrumentIndex * 2 + sideIndex) * levels + bestLevel];
    }

    /** Adds an order at the back of its level's queue; the caller checks {@link #isFull()} first. */
    void add(final long ref, final int instrumentIndex, final int sideIndex, final int priceLevel, final int qty)
    {
        final int slot = size++;
        reference[slot] = ref;
        instrument[slot] = instrumentIndex;
        side[slot] = (byte)sideIndex;
        level[slot] = priceLevel;
        shares[slot] = qty;
        link(slot);
    }

    /** Takes shares off an order that keeps some. */
    void reduce(final int slot, final int qty)
    {
        shares[slot] -= qty;
    }

    /** Gives an order a new reference, level and size at the back of the new level's queue (a replace). */
    void replace(final int slot, final long newRef, final int newLevel, final int newShares)
    {
        unlink(slot);
        reference[slot] = newRef;
        level[slot] = newLevel;
        shares[slot] = newShares;
        link(slot);
    }

    /** Removes an order; the last slot moves into its place. */
    void remove(final int slot)
    {
        unlink(slot);
        final int last = --size;
        if (slot != last)
        {
            move(last, slot);
        }
    }

    private int key(final int slot)
    {
        return (instrument[slot] * 2 + side[slot]) * levels + level[slot];
    }

    private void link(final int slot)
    {
        final int key = key(slot);
        final int head = levelHead[key];
        if (head == NONE)
        {
            levelHead[key] = slot;
            next[slot] = slot;
            prev[slot] = slot;
            final int bestKey = instrument[slot] * 2 + side[slot];
            final int current = best[bestKey];
            if (current == NONE || (side[slot] == BUY ? level[slot] > current : level[slot] < current))
            {
                best[bestKey] = level[slot];
            }
        }
        else
        {
            final int tail = prev[head];
            next[tail] = slot;
            prev[slot] = tail;
            next[slot] = head;
            prev[head] = slot;
        }
    }

    private void unlink(final int slot)
    {
        final int key = key(slot);
        if (next[slot] == slot)
        {
            levelHead[key] = NONE;
            final int bestKey = instrument[slot] * 2 + side[slot];
            if (best[bestKey] == level[slot])
            {
                best[bestKey] = nextBest(bestKey, level[slot]);
            }
        }
        else
        {
            next[prev[slot]] = next[slot];
            prev[next[slot]] = prev[slot];
            if (levelHead[key] == slot)
            {
                levelHead[key] = next[slot];
            }
        }
    }

    private int nextBest(final int bestKey, final int emptied)
    {
        final int base = bestKey * levels;
        final int step = (bestKey & 1) == BUY ? -1 : 1;
        for (int l = emptied + step; l >= 0 && l < levels; l += step)
        {
            if (levelHead[base + l] != NONE)
            {
                return l;
            }
        }
        return NONE;
    }

    private void move(final int from, final int to)
    {
        reference[to] = reference[from];
        shares[to] = shares[from];
        level[to] = level[from];
        instrument[to] = instrument[from];
        side[to] = side[from];
        final int key = key(to);
        if (next[from] == from)
        {
            next[to] = to;
            prev[to] = to;
        }
        else
        {
            next[to] = next[from];
            prev[to] = prev[from];
            prev[next[from]] = to;
            next[prev[from]] = to;
        }
        if (levelHead[key] == from)
        {
            levelHead[key] = to;
        }
    }
}
