package io.mdgate.core.feed;

/**
 * A token bucket that limits how often something may happen: {@code ratePerSecond} tokens a second, at most
 * {@code burst} saved up, full at the start. Kept in integer nanoseconds of credit, so there is no rounding drift.
 * Time is whatever clock the caller reads, as long as it never goes back. Allocation-free. Not thread-safe.
 */
final class TokenBucket
{
    private final long nanosPerToken;
    private final long capacityNanos;
    private long credit;
    private long lastNanos;
    private boolean started;

    /**
     * @param ratePerSecond tokens added per second, 1 to 1,000,000,000.
     * @param burst         most tokens the bucket holds, at least 1.
     */
    TokenBucket(final long ratePerSecond, final int burst)
    {
        if (ratePerSecond < 1 || ratePerSecond > 1_000_000_000L || burst < 1)
        {
            throw new IllegalArgumentException(
                "a token bucket needs a rate of 1 to 1e9 a second and a burst of at least 1, got rate " +
                ratePerSecond + " and burst " + burst);
        }
        this.nanosPerToken = 1_000_000_000L / ratePerSecond;
        this.capacityNanos = nanosPerToken * burst;
        this.credit = capacityNanos;
    }

    /**
     * @param nowNanos the current time.
     * @return true when a token was taken, false when none is left until time passes.
     */
    boolean tryAcquire(final long nowNanos)
    {
        refill(nowNanos);
        if (credit >= nanosPerToken)
        {
            credit -= nanosPerToken;
            return true;
        }
        return false;
    }

    /** @return whole tokens available at that time. */
    long available(final long nowNanos)
    {
        refill(nowNanos);
        return credit / nanosPerToken;
    }

    private void refill(final long nowNanos)
    {
        if (!started)
        {
            started = true;
            lastNanos = nowNanos;
            return;
        }
        final long elapsed = nowNanos - lastNanos;
        if (elapsed > 0)
        {
            lastNanos = nowNanos;
            credit = elapsed >= capacityNanos - credit ? capacityNanos : credit + elapsed;
        }
    }
}
