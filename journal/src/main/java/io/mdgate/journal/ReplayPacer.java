package io.mdgate.journal;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Holds a replay to the recorded pace times a speed factor: the first record goes at once, and each later one
 * when as much wall time has passed since the first as the recorded time between them, divided by the speed.
 * Records whose recorded time is not later than an earlier one's go at once. Waits longer than
 * {@link #SPIN_NANOS} park the thread; the rest is spun, so records land close to their due time.
 * <p>
 * Threading: not thread-safe; the replaying thread.
 */
public final class ReplayPacer
{
    /** Largest speed factor accepted. */
    public static final double MAX_SPEED = 1_000_000;
    static final long SPIN_NANOS = 200_000;

    private final double speed;
    private final NanoClock clock;
    private final LongConsumer sleeper;
    private boolean started;
    private long firstRecordTime;
    private long firstWallTime;
    private long waits;

    /**
     * @param speed 1 for the recorded pace, 2 for twice as fast, 0.5 for half; above 0 and at most
     *              {@link #MAX_SPEED}.
     */
    public ReplayPacer(final double speed)
    {
        this(speed, SystemNanoClock.INSTANCE, LockSupport::parkNanos);
    }

    /**
     * @param speed   the speed factor.
     * @param clock   the wall clock.
     * @param sleeper parks the thread for about the given nanoseconds.
     */
    public ReplayPacer(final double speed, final NanoClock clock, final LongConsumer sleeper)
    {
        if (!(speed > 0) || speed > MAX_SPEED)
        {
            throw new IllegalArgumentException("speed must be above 0 and at most " + (long)MAX_SPEED + ", was " +
                speed);
        }
        this.speed = speed;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /**
     * Returns when the record is due.
     *
     * @param recordTimeNanos the record's recorded time.
     */
    public void await(final long recordTimeNanos)
    {
        if (!started)
        {
            started = true;
            firstRecordTime = recordTimeNanos;
            firstWallTime = clock.nanoTime();
            return;
        }
        final long elapsed = recordTimeNanos - firstRecordTime;
        if (elapsed <= 0)
        {
            return;
        }
        final long due = firstWallTime + (long)(elapsed / speed);
        long remaining = due - clock.nanoTime();
        if (remaining > 0)
        {
            waits++;
        }
        while (remaining > 0)
        {
            if (remaining > SPIN_NANOS)
            {
                sleeper.accept(remaining - SPIN_NANOS / 2);
            }
            else
            {
                Thread.onSpinWait();
            }
            remaining = due - clock.nanoTime();
        }
    }

    /** @return records that had to wait. */
    public long waits()
    {
        return waits;
    }

    public double speed()
    {
        return speed;
    }
}
