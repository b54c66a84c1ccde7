package io.mdgate.bench.egress;

/**
 * Spreads sends over time at a fixed rate without sleeping (sleeps on this kernel are tens of microseconds): the
 * caller does other work while {@link #due(long)} says the next send is not due. A rate of 0 is always due.
 */
final class Pacer
{
    private final long start = System.nanoTime();
    private final long rate;

    Pacer(final long rate)
    {
        this.rate = rate;
    }

    /** @return whether send number {@code sent} (from 0) may go now. */
    boolean due(final long sent)
    {
        return rate == 0 || System.nanoTime() - start >= sent * 1_000_000_000L / rate;
    }
}
