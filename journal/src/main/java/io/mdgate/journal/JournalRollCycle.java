package io.mdgate.journal;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;

import java.util.Locale;

/**
 * How much time one journal file (a cycle) covers. A new file starts when the cycle's clock (see
 * {@link JournalContext#cycleClock(JournalCycleClock)}) enters the next period; periods are aligned to UTC. Each
 * choice maps to a Chronicle Queue roll cycle sized for at least 4 billion records per cycle ({@link #DAILY}: 137
 * billion).
 * <p>
 * Immutable; safe from any thread.
 */
public enum JournalRollCycle
{
    FIVE_MINUTELY(RollCycles.FIVE_MINUTELY),
    TEN_MINUTELY(RollCycles.TEN_MINUTELY),
    HALF_HOURLY(RollCycles.HALF_HOURLY),
    HOURLY(LargeRollCycles.LARGE_HOURLY),
    TWO_HOURLY(RollCycles.TWO_HOURLY),
    FOUR_HOURLY(RollCycles.FOUR_HOURLY),
    SIX_HOURLY(RollCycles.SIX_HOURLY),
    DAILY(LargeRollCycles.LARGE_DAILY),
    WEEKLY(RollCycles.WEEKLY);

    private final RollCycle rollCycle;

    JournalRollCycle(final RollCycle rollCycle)
    {
        this.rollCycle = rollCycle;
    }

    /** @return length of one cycle in milliseconds. */
    public long lengthMillis()
    {
        return rollCycle.lengthInMillis();
    }

    /** @return the most records one cycle can hold. */
    public long maxRecordsPerCycle()
    {
        return rollCycle.maxMessagesPerCycle();
    }

    RollCycle rollCycle()
    {
        return rollCycle;
    }

    /**
     * @param name a constant's name, any case, with '-' accepted for '_' (e.g. {@code hourly}, {@code half-hourly}).
     * @return the roll cycle.
     * @throws IllegalArgumentException naming the accepted values.
     */
    public static JournalRollCycle parse(final String name)
    {
        final String normalized = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final JournalRollCycle value : values())
        {
            if (value.name().equals(normalized))
            {
                return value;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a roll cycle; expected one of " + names());
    }

    /** @return the accepted names, lower case, comma separated. */
    public static String names()
    {
        final StringBuilder names = new StringBuilder();
        for (final JournalRollCycle value : values())
        {
            if (names.length() > 0)
            {
                names.append(", ");
            }
            names.append(value.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return names.toString();
    }
}
