package io.mdgate.core.book;

import io.mdgate.core.itch.Alpha;

import java.util.Arrays;

/**
 * What the feed said about each instrument (ITCH stock locate) besides its orders: the symbol from the Stock
 * Directory, the trading state from Stock Trading Action, and how many book events it had (to rank the most
 * active). Fixed-size arrays indexed by locate, allocated once. Not thread-safe: owned by the book's thread.
 */
public final class InstrumentDirectory implements SymbolLookup
{
    /** Trading state before any Stock Trading Action was seen. */
    public static final char UNKNOWN_STATE = ' ';
    /** Packed symbol of an instrument no Stock Directory named. */
    public static final long NO_SYMBOL = 0;

    private final long[] symbols;
    private final char[] tradingStates;
    private final long[] activity;
    private int registered;

    InstrumentDirectory(final int maxInstruments)
    {
        symbols = new long[maxInstruments];
        tradingStates = new char[maxInstruments];
        activity = new long[maxInstruments];
        clear();
    }

    public int maxInstruments()
    {
        return symbols.length;
    }

    /** @return instruments named by a Stock Directory so far. */
    public int registered()
    {
        return registered;
    }

    /**
     * @param instrument   stock locate.
     * @param packedSymbol 8 characters packed as by {@link Alpha#pack8(CharSequence)}.
     * @return false when the locate is beyond the configured instruments.
     */
    public boolean symbol(final int instrument, final long packedSymbol)
    {
        if (!contains(instrument))
        {
            return false;
        }
        if (symbols[instrument] == NO_SYMBOL)
        {
            registered++;
        }
        symbols[instrument] = packedSymbol;
        return true;
    }

    /** @return the packed symbol, or {@link #NO_SYMBOL}. */
    @Override
    public long symbol(final int instrument)
    {
        return contains(instrument) ? symbols[instrument] : NO_SYMBOL;
    }

    /** @return the symbol as text, trailing spaces removed, or the empty string. Allocates: not for the hot path. */
    public String symbolText(final int instrument)
    {
        final long packed = symbol(instrument);
        return packed == NO_SYMBOL ? "" : Alpha.unpack8(packed);
    }

    /** @return the first locate registered with this symbol, or -1. A linear scan: not for the hot path. */
    public int instrumentOf(final long packedSymbol)
    {
        for (int i = 0; i < symbols.length; i++)
        {
            if (symbols[i] == packedSymbol && packedSymbol != NO_SYMBOL)
            {
                return i;
            }
        }
        return -1;
    }

    /** @return false when the locate is beyond the configured instruments. */
    public boolean tradingState(final int instrument, final char state)
    {
        if (!contains(instrument))
        {
            return false;
        }
        tradingStates[instrument] = state;
        return true;
    }

    /** @return the last ITCH trading state ('H', 'P', 'Q', 'T') or {@link #UNKNOWN_STATE}. */
    public char tradingState(final int instrument)
    {
        return contains(instrument) ? tradingStates[instrument] : UNKNOWN_STATE;
    }

    /** @return book events applied to this instrument's book (adds, executions, cancels, deletes, replaces). */
    public long activity(final int instrument)
    {
        return contains(instrument) ? activity[instrument] : 0;
    }

    void recordActivity(final int instrument)
    {
        activity[instrument]++;
    }

    public boolean contains(final int instrument)
    {
        return instrument >= 0 && instrument < symbols.length;
    }

    void clear()
    {
        Arrays.fill(symbols, NO_SYMBOL);
        Arrays.fill(tradingStates, UNKNOWN_STATE);
        Arrays.fill(activity, 0);
        registered = 0;
    }
}
