package io.mdgate.app.journal;

import io.mdgate.core.tick.ExchangeClock;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.concurrent.TimeUnit;

/**
 * A point in time given on the command line, resolved to nanoseconds since the epoch. Accepted forms:
 * <ul>
 *   <li>nanoseconds since the epoch: {@code 1735828200000000000};</li>
 *   <li>an instant or a date-time with its offset: {@code 2025-01-02T14:30:00Z},
 *   {@code 2025-01-02T09:30:00.000000001-05:00};</li>
 *   <li>a date-time without offset, in New York time (the exchange's): {@code 2025-01-02T09:30:00};</li>
 *   <li>a time of day, New York time, on the date of the journal's first tick: {@code 09:30} or
 *   {@code 09:30:00.5}.</li>
 * </ul>
 * Immutable.
 */
final class TimeArgument
{
    static final String FORMS = "nanoseconds since the epoch, 2025-01-02T14:30:00Z, 2025-01-02T09:30:00-05:00, " +
        "2025-01-02T09:30:00 (New York time) or 09:30:00.5 (New York time on the journal's first day)";

    private final String text;
    private final long epochNanos;
    private final LocalTime timeOfDay;

    private TimeArgument(final String text, final long epochNanos, final LocalTime timeOfDay)
    {
        this.text = text;
        this.epochNanos = epochNanos;
        this.timeOfDay = timeOfDay;
    }

    /**
     * @param text the argument.
     * @return the parsed time.
     * @throws IllegalArgumentException naming the accepted forms.
     */
    static TimeArgument parse(final String text)
    {
        final String value = text.trim();
        try
        {
            if (value.chars().allMatch(Character::isDigit) && !value.isEmpty())
            {
                return new TimeArgument(text, Long.parseLong(value), null);
            }
            if (value.indexOf('T') < 0)
            {
                return new TimeArgument(text, 0, LocalTime.parse(value));
            }
            if (value.endsWith("Z") || value.lastIndexOf('+') > value.indexOf('T') ||
                value.lastIndexOf('-') > value.indexOf('T'))
            {
                return new TimeArgument(text, nanos(OffsetDateTime.parse(value).toInstant()), null);
            }
            return new TimeArgument(text, nanos(LocalDateTime.parse(value).atZone(ExchangeClock.NEW_YORK).toInstant()),
                null);
        }
        catch (final DateTimeException | NumberFormatException | ArithmeticException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a time; give " + FORMS);
        }
    }

    /** @return whether the time needs a date to resolve. */
    boolean isTimeOfDay()
    {
        return timeOfDay != null;
    }

    /**
     * @param day the date a time of day is on (New York).
     * @return nanoseconds since the epoch.
     */
    long epochNanos(final LocalDate day)
    {
        if (timeOfDay == null)
        {
            return epochNanos;
        }
        return nanos(day.atTime(timeOfDay).atZone(ExchangeClock.NEW_YORK).toInstant());
    }

    /** @return the New York date of a time in nanoseconds since the epoch. */
    static LocalDate newYorkDate(final long epochNanos)
    {
        return Instant.ofEpochSecond(0, epochNanos).atZone(ExchangeClock.NEW_YORK).toLocalDate();
    }

    /** @return the time as an ISO-8601 instant with nanoseconds, e.g. {@code 2025-01-02T14:30:00.000000001Z}. */
    static String format(final long epochNanos)
    {
        return Instant.ofEpochSecond(0, epochNanos).toString();
    }

    @Override
    public String toString()
    {
        return text;
    }

    private static long nanos(final Instant instant)
    {
        return Math.addExact(TimeUnit.SECONDS.toNanos(instant.getEpochSecond()), instant.getNano());
    }
}
