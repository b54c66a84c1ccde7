package io.mdgate.runtime;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MarketHoursTest
{
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private static long at(final String dateTime)
    {
        return ZonedDateTime.of(java.time.LocalDateTime.parse(dateTime), NEW_YORK).toInstant().toEpochMilli();
    }

    private final MarketState feed = new MarketState();
    private final MarketHours hours = new MarketHours(NEW_YORK, LocalTime.of(9, 25), LocalTime.of(16, 5), feed);

    @Test
    void shouldBeOpenOnAWeekdayBetweenOpenAndCloseInTheExchangesZone()
    {
        assertFalse(hours.isOpen(at("2025-01-02T09:24:59")));
        assertTrue(hours.isOpen(at("2025-01-02T09:25:00")));
        assertTrue(hours.isOpen(at("2025-01-02T16:04:59")));
        assertFalse(hours.isOpen(at("2025-01-02T16:05:00")));
        assertFalse(hours.isOpen(at("2025-01-04T12:00:00")), "a Saturday");
        assertFalse(hours.isOpen(at("2025-01-05T12:00:00")), "a Sunday");
        assertTrue(hours.isOpen(at("2025-01-06T12:00:00")), "the Monday after");
        assertFalse(hours.isOpen(at("2025-01-02T03:00:00")), "back in time: evaluated again");
    }

    @Test
    void shouldFollowTheFeedsSystemEventsOnceTheFeedHasSaidAnything()
    {
        final long saturday = at("2025-01-04T12:00:00");
        assertFalse(hours.isOpen(saturday));
        feed.onSystemEvent('S');
        assertTrue(hours.isOpen(saturday), "start of system hours");
        feed.onSystemEvent('A');
        assertTrue(hours.isOpen(saturday), "a code that says nothing about the day changes nothing");
        feed.onSystemEvent('E');
        assertFalse(hours.isOpen(at("2025-01-02T12:00:00")), "end of system hours, whatever the schedule");
    }

    @Test
    void shouldBusyPollWhileOpenAndParkOutsideButStayBusyWhileWorkArrives()
    {
        final long[] now = { at("2025-01-04T12:00:00") };
        final CountingIdle open = new CountingIdle();
        final CountingIdle outside = new CountingIdle();
        final MarketHoursIdleStrategy strategy = new MarketHoursIdleStrategy(open, outside,
            new MarketHours(NEW_YORK, LocalTime.of(9, 25), LocalTime.of(16, 5), feed), () -> now[0], 0);
        strategy.idle(0);
        assertEquals(1, outside.idles, "closed on a Saturday: parks");
        assertEquals(0, open.idles);

        feed.onSystemEvent('Q');
        busyWaitMillis(2);
        strategy.idle(0);
        assertEquals(1, open.idles, "the feed says market hours began: busy");

        final MarketHoursIdleStrategy lingering = new MarketHoursIdleStrategy(open, outside,
            new MarketHours(NEW_YORK, LocalTime.of(9, 25), LocalTime.of(16, 5), null), () -> now[0], 60_000_000_000L);
        lingering.idle(5);
        lingering.idle(0);
        assertEquals(3, open.idles, "work just arrived outside hours: still busy");
        assertTrue(lingering.isBusy());
    }

    @Test
    void shouldRefuseACloseThatIsNotAfterTheOpen()
    {
        final IllegalArgumentException ex = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new MarketHours(NEW_YORK, LocalTime.of(16, 0),
                LocalTime.of(9, 0), null));
        assertTrue(ex.getMessage().contains("must be after open"), ex.getMessage());
    }

    private static void busyWaitMillis(final long millis)
    {
        final long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end)
        {
            Thread.onSpinWait();
        }
    }

    private static final class CountingIdle implements IdleStrategy
    {
        int idles;

        @Override
        public void idle(final int workCount)
        {
            idles++;
        }

        @Override
        public void idle()
        {
            idles++;
        }

        @Override
        public void reset()
        {
        }
    }
}
