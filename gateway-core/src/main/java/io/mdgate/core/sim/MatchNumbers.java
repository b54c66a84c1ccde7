package io.mdgate.core.sim;

/**
 * The session's match numbers: one increasing sequence shared by executions, trades and crosses, and the
 * last one issued (a broken trade names it). Not thread-safe.
 */
final class MatchNumbers
{
    private long last;
    private int lastLocate;

    MatchNumbers(final long first)
    {
        last = first - 1;
    }

    long next(final int locate)
    {
        lastLocate = locate;
        return ++last;
    }

    long last()
    {
        return last;
    }

    int lastLocate()
    {
        return lastLocate;
    }
}
