package io.mdgate.egress.consumer;

import io.mdgate.egress.protocol.TickLayout;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.LongHashSet;

import java.util.Arrays;

/**
 * What the consumer asked for and what the publisher granted: the instruments it takes (a bit per id, or all,
 * market-wide ticks always), each instrument's table slot, and how many requests still await an answer.
 * <p>
 * Threading: the consumer's polling thread.
 */
final class LocalSubscriptions
{
    static final int NO_SLOT = -1;
    private final long[] bits = new long[(TickLayout.MAX_INSTRUMENT_ID + 1) / 64];
    private final Int2IntHashMap slots = new Int2IntHashMap(NO_SLOT);
    private final LongHashSet pendingSymbols = new LongHashSet();
    private boolean all;
    private int awaitingAnswers;

    boolean accepts(final int instrument)
    {
        return all || instrument == TickLayout.MARKET_WIDE || (bits[instrument >>> 6] & (1L << instrument)) != 0;
    }

    void all(final boolean subscribed)
    {
        all = subscribed;
    }

    void granted(final int instrument, final int tableSlot)
    {
        bits[instrument >>> 6] |= 1L << instrument;
        if (tableSlot >= 0)
        {
            slots.put(instrument, tableSlot);
        }
    }

    void removed(final int instrument)
    {
        bits[instrument >>> 6] &= ~(1L << instrument);
        slots.remove(instrument);
    }

    int tableSlot(final int instrument)
    {
        return slots.get(instrument);
    }

    void requested()
    {
        awaitingAnswers++;
    }

    /** The publisher will subscribe this symbol when the feed names it. */
    void pendingSymbol(final long symbol)
    {
        pendingSymbols.add(symbol);
    }

    /** @return whether the symbol was pending (a later grant of it answers no request). */
    boolean resolvedSymbol(final long symbol)
    {
        return pendingSymbols.remove(symbol);
    }

    void answered()
    {
        if (awaitingAnswers > 0)
        {
            awaitingAnswers--;
        }
    }

    int awaitingAnswers()
    {
        return awaitingAnswers;
    }

    /** Forgets what the publisher granted (a new connection grants again). */
    void clearGranted()
    {
        Arrays.fill(bits, 0);
        slots.clear();
        pendingSymbols.clear();
        all = false;
        awaitingAnswers = 0;
    }
}
