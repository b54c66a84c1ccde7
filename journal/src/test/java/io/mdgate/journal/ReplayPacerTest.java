package io.mdgate.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayPacerTest
{
    /** A clock that moves only when the pacer sleeps, or spins (one microsecond per look). */
    private static final class FakeTime
    {
        long now = 1_000_000_000L;
        final List<Long> sleeps = new ArrayList<>();

        long nanoTime()
        {
            return now++;
        }

        void sleep(final long nanos)
        {
            sleeps.add(nanos);
            now += nanos;
        }
    }

    @Test
    void shouldReleaseEachRecordWhenItsRecordedDelayDividedByTheSpeedHasPassed()
    {
        final FakeTime time = new FakeTime();
        final ReplayPacer pacer = new ReplayPacer(2.0, time::nanoTime, time::sleep);
        final long[] recorded = { 5_000_000_000L, 5_010_000_000L, 5_010_000_000L, 5_050_000_000L };
        final List<Long> released = new ArrayList<>();
        long start = 0;
        for (final long t : recorded)
        {
            pacer.await(t);
            if (released.isEmpty())
            {
                start = time.now;
            }
            released.add(time.now - start);
        }
        assertEquals(0, released.get(0));
        assertWithin(5_000_000, released.get(1));
        assertWithin(5_000_000, released.get(2));
        assertWithin(25_000_000, released.get(3));
        assertEquals(2, pacer.waits());
    }

    @Test
    void shouldNotWaitForARecordWhoseTimeGoesBack()
    {
        final FakeTime time = new FakeTime();
        final ReplayPacer pacer = new ReplayPacer(1.0, time::nanoTime, time::sleep);
        pacer.await(10_000_000);
        pacer.await(5_000_000);
        assertTrue(time.sleeps.isEmpty());
        assertEquals(0, pacer.waits());
    }

    @ParameterizedTest
    @ValueSource(doubles = { 0, -1, Double.NaN, 2_000_000 })
    void shouldRefuseASpeedOutOfRange(final double speed)
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new ReplayPacer(speed));
        assertTrue(refused.getMessage().contains("speed must be above 0"), refused.getMessage());
    }

    private static void assertWithin(final long expected, final long actual)
    {
        assertTrue(actual >= expected && actual < expected + ReplayPacer.SPIN_NANOS,
            "released at " + actual + " ns, due at " + expected);
    }
}
