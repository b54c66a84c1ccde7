package io.mdgate.core.book;

import java.util.Arrays;

/**
 * The price levels of every book side ("book" = {@code instrument * 2 + side}), each side a sorted array with the
 * best price at its end: the best level is one read, and a new order's level, nearly always close to the touch, is
 * found by stepping back a few entries from the end ({@link #SCAN_STEPS}, then a binary search for a level deep in
 * the book). An entry packs the level's sort key (the price for bids, its complement for asks, so every side sorts
 * ascending towards its best) above the level's record number, so the search reads only the array, in order.
 * Adding or removing a level near the touch moves the few entries after it.
 * <p>
 * The arrays are chunks of one arena, sized in powers of two from {@link #MIN_CHUNK}; a full side moves to a chunk
 * twice its size, and an empty side gives its chunk back to a free list for that size. If the arena has no chunk
 * of the size needed, every side is copied once into a second arena of the same size, packed tightly, and the two
 * swap: the arena holds four entries per level, which packing always fits. Allocation-free after construction.
 * Not thread-safe.
 */
final class PriceLadders
{
    static final int NONE = LevelPool.NONE;

    /** Entries stepped back from the best before a binary search. */
    static final int SCAN_STEPS = 8;
    static final int MIN_CHUNK = 4;

    private static final long LOW = 0xFFFF_FFFFL;
    private static final int START = 0;
    private static final int COUNT = 1;
    private static final int CAPACITY = 2;
    /** The best level's record, kept beside the count so the best is one read, not one after another. */
    private static final int BEST = 3;
    private static final int META_STRIDE = 4;

    final LevelPool levels;

    private final int[] meta;
    private final int[] freeChunks = new int[32];
    private long[] arena;
    private long[] spare;
    private int bump;
    private int searchDepth;
    private boolean created;

    PriceLadders(final int maxLevels, final int books)
    {
        levels = new LevelPool(maxLevels);
        meta = new int[books * META_STRIDE];
        final int arenaLength = (int)Math.min(Integer.MAX_VALUE - 8, Math.max(4L * maxLevels, 2L * MIN_CHUNK));
        arena = new long[arenaLength];
        spare = new long[arenaLength];
        clear();
    }

    /**
     * @return the level of that price in that book, created and put in place if absent; {@link #NONE} when every
     * level record is in use. {@link #depth()} is its depth afterwards.
     */
    int findOrCreate(final int book, final long price)
    {
        final long key = key(book, price);
        final int at = book * META_STRIDE;
        final int start = meta[at + START];
        final int count = meta[at + COUNT];
        final int position = search(start, count, key);
        if (position >= start && arena[position] >>> 32 == key)
        {
            searchDepth = start + count - 1 - position;
            created = false;
            return (int)arena[position];
        }
        final int level = levels.allocate(price, book);
        if (level == NONE)
        {
            return NONE;
        }
        if (count == meta[at + CAPACITY] && !grow(book))
        {
            levels.free(level);
            return NONE;
        }
        final int newStart = meta[at + START];
        final int insertAt = position + 1 - start + newStart;
        final int end = newStart + count;
        System.arraycopy(arena, insertAt, arena, insertAt + 1, end - insertAt);
        arena[insertAt] = key << 32 | level;
        meta[at + COUNT] = count + 1;
        if (insertAt == end)
        {
            meta[at + BEST] = level;
        }
        searchDepth = end - insertAt;
        created = true;
        return level;
    }

    /**
     * Takes a level with no orders left out of its side and frees its record. {@link #depth()} is the depth it
     * had.
     */
    void remove(final int level)
    {
        final int book = levels.book(level);
        final long key = key(book, levels.price(level));
        final int at = book * META_STRIDE;
        final int start = meta[at + START];
        final int count = meta[at + COUNT];
        final int position = search(start, count, key);
        final int end = start + count;
        searchDepth = end - 1 - position;
        System.arraycopy(arena, position + 1, arena, position, end - 1 - position);
        meta[at + COUNT] = count - 1;
        if (position == end - 1 && count > 1)
        {
            meta[at + BEST] = (int)arena[end - 2];
        }
        if (count == 1)
        {
            releaseChunk(start, meta[at + CAPACITY]);
            meta[at + START] = 0;
            meta[at + CAPACITY] = 0;
        }
        levels.free(level);
    }

    /** @return whether the last {@link #findOrCreate} made a new level. */
    boolean created()
    {
        return created;
    }

    /** @return the depth (0 = best) of the level found, created or removed last. */
    int depth()
    {
        return searchDepth;
    }

    /** @return the depth of a level on the book, 0 for the best. */
    int depthOf(final int level)
    {
        final int book = levels.book(level);
        final int at = book * META_STRIDE;
        final int start = meta[at + START];
        final int count = meta[at + COUNT];
        return start + count - 1 - search(start, count, key(book, levels.price(level)));
    }

