package io.mdgate.runtime;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * When the market is open: on weekdays between the configured open and close times in the exchange's zone, or
 * whenever the feed itself says it is ({@link MarketState}: its system events win over the schedule once seen).
 * The answer is cached until the next transition of the schedule, so {@link #isOpen(long)} is a comparison in the
 * steady state and allocates only at a transition.
 * <p>
 * Threading: one instance per thread (each core's idle strategy has its own); the {@link MarketState} is shared.
 */
final class MarketHours
{
    private final ZoneId zone;
    private final LocalTime open;
    private final LocalTime close;
    private final MarketState feed;
    private long validFromMillis = Long.MAX_VALUE;
    private long validUntilMillis = Long.MIN_VALUE;
    private boolean scheduleOpen;

    /**
     * @param zone  the exchange's time zone, e.g. America/New_York.
     * @param open  when busy polling starts each weekday.
     * @param close when it stops, after {@code open}.
     * @param feed  the feed's own view, or null to follow the schedule alone.
     */
    MarketHours(final ZoneId zone, final LocalTime open, final LocalTime close, final MarketState feed)
    {
        if (!close.isAfter(open))
        {
            throw new IllegalArgumentException("market close " + close + " must be after open " + open);
        }
        this.zone = zone;
        this.open = open;
        this.close = close;
        this.feed = feed;
    }

    /** @return a copy for another thread, sharing the feed state. */
    MarketHours copy()
    {
        return new MarketHours(zone, open, close, feed);
    }

    /** @return true when the feed says the market is open, or (feed silent on it) the schedule does. */
    boolean isOpen(final long epochMillis)
    {
        final int state = feed == null ? MarketState.UNKNOWN : feed.feedState();
        if (state != MarketState.UNKNOWN)
        {
            return state == MarketState.OPEN;
        }
        return isScheduledOpen(epochMillis);
    }

    /** @return true on a weekday between open and close in the zone. */
    boolean isScheduledOpen(final long epochMillis)
    {
        if (epochMillis >= validUntilMillis || epochMillis < validFromMillis)
        {
            evaluate(epochMillis);
        }
        return scheduleOpen;
    }

    private void evaluate(final long epochMillis)
    {
        final ZonedDateTime now = Instant.ofEpochMilli(epochMillis).atZone(zone);
        final boolean weekday = now.getDayOfWeek() != DayOfWeek.SATURDAY && now.getDayOfWeek() != DayOfWeek.SUNDAY;
        final LocalTime time = now.toLocalTime();
        scheduleOpen = weekday && !time.isBefore(open) && time.isBefore(close);
        final ZonedDateTime next;
        if (scheduleOpen)
        {
            next = now.with(close);
        }
        else if (weekday && time.isBefore(open))
        {
            next = now.with(open);
        }
        else
        {
            ZonedDateTime day = now.plusDays(1).with(open);
            while (day.getDayOfWeek() == DayOfWeek.SATURDAY || day.getDayOfWeek() == DayOfWeek.SUNDAY)
            {
                day = day.plusDays(1);
            }
            next = day;
        }
        validFromMillis = epochMillis;
        validUntilMillis = next.toInstant().toEpochMilli();
    }
}
