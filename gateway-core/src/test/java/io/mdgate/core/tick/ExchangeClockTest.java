package io.mdgate.core.tick;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ExchangeClockTest
{
    private static final long NANOS_PER_HOUR = 3_600_000_000_000L;

    @ParameterizedTest(name = "{0} {1} New York is {2}")
    @CsvSource({
        "2024-01-15, 09:30, 2024-01-15T14:30:00Z",
        "2024-07-15, 09:30, 2024-07-15T13:30:00Z",
        "2024-03-08, 16:00, 2024-03-08T21:00:00Z",
        "2024-03-11, 09:30, 2024-03-11T13:30:00Z",
        "2024-11-01, 09:30, 2024-11-01T13:30:00Z",
        "2024-11-04, 09:30, 2024-11-04T14:30:00Z",
        "2024-03-10, 01:59:59.999999999, 2024-03-10T06:59:59.999999999Z",
        "2024-03-10, 03:00, 2024-03-10T07:00:00Z",
        "2024-03-10, 12:00, 2024-03-10T16:00:00Z",
        "2024-11-03, 00:30, 2024-11-03T04:30:00Z",
        "2024-11-03, 01:30, 2024-11-03T05:30:00Z",
        "2024-11-03, 02:00, 2024-11-03T07:00:00Z",
        "2024-11-03, 12:00, 2024-11-03T17:00:00Z",
    })
    void shouldConvertNewYorkTimeOfDayToTheInstantOnThatDate(
        final LocalDate date, final LocalTime time, final Instant expected)
    {
        final ExchangeClock clock = new ExchangeClock(date);

        assertEquals(epochNanos(expected), clock.toEpochNanos(time.toNanoOfDay()));
    }

    @Test
    void shouldReadATimeInTheSkippedSpringHourWithTheOldOffsetLikeZonedDateTime()
    {
        final ExchangeClock clock = new ExchangeClock(LocalDate.of(2024, 3, 10));

        assertEquals(epochNanos(Instant.parse("2024-03-10T07:30:00Z")), clock.toEpochNanos(150 * 60_000_000_000L));
    }

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource({
        "2024-03-10, America/New_York",
        "2024-11-03, America/New_York",
        "2023-03-12, America/New_York",
        "2023-11-05, America/New_York",
        "2024-06-03, America/New_York",
        "2024-03-31, Europe/London",
        "2024-10-27, Europe/London",
        "2024-04-07, Australia/Lord_Howe",
        "2024-01-02, Asia/Kolkata",
        "2024-01-02, UTC",
    })
    void shouldAgreeWithZonedDateTimeAtEverySecondOfTheDay(final LocalDate date, final ZoneId zone)
    {
        final ExchangeClock clock = new ExchangeClock(zone, date);
        for (long second = 0; second < 86_400; second++)
        {
            final long nanos = second * 1_000_000_000L + 123_456_789L;
            final Instant expected = ZonedDateTime.of(date, LocalTime.ofNanoOfDay(nanos), zone).toInstant();
            assertEquals(epochNanos(expected), clock.toEpochNanos(nanos), () -> date + " " + zone + " at " +
                LocalTime.ofNanoOfDay(nanos));
        }
    }

    @Test
    void shouldGiveTheDaysLastOffsetToTimesPastMidnight()
    {
        final ExchangeClock clock = new ExchangeClock(LocalDate.of(2024, 3, 10));

        assertEquals(epochNanos(Instant.parse("2024-03-11T04:30:00Z")), clock.toEpochNanos(24 * NANOS_PER_HOUR +
            30 * 60_000_000_000L));
    }

    @Test
    void shouldMoveToAnotherSessionDate()
    {
        final ExchangeClock clock = new ExchangeClock(LocalDate.of(2024, 3, 10));
        clock.sessionDate(LocalDate.of(2024, 12, 24));

        assertEquals(LocalDate.of(2024, 12, 24), clock.sessionDate());
        assertEquals(epochNanos(Instant.parse("2024-12-24T14:30:00Z")), clock.toEpochNanos(9 * NANOS_PER_HOUR +
            30 * 60_000_000_000L));
    }

    private static long epochNanos(final Instant instant)
    {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