    /** @return the best level of the book, or {@link #NONE} when the side is empty. */
    int best(final int book)
    {
        final int at = book * META_STRIDE;
        return meta[at + COUNT] == 0 ? NONE : meta[at + BEST];
    }

    /** @return the best price of the book without reading the level, or {@link OrderBooks#NO_PRICE}. */
    long bestPrice(final int book)
    {
        final int at = book * META_STRIDE;
        final int count = meta[at + COUNT];
        return count == 0 ? OrderBooks.NO_PRICE : price(book, arena[meta[at + START] + count - 1] >>> 32);
    }

    /** @return the level at that depth (0 = best), or {@link #NONE}. */
    int levelAt(final int book, final int depth)
    {
        final int at = book * META_STRIDE;
        final int count = meta[at + COUNT];
        return depth < 0 || depth >= count ? NONE : (int)arena[meta[at + START] + count - 1 - depth];
    }

    int count(final int book)
    {
        return meta[book * META_STRIDE + COUNT];
    }

    void clear()
    {
        levels.clear();
        Arrays.fill(meta, 0);
        Arrays.fill(freeChunks, NONE);
        bump = 0;
    }

    /** @return the last position whose key is at most {@code key}, or {@code start - 1}. */
    private int search(final int start, final int count, final long key)
    {
        final long[] entries = arena;
        int position = start + count - 1;
        final int stop = Math.max(start, position - SCAN_STEPS);
        while (position >= stop && entries[position] >>> 32 > key)
        {
            position--;
        }
        if (position < stop && stop > start)
        {
            int low = start;
            int high = stop - 1;
            while (low <= high)
            {
                final int middle = (low + high) >>> 1;
                if (entries[middle] >>> 32 > key)
                {
                    high = middle - 1;
                }
                else
                {
                    low = middle + 1;
                }
            }
            position = high;
        }
        return position;
    }

    /** Moves a full side to a chunk twice its size, packing the arena first if no chunk is free. */
    private boolean grow(final int book)
    {
        final int at = book * META_STRIDE;
        final int capacity = meta[at + CAPACITY];
        final int size = capacity == 0 ? MIN_CHUNK : capacity << 1;
        final int chunk = allocateChunk(size);
        if (chunk < 0)
        {
            return pack(book);
        }
        final int start = meta[at + START];
        System.arraycopy(arena, start, arena, chunk, meta[at + COUNT]);
        if (capacity > 0)
        {
            releaseChunk(start, capacity);
        }
        meta[at + START] = chunk;
        meta[at + CAPACITY] = size;
        return true;
    }

    private int allocateChunk(final int size)
    {
        final int sizeClass = Integer.numberOfTrailingZeros(size);
        final int free = freeChunks[sizeClass];
        if (free != NONE)
        {
            freeChunks[sizeClass] = (int)arena[free];
            return free;
        }
        if (bump + size <= arena.length)
        {
            final int chunk = bump;
            bump += size;
            return chunk;
        }
        return NONE;
    }

    private void releaseChunk(final int start, final int size)
    {
        final int sizeClass = Integer.numberOfTrailingZeros(size);
        arena[start] = freeChunks[sizeClass] & LOW;
        freeChunks[sizeClass] = start;
    }

    /**
     * Copies every non-empty side into the spare arena in chunks just big enough (one entry more for the side that
     * is growing), then swaps the arenas. Leaves everything as it was when even that does not fit.
     */
    private boolean pack(final int growing)
    {
        final int books = meta.length / META_STRIDE;
        long needed = 0;
        for (int book = 0; book < books; book++)
        {
            needed += packedSize(book, growing);
        }
        if (needed > spare.length)
        {
            return false;
        }
        int next = 0;
        for (int book = 0; book < books; book++)
        {
            final int at = book * META_STRIDE;
            final int size = packedSize(book, growing);
            if (size > 0)
            {
                System.arraycopy(arena, meta[at + START], spare, next, meta[at + COUNT]);
            }
            meta[at + START] = size > 0 ? next : 0;
            meta[at + CAPACITY] = size;
            next += size;
        }
        final long[] packed = spare;
        spare = arena;
        arena = packed;
        bump = next;
        Arrays.fill(freeChunks, NONE);
        return true;
    }

    private int packedSize(final int book, final int growing)
    {
        final int entries = meta[book * META_STRIDE + COUNT] + (book == growing ? 1 : 0);
        return entries == 0 ? 0 : Math.max(MIN_CHUNK, Integer.highestOneBit(entries - 1) << 1);
    }

    private static long key(final int book, final long price)
    {
        return (book & 1) == BookSide.BID ? price : LOW - price;
    }

    private static long price(final int book, final long key)
    {
        return (book & 1) == BookSide.BID ? key : LOW - key;
    }
}
