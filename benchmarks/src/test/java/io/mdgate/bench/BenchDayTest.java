package io.mdgate.bench;

import io.mdgate.core.sim.SimulationConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BenchDayTest
{
    @Test
    void shouldCacheEachDayShapeUnderItsOwnFileName()
    {
        final SimulationConfig standard = BenchDay.STANDARD.simulation();
        assertEquals("itch-10000000-i500-s1-o100-l256-f0.0-d64.itch", GeneratedItchFile.fileName(standard));
        assertEquals("itch-10000000-i8000-s1-o150-l1024-f0.3-d400.itch",
            GeneratedItchFile.fileName(BenchDay.DEEP.simulation()));
        final String name = GeneratedItchFile.fileName(standard);
        assertNotEquals(name, GeneratedItchFile.fileName(BenchDay.STANDARD.simulation().ordersPerInstrument(150)));
        assertNotEquals(name, GeneratedItchFile.fileName(BenchDay.STANDARD.simulation().priceLevels(512)));
        assertNotEquals(name, GeneratedItchFile.fileName(BenchDay.STANDARD.simulation().farOrderShare(0.1)));
        assertNotEquals(name, GeneratedItchFile.fileName(BenchDay.STANDARD.simulation().farOrderLevels(90)));
    }

    @Test
    void shouldFindEachDayByItsParameterAndRefuseOthersNamingTheDays()
    {
        assertSame(BenchDay.STANDARD, BenchDay.named("standard"));
        assertSame(BenchDay.DEEP, BenchDay.named("deep"));
        assertEquals("day must be standard or deep, was 'DEEP'",
            assertThrows(IllegalArgumentException.class, () -> BenchDay.named("DEEP")).getMessage());
    }
}
