package io.mdgate.egress.publisher;

/**
 * How many ticks recovery may scan: a token bucket refilled at a fixed rate, spent at most a fixed amount per duty
 * cycle, so recovery takes what live data leaves and never more. Threading: the publisher's thread.
 */
final class RecoveryBudget
{
    private static final long MAX_ELAPSED_NANOS = 1_000_000_000L;
    private final long ticksPerSecond;
    private final int perCycle;
    private final long capacity;
    private long tokens;
    private long lastRefillNanos;

    RecoveryBudget(final long ticksPerSecond, final int perCycle, final long nowNanos)
    {
        this.ticksPerSecond = ticksPerSecond;
        this.perCycle = perCycle;
        this.capacity = Math.max(perCycle, ticksPerSecond / 100);
        this.tokens = capacity;
        this.lastRefillNanos = nowNanos;
    }

    /** @return ticks that may be scanned in this duty cycle. */
    int refill(final long nowNanos)
    {
        final long elapsed = Math.min(MAX_ELAPSED_NANOS, nowNanos - lastRefillNanos);
        final long added = elapsed * ticksPerSecond / 1_000_000_000L;
        if (added > 0)
        {
            tokens = Math.min(capacity, tokens + added);
            lastRefillNanos = nowNanos;
        }
        return (int)Math.min(perCycle, tokens);
    }

    void spend(final long ticks)
    {
        tokens = Math.max(0, tokens - ticks);
    }
}
