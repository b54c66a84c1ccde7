package io.mdgate.egress.consumer;

import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;

import java.util.Arrays;

/**
 * What the consumer takes and what the publisher granted. The filter (per instrument id the mask of tick classes
 * its {@link SubscriptionView view} takes, 0 when not subscribed, and the mask of "all"; market-wide ticks always
 * pass) is the consumer's own decision and applies at once, so the multicast stream and the shared log are
 * filtered without waiting for the publisher's answer; a symbol joins the filter, with its view, when the stream's
 * {@code INSTRUMENT} tick names it or the publisher's answer does. The table slots and the count of unanswered
 * requests come from the publisher and are forgotten when the connection is.
 * <p>
 * Threading: the consumer's polling thread. {@link #accepts}, {@link #acceptsFromRing} and {@link #onInstrument}
 * do not allocate.
 */
final class LocalSubscriptions
{
    static final int NO_SLOT = -1;
    private final byte[] masks = new byte[TickLayout.MAX_INSTRUMENT_ID + 1];
    private final Long2LongHashMap wantedSymbols = new Long2LongHashMap(0);
    private final Int2IntHashMap slots = new Int2IntHashMap(NO_SLOT);
    private final LongHashSet pendingSymbols = new LongHashSet();
    private int allMask;
    private int awaitingAnswers;

    LocalSubscriptions()
    {
        masks[TickLayout.MARKET_WIDE] = (byte)SubscriptionView.EVERY_CLASS;
    }

    /** @return whether a tick of the instrument and event type is the consumer's (stream, shared log, recovery). */
    boolean accepts(final int instrument, final byte eventType)
    {
        return ((masks[instrument] | allMask) & SubscriptionView.classOf(eventType)) != 0;
    }

    /**
     * @return whether a tick from the ring, which the publisher filtered already, is the consumer's: an instrument
     *         the consumer has no view of yet (a symbol the publisher resolved first) passes as the publisher chose.
     */
    boolean acceptsFromRing(final int instrument, final byte eventType)
    {
        final int mask = masks[instrument] | allMask;
        return mask == 0 || (mask & SubscriptionView.classOf(eventType)) != 0;
    }

    boolean all()
    {
        return allMask != 0;
    }

    /** @return whether "all" takes every tick, so a run of ticks needs no filtering. */
    boolean allTakesEverything()
    {
        return allMask == SubscriptionView.EVERY_CLASS;
    }

    void all(final boolean subscribed, final int mask)
    {
        allMask = subscribed ? mask : 0;
    }

    /** Takes the instrument with the view's mask, replacing the view it had. */
    void add(final int instrument, final int mask)
    {
        masks[instrument] = (byte)mask;
    }

    /** @return the mask of the instrument's own view, 0 when it has none. */
    int mask(final int instrument)
    {
        return masks[instrument];
    }

    void remove(final int instrument)
    {
        masks[instrument] = 0;
        slots.remove(instrument);
    }

    void wantSymbol(final long symbol, final int mask)
    {
        wantedSymbols.put(symbol, mask);
    }

    void unwantSymbol(final long symbol)
    {
        wantedSymbols.remove(symbol);
    }

    /** @return the mask of the view a symbol is wanted with, 0 when it is not wanted. */
    int symbolMask(final long symbol)
    {
        return (int)wantedSymbols.get(symbol);
    }

    /** The stream named an instrument: take it, with the symbol's view, if its symbol is wanted. */
    void onInstrument(final long symbol, final int instrument)
    {
        final int mask = (int)wantedSymbols.get(symbol);
        if (mask != 0)
        {
            add(instrument, mask);
        }
    }

    /** The publisher granted an instrument, with a table slot or {@link #NO_SLOT}, with the view given. */
    void granted(final int instrument, final int tableSlot, final int mask)
    {
        add(instrument, mask);
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
        Arrays.fill(masks, (byte)0);
        masks[TickLayout.MARKET_WIDE] = (byte)SubscriptionView.EVERY_CLASS;
        wantedSymbols.clear();
        allMask = 0;
        clearGrants();
    }
}
