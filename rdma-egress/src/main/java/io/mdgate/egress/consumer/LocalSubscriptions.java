package io.mdgate.egress.consumer;

import io.mdgate.egress.protocol.TickLayout;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.LongHashSet;

import java.util.Arrays;

/**
 * What the consumer takes and what the publisher granted. The filter (a bit per instrument id, or all; market-wide
 * ticks always pass) is the consumer's own decision and applies at once, so the multicast stream is filtered
 * without waiting for the publisher's answer; a symbol joins the filter when the stream's {@code INSTRUMENT} tick
 * names it or the publisher's answer does. The table slots and the count of unanswered requests come from the
 * publisher and are forgotten when the connection is.
 * <p>
 * Threading: the consumer's polling thread. {@link #accepts} and {@link #onInstrument} do not allocate.
 */
final class LocalSubscriptions
{
    static final int NO_SLOT = -1;
    private final long[] bits = new long[(TickLayout.MAX_INSTRUMENT_ID + 1) / 64];
    private final LongHashSet wantedSymbols = new LongHashSet();
    private final Int2IntHashMap slots = new Int2IntHashMap(NO_SLOT);
    private final LongHashSet pendingSymbols = new LongHashSet();
    private boolean all;
    private int awaitingAnswers;

    boolean accepts(final int instrument)
    {
        return all || instrument == TickLayout.MARKET_WIDE || (bits[instrument >>> 6] & (1L << instrument)) != 0;
    }

    boolean all()
    {
        return all;
    }

    void all(final boolean subscribed)
    {
        all = subscribed;
    }

    void add(final int instrument)
    {
        bits[instrument >>> 6] |= 1L << instrument;
    }

    void remove(final int instrument)
    {
        bits[instrument >>> 6] &= ~(1L << instrument);
        slots.remove(instrument);
    }

    void wantSymbol(final long symbol)
    {
        wantedSymbols.add(symbol);
    }

    void unwantSymbol(final long symbol)
    {
        wantedSymbols.remove(symbol);
    }

    /** The stream named an instrument: take it if its symbol is wanted. */
    void onInstrument(final long symbol, final int instrument)
    {
        if (wantedSymbols.contains(symbol))
        {
            add(instrument);
        }
    }

    /** The publisher granted an instrument, with a table slot or {@link #NO_SLOT}. */
    void granted(final int instrument, final int tableSlot)
    {
        add(instrument);
        if (tableSlot >= 0)
        {
            slots.put(instrument, tableSlot);
        }
    }

    int tableSlot(final int instrument)
    {
        return slots.get(instrument);
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

    void requested()
    {
        awaitingAnswers++;
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

    /** Forgets what the publisher granted (a new connection grants again); the filter stays. */
    void clearGrants()
    {
        slots.clear();
        pendingSymbols.clear();
        awaitingAnswers = 0;
    }

    /** Forgets everything. */
    void clear()
    {
        Arrays.fill(bits, 0);
        wantedSymbols.clear();
        all = false;
        clearGrants();
    }
}
