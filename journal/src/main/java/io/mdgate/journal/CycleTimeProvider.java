package io.mdgate.journal;

import net.openhft.chronicle.core.time.TimeProvider;
import org.agrona.concurrent.EpochClock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The clock a queue consults to choose the cycle of the next record: the wall clock, or the time of the records
 * themselves, advanced by the writer before each append and never moved backwards (a queue must not go back to an
 * older cycle file). Written by the writer thread; read by the queue from any thread.
 */
final class CycleTimeProvider implements TimeProvider
{
    private static final VarHandle RECORD_TIME;

    static
    {
        try
        {
            RECORD_TIME = MethodHandles.lookup().findVarHandle(CycleTimeProvider.class, "recordTimeMillis", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final EpochClock wallClock;
    private final boolean recordTime;
    @SuppressWarnings("unused")
    private long recordTimeMillis;

    /**
     * @param clock      the wall clock, used when {@code cycleClock} is {@link JournalCycleClock#WALL_CLOCK} and, with
     *                   record time, until the first record.
     * @param cycleClock which time chooses a cycle.
     */
    CycleTimeProvider(final EpochClock clock, final JournalCycleClock cycleClock)
    {
        this.wallClock = clock;
        this.recordTime = cycleClock == JournalCycleClock.RECORD_TIME;
    }

    /**
     * With record time, moves the clock to a record's time unless that is earlier than where it stands. Writer
     * thread only.
     *
     * @param epochNanos the record's time.
     */
    void advanceTo(final long epochNanos)
    {
        final long millis = epochNanos / 1_000_000;
        if (millis > (long)RECORD_TIME.getOpaque(this))
        {
            RECORD_TIME.setRelease(this, millis);
        }
    }

    /**
     * With record time, never lets the clock stand before the given time, e.g. the start of the newest cycle on
     * disk when the journal is reopened. Start-up only.
     *
     * @param epochMillis the earliest time the clock may show.
     */
    void notBefore(final long epochMillis)
    {
        if (epochMillis > (long)RECORD_TIME.getOpaque(this))
        {
            RECORD_TIME.setRelease(this, epochMillis);
        }
    }

    boolean isRecordTime()
    {
        return recordTime;
    }

    @Override
    public long currentTimeMillis()
    {
        if (recordTime)
        {
            final long millis = (long)RECORD_TIME.getAcquire(this);
            if (millis > 0)
            {
                return millis;
            }
        }
        return wallClock.time();
    }
}
