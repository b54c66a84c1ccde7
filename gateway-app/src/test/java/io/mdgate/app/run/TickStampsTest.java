package io.mdgate.app.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TickStampsTest
{
    @Test
    void shouldGiveBackTheStampOfARecentSequenceAndNothingOnceItsSlotWasReused()
    {
        final TickStamps stamps = new TickStamps(8);
        assertEquals(TickStamps.UNKNOWN, stamps.stampOf(1), "never stamped");
        stamps.stamp(1, 1_000);
        stamps.stamp(2, 2_000);
        assertEquals(1_000, stamps.stampOf(1));
        assertEquals(2_000, stamps.stampOf(2));
        stamps.stamp(9, 9_000);
        assertEquals(TickStamps.UNKNOWN, stamps.stampOf(1), "slot now holds sequence 9");
        assertEquals(9_000, stamps.stampOf(9));
    }
}
