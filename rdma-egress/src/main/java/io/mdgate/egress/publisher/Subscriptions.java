package io.mdgate.egress.publisher;

import io.mdgate.egress.protocol.TickLayout;

import java.util.Arrays;

/**
 * One consumer's subscriptions: a bit per instrument id (or all of them), the table slot given to each subscribed
 * instrument, and symbols subscribed before the feed named them. Market-wide ticks (instrument 0) always pass.
 * Arrays sized at start; never allocates afterwards.
 * <p>
 * Threading: the publisher's thread.
 */
final class Subscriptions
{
    static final int NO_SLOT = -1;
    private static final int MAX_PENDING_SYMBOLS = 256;

    private final long[] bits = new long[(TickLayout.MAX_INSTRUMENT_ID + 1) / 64];
    private final int[] slotOfInstrument;
    private final int[] instrumentOfSlot;
    private final long[] pendingSymbols = new long[MAX_PENDING_SYMBOLS];
    private int pendingCount;
    private int tableSlots;
    private boolean all;
    private int count;

    Subscriptions(final int maxInstruments, final int maxTableSlots)
    {
        slotOfInstrument = new int[maxInstruments];
        instrumentOfSlot = new int[maxTableSlots];
        reset(0);
    }

    void reset(final int tableSlots)
    {
        Arrays.fill(bits, 0);
        Arrays.fill(slotOfInstrument, NO_SLOT);
        Arrays.fill(instrumentOfSlot, NO_SLOT);
        this.tableSlots = tableSlots;
        pendingCount = 0;
        all = false;
        count = 0;
    }

    boolean accepts(final int instrument)
    {
        return all || instrument == TickLayout.MARKET_WIDE || (bits[instrument >>> 6] & (1L << instrument)) != 0;
    }

    boolean subscribedToAll()
    {
        return all;
    }

    void subscribeAll(final boolean subscribed)
    {
        all = subscribed;
    }

    /** @return whether the instrument was newly added. */
    boolean add(final int instrument)
    {
        final long mask = 1L << instrument;
        final boolean added = (bits[instrument >>> 6] & mask) == 0;
        bits[instrument >>> 6] |= mask;
        if (added)
        {
            count++;
        }
        return added;
    }

    /** Removes an instrument and frees its table slot. */
    void remove(final int instrument)
    {
        final long mask = 1L << instrument;
        if ((bits[instrument >>> 6] & mask) != 0)
        {
            bits[instrument >>> 6] &= ~mask;
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

    /** @return false when too many symbols are already waiting. */
    boolean addPendingSymbol(final long symbol)
    {
        for (int i = 0; i < pendingCount; i++)
        {
            if (pendingSymbols[i] == symbol)
            {
                return true;
            }
        }
        if (pendingCount == MAX_PENDING_SYMBOLS)
        {
            return false;
        }
        pendingSymbols[pendingCount++] = symbol;
        return true;
    }

    void removePendingSymbol(final long symbol)
    {
        for (int i = 0; i < pendingCount; i++)
        {
            if (pendingSymbols[i] == symbol)
            {
                pendingSymbols[i] = pendingSymbols[--pendingCount];
                return;
            }
        }
    }

    /** @return whether the symbol was waiting (it is no longer). */
    boolean takePendingSymbol(final long symbol)
    {
        for (int i = 0; i < pendingCount; i++)
        {
            if (pendingSymbols[i] == symbol)
            {
                pendingSymbols[i] = pendingSymbols[--pendingCount];
                return true;
            }
        }
        return false;
    }

    int pendingSymbols()
    {
        return pendingCount;
    }
}
