package io.mdgate.core.time;

import org.agrona.concurrent.EpochNanoClock;

import java.time.Instant;

/**
 * Nanoseconds since the Unix epoch without allocating: {@link System#nanoTime()} (CLOCK_MONOTONIC on Linux) plus an
 * offset to the wall clock measured at construction (and by {@link #sample()}), taking the tightest of several
 * readings. Every process on a host that measures the offset this way agrees to within tens of nanoseconds, so
 * timestamps taken by the publisher can be compared with a consumer's clock for one-way latency. The offset does
 * not follow later steps or slewing of the wall clock until {@link #sample()} is called (off the hot path).
 * <p>
 * Threading: {@link #nanoTime()} from any thread; {@link #sample()} allocates and is for set-up code.
 */
public final class MonotonicEpochClock implements EpochNanoClock
{
    private static final int SAMPLES = 16;
    private volatile long offset;

    public MonotonicEpochClock()
    {
        sample();
    }

    /**
     * A clock on a time base of the caller's choosing (tests; a replay that must stamp in the recorded day's time).
     *
     * @param offsetNanos what {@link #nanoTime()} adds to {@link System#nanoTime()}.
     */
    public MonotonicEpochClock(final long offsetNanos)
    {
        offset = offsetNanos;
    }

    /** Measures the offset to the wall clock again. */
    public void sample()
    {
        long bestSpan = Long.MAX_VALUE;
        long bestOffset = 0;
        for (int i = 0; i < SAMPLES; i++)
        {
            final long before = System.nanoTime();
            final Instant now = Instant.now();
            final long after = System.nanoTime();
            final long span = after - before;
            if (span < bestSpan)
            {
                bestSpan = span;
                bestOffset = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (before + span / 2);
            }
        }
        offset = bestOffset;
    }

    /**
     * @return what {@link #nanoTime()} adds to CLOCK_MONOTONIC: native code that reads CLOCK_MONOTONIC itself (the
     *         DPDK receive path) adds the same offset and stamps on this clock.
     */
    public long offsetNanos()
    {
        return offset;
    }

    @Override
    public long nanoTime()
    {
        return System.nanoTime() + offset;
    }
}
