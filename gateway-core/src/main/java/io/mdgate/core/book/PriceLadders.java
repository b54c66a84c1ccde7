package io.mdgate.core.book;

import java.util.Arrays;

/**
 * The price levels of every book side ("book" = {@code instrument * 2 + side}): a doubly linked list per book,
 * best level first, so the best price is O(1) and a new level is linked in O(1) at either end or by a short walk
 * from the top, where most new levels appear. Levels are found by price through a fixed-capacity index keyed by
 * {@code book << 32 | price}. Allocation-free after construction. Not thread-safe.
 */
final class PriceLadders
{
    static final int NONE = LevelPool.NONE;

    final LevelPool levels;

    private final LongIntMap levelIndex;
    private final int[] bestLevel;
    private final int[] worstLevel;
    private final int[] levelCount;

    PriceLadders(final int maxLevels, final int books)
    {
        levels = new LevelPool(maxLevels);
        levelIndex = new LongIntMap(maxLevels);
        bestLevel = new int[books];
        worstLevel = new int[books];
        levelCount = new int[books];
        clear();
    }

    /** @return the level of that price in that book, created and linked if absent; {@link #NONE} when full. */
    int findOrCreate(final int book, final long price)
    {
        final long key = key(book, price);
        final int existing = levelIndex.get(key);
        if (existing != LongIntMap.MISSING)
        {
            return existing;
        }
        final int level = levels.allocate(price, book);
        if (level != NONE)
        {
            levelIndex.insert(key, level);
            link(book, book & 1, level, price);
            levelCount[book]++;
        }
        return level;
    }

    /** Unlinks and frees a level that has no orders left. */
    void remove(final int level)
    {
        final int book = levels.book[level];
        final int prev = levels.prev[level];
        final int next = levels.next[level];
        if (prev == NONE)
        {
            bestLevel[book] = next;
        }
        else
        {
            levels.next[prev] = next;
        }
        if (next == NONE)
        {
            worstLevel[book] = prev;
        }
        else
        {
            levels.prev[next] = prev;
        }
        levelCount[book]--;
        levelIndex.remove(key(book, levels.price[level]));
        levels.free(level);
    }

    int best(final int book)
    {
        return bestLevel[book];
    }

    int count(final int book)
    {
        return levelCount[book];
    }

    void clear()
    {
        levelIndex.clear();
        levels.clear();
        Arrays.fill(bestLevel, NONE);
        Arrays.fill(worstLevel, NONE);
        Arrays.fill(levelCount, 0);
    }

    private void link(final int book, final int side, final int level, final long price)
    {
        final int best = bestLevel[book];
        if (best == NONE)
        {
            bestLevel[book] = level;
            worstLevel[book] = level;
            return;
        }
        if (BookSide.isBetter(side, price, levels.price[best]))
        {
            levels.next[level] = best;
            levels.prev[best] = level;
            bestLevel[book] = level;
            return;
        }
        final int worst = worstLevel[book];
        if (BookSide.isBetter(side, levels.price[worst], price))
        {
            levels.prev[level] = worst;
            levels.next[worst] = level;
            worstLevel[book] = level;
            return;
        }
        int after = levels.next[best];
        while (BookSide.isBetter(side, levels.price[after], price))
        {
            after = levels.next[after];
        }
        final int before = levels.prev[after];
        levels.prev[level] = before;
        levels.next[level] = after;
        levels.next[before] = level;
        levels.prev[after] = level;
    }

    private static long key(final int book, final long price)
    {
        return ((long)book << 32) | price;
    }
}
