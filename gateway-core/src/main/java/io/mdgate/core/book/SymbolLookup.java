package io.mdgate.core.book;

/**
 * Where a tick writer looks up the symbol of an instrument (ITCH stock locate): the book's
 * {@link InstrumentDirectory}, or the directory a stream of ticks carries ({@code io.mdgate.core.tick.SymbolDirectory}).
 * Implementations answer without allocating; threading is theirs.
 */
@FunctionalInterface
public interface SymbolLookup
{
    /**
     * @param instrument stock locate.
     * @return the symbol packed as by {@code Alpha.pack8}, or {@link InstrumentDirectory#NO_SYMBOL} when unknown.
     */
    long symbol(int instrument);
}
