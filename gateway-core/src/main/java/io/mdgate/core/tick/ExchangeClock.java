package io.mdgate.core.tick;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Objects;

/**
 * Converts ITCH timestamps (nanoseconds since midnight, exchange local time) of one session date into nanoseconds
 * since the Unix epoch. The time zone's rules are consulted once per session date; the conversion itself is a
 * compare and an add.
 * <p>
 * An ITCH timestamp is read as local wall-clock time of day, exactly as {@code ZonedDateTime.of(date, time, zone)}
 * reads it: on a day the clocks change, times before the change use the old UTC offset and times after it the new
 * one. A time in the hour skipped in spring is taken with the old offset (02:30 is 03:30 daylight time) and a time
 * in the hour repeated in autumn is taken as its first occurrence (daylight time). Times past 24:00 continue with
 * the day's last offset. A zone with more than one change in a day is refused.
 * <p>
 * Threading: {@link #toEpochNanos(long)} may be called from any thread once set up; {@link #sessionDate(LocalDate)}
 * is for start-up and session changes on the owning thread.
 */
public final class ExchangeClock
{
    /** Nasdaq's time zone: ITCH timestamps are US Eastern time. */
    public static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_DAY = 86_400L * NANOS_PER_SECOND;

    private final ZoneId zone;
    private LocalDate sessionDate;
    private long changeAtNanos;
    private long baseBefore;
    private long baseAfter;

    /**
     * @param zone        the exchange's time zone.
     * @param sessionDate the trading day the timestamps belong to.
     */
    public ExchangeClock(final ZoneId zone, final LocalDate sessionDate)
    {
        this.zone = Objects.requireNonNull(zone, "zone");
        sessionDate(sessionDate);
    }

    /** @param sessionDate the trading day, in {@link #NEW_YORK}. */
    public ExchangeClock(final LocalDate sessionDate)
    {
        this(NEW_YORK, sessionDate);
    }

    /**
     * Moves the clock to another trading day, precomputing that day's offsets. Not for the hot path.
     *
     * @param sessionDate the trading day the timestamps belong to.
     * @throws IllegalArgumentException when the zone changes its offset more than once that day.
     */
    public void sessionDate(final LocalDate sessionDate)
    {
        Objects.requireNonNull(sessionDate, "sessionDate");
        final ZoneRules rules = zone.getRules();
        final long midnightUtcNanos = sessionDate.toEpochDay() * NANOS_PER_DAY;
        final Instant dayStart = sessionDate.atStartOfDay(zone).toInstant();
        final ZoneOffset before = rules.getOffset(dayStart);
        final ZoneOffsetTransition change = rules.nextTransition(dayStart);
        final Instant dayEnd = sessionDate.plusDays(1).atStartOfDay(zone).toInstant();

        long changeAt = Long.MAX_VALUE;
        ZoneOffset after = before;
        if (change != null && change.getInstant().isBefore(dayEnd))
        {
            final ZoneOffsetTransition second = rules.nextTransition(change.getInstant());
            if (second != null && second.getInstant().isBefore(dayEnd))
            {
                throw new IllegalArgumentException(zone + " changes its UTC offset more than once on " + sessionDate +
                    "; pick a zone with at most one change a day");
            }
            after = change.getOffsetAfter();
            final LocalDateTime midnight = sessionDate.atStartOfDay();
            final long wallBefore = Duration.between(midnight, change.getDateTimeBefore()).toNanos();
            final long wallAfter = Duration.between(midnight, change.getDateTimeAfter()).toNanos();
            changeAt = Math.max(wallBefore, wallAfter);
        }
        this.sessionDate = sessionDate;
        this.changeAtNanos = changeAt;
        this.baseBefore = midnightUtcNanos - before.getTotalSeconds() * NANOS_PER_SECOND;
        this.baseAfter = midnightUtcNanos - after.getTotalSeconds() * NANOS_PER_SECOND;
    }

    /**
     * @param nanosSinceMidnight ITCH timestamp: local wall-clock nanoseconds since midnight of the session date.
     * @return nanoseconds since 1970-01-01T00:00Z.
     */
    public long toEpochNanos(final long nanosSinceMidnight)
    {
        return nanosSinceMidnight < changeAtNanos ? baseBefore + nanosSinceMidnight : baseAfter + nanosSinceMidnight;
    }

    public ZoneId zone()
    {
        return zone;
    }

    public LocalDate sessionDate()
    {
        return sessionDate;
    }

    @Override
    public String toString()
    {
        return "ExchangeClock{zone=" + zone + ", sessionDate=" + sessionDate + '}';
    }
}
