package io.mdgate.egress.publisher;

import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;

import java.util.Arrays;

/**
 * One consumer's subscriptions: the {@link SubscriptionView view} of each instrument id subscribed (as the mask of
 * tick classes it takes, 0 when not subscribed) and of "all", the table slot given to each subscribed instrument,
 * and symbols subscribed before the feed named them, with their views. A tick passes when the instrument's mask or
 * the mask of "all" takes its class; market-wide ticks (instrument 0: GAP, SESSION, system events) always pass.
 * Arrays sized at start; never allocates afterwards.
 * <p>
 * Threading: the publisher's thread.
 */
final class Subscriptions
{
    static final int NO_SLOT = -1;
    private static final int MAX_PENDING_SYMBOLS = 256;

    private final byte[] masks = new byte[TickLayout.MAX_INSTRUMENT_ID + 1];
    private final int[] slotOfInstrument;
    private final int[] instrumentOfSlot;
    private final long[] pendingSymbols = new long[MAX_PENDING_SYMBOLS];
    private final byte[] pendingMasks = new byte[MAX_PENDING_SYMBOLS];
    private int pendingCount;
    private int tableSlots;
    private int allMask;
    private int count;

    Subscriptions(final int maxInstruments, final int maxTableSlots)
    {
        slotOfInstrument = new int[maxInstruments];
        instrumentOfSlot = new int[maxTableSlots];
        reset(0);
    }

    void reset(final int tableSlots)
    {
        Arrays.fill(masks, (byte)0);
        masks[TickLayout.MARKET_WIDE] = (byte)SubscriptionView.EVERY_CLASS;
        Arrays.fill(slotOfInstrument, NO_SLOT);
        Arrays.fill(instrumentOfSlot, NO_SLOT);
        this.tableSlots = tableSlots;
        pendingCount = 0;
        allMask = 0;
        count = 0;
    }

    /** @return whether a tick of that instrument and event type passes. */
    boolean accepts(final int instrument, final byte eventType)
    {
        return ((masks[instrument] | allMask) & SubscriptionView.classOf(eventType)) != 0;
    }

    /** @return the classes of the instrument's ticks that pass (its view's mask, or that of "all"), 0: none. */
    int maskOf(final int instrument)
    {
        return masks[instrument] | allMask;
    }

    /** @return whether the instrument's LEVEL ticks pass (its depth table slot is worth writing). */
    boolean takesLevels(final int instrument)
    {
        return ((masks[instrument] | allMask) & SubscriptionView.LEVEL) != 0;
    }

    boolean subscribedToAll()
    {
        return allMask != 0;
    }

    /** Subscribes every instrument with the view's mask, or (mask ignored) unsubscribes "all". */
    void subscribeAll(final boolean subscribed, final int mask)
    {
        allMask = subscribed ? mask : 0;
    }

    /**
     * Subscribes an instrument with a view's mask, replacing the view it had.
     *
     * @return whether the instrument was newly added.
     */
    boolean add(final int instrument, final int mask)
    {
        final boolean added = masks[instrument] == 0;
        masks[instrument] = (byte)mask;
        if (added)
        {
            count++;
        }
        return added;
    }

    /** Removes an instrument and frees its table slot. */
    void remove(final int instrument)
    {
        if (masks[instrument] != 0)
        {
            masks[instrument] = 0;
            count--;
        }
        final int slot = tableSlot(instrument);
        if (slot != NO_SLOT)
        {
            instrumentOfSlot[slot] = NO_SLOT;
            slotOfInstrument[instrument] = NO_SLOT;
        }
    }

    /** @return instruments subscribed one by one. */
    int count()
    {
        return count;
    }

    int tableSlot(final int instrument)
    {
        return instrument < slotOfInstrument.length ? slotOfInstrument[instrument] : NO_SLOT;
    }

    /** @return the instrument's table slot, newly given when it had none; {@link #NO_SLOT} when the table is full. */
    int assignSlot(final int instrument)
    {
        if (instrument >= slotOfInstrument.length)
        {
            return NO_SLOT;
        }
        if (slotOfInstrument[instrument] != NO_SLOT)
        {
            return slotOfInstrument[instrument];
        }
        for (int slot = 0; slot < tableSlots; slot++)
        {
            if (instrumentOfSlot[slot] == NO_SLOT)
            {
                instrumentOfSlot[slot] = instrument;
                slotOfInstrument[instrument] = slot;
                return slot;
            }
        }
        return NO_SLOT;
    }

    /** @return the instrument of a table slot, or {@link #NO_SLOT}. */
    int instrumentOfSlot(final int slot)
    {
        return slot < tableSlots ? instrumentOfSlot[slot] : NO_SLOT;
    }

    int tableSlots()
    {
        return tableSlots;
    }

    /** @return false when too many symbols are already waiting. A symbol asked for again takes the new view. */
    boolean addPendingSymbol(final long symbol, final int mask)
    {
        for (int i = 0; i < pendingCount; i++)
        {
            if (pendingSymbols[i] == symbol)
            {
                pendingMasks[i] = (byte)mask;
                return true;
            }
        }
        if (pendingCount == MAX_PENDING_SYMBOLS)
        {
            return false;
        }
        pendingMasks[pendingCount] = (byte)mask;
        pendingSymbols[pendingCount++] = symbol;
        return true;
    }

    void removePendingSymbol(final long symbol)
    {
        for (int i = 0; i < pendingCount; i++)
        {
            if (pendingSymbols[i] == symbol)
            {
                removePending(i);
                return;
            }
        }
    }

    /** @return the mask of the view the symbol was waiting with (it is no longer), 0 when it was not waiting. */
    int takePendingSymbol(final long symbol)
    {
        for (int i = 0; i < pendingCount; i++)
        {
            if (pendingSymbols[i] == symbol)
            {
                final int mask = pendingMasks[i];
                removePending(i);
                return mask;
            }
        }
        return 0;
    }

    private void removePending(final int index)
    {
        pendingCount--;
        pendingSymbols[index] = pendingSymbols[pendingCount];
        pendingMasks[index] = pendingMasks[pendingCount];
    }

    int pendingSymbols()
    {
        return pendingCount;
    }
}
