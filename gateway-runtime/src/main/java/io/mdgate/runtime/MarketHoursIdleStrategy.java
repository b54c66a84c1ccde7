package io.mdgate.runtime;

import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.IdleStrategy;

/**
 * Busy-polls while the market is open ({@link MarketHours}: the feed's system events, else the schedule) and for a
 * while after the last work, and idles with the outside strategy (a park with a bounded wake-up, e.g. 1 ms)
 * otherwise, so an appliance does not burn its cores all night yet still takes a packet that arrives out of hours
 * within the park time, and then stays busy while traffic lasts.
 * <p>
 * The market is looked at once a millisecond at most. Threading: one instance per agent thread.
 */
final class MarketHoursIdleStrategy implements IdleStrategy
{
    /** How long the strategy stays busy after work, even outside market hours. */
    static final long DEFAULT_BUSY_AFTER_WORK_NANOS = 1_000_000_000L;
    private static final long CHECK_INTERVAL_NANOS = 1_000_000L;

    private final IdleStrategy open;
    private final IdleStrategy outside;
    private final MarketHours hours;
    private final EpochClock clock;
    private final long busyAfterWorkNanos;
    private long nextCheckNanos;
    private long lastWorkNanos = Long.MIN_VALUE / 2;
    private boolean marketOpen;

    /**
     * @param open    the strategy while the market is open, usually busy-spin.
     * @param outside the strategy outside, with a bounded wake-up (a park or sleep).
     * @param hours   this thread's own copy of the market hours.
     */
    MarketHoursIdleStrategy(final IdleStrategy open, final IdleStrategy outside, final MarketHours hours,
        final EpochClock clock, final long busyAfterWorkNanos)
    {
        this.open = open;
        this.outside = outside;
        this.hours = hours;
        this.clock = clock;
        this.busyAfterWorkNanos = busyAfterWorkNanos;
        nextCheckNanos = System.nanoTime();
    }

    @Override
    public void idle(final int workCount)
    {
        final long now = System.nanoTime();
        if (workCount > 0)
        {
            lastWorkNanos = now;
            open.idle(workCount);
            return;
        }
        idle(now);
    }

    @Override
    public void idle()
    {
        idle(System.nanoTime());
    }

    private void idle(final long now)
    {
        if (now - nextCheckNanos >= 0)
        {
            nextCheckNanos = now + CHECK_INTERVAL_NANOS;
            marketOpen = hours.isOpen(clock.time());
        }
        if (marketOpen || now - lastWorkNanos < busyAfterWorkNanos)
        {
            open.idle();
        }
        else
        {
            outside.idle();
        }
    }

    /** @return whether it busy-polls now (market open, or recent work). */
    boolean isBusy()
    {
        return marketOpen || System.nanoTime() - lastWorkNanos < busyAfterWorkNanos;
    }

    @Override
    public void reset()
    {
        open.reset();
        outside.reset();
    }

    @Override
    public String alias()
    {
        return "market-hours";
    }
}
