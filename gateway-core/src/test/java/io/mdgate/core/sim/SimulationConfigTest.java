package io.mdgate.core.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulationConfigTest
{
    private static String refusal(final SimulationConfig config)
    {
        return assertThrows(IllegalArgumentException.class, config::conclude).getMessage();
    }

    @Test
    void shouldAcceptTheDefaults()
    {
        final SimulationConfig config = new SimulationConfig();
        assertSame(config, config.conclude());
        assertEquals(RateProfile.STEADY, config.rateProfile());
    }

    @Test
    void shouldRefuseTooFewMessagesSayingHowManyAreNeeded()
    {
        final String message = refusal(new SimulationConfig().instruments(100).messages(100));
        assertTrue(message.contains("at least 907"), message);
    }

    @Test
    void shouldRefuseInstrumentsOutOfRange()
    {
        assertTrue(refusal(new SimulationConfig().instruments(0)).contains("instruments must be between 1 and"));
        assertTrue(refusal(new SimulationConfig().instruments(SimulationConfig.MAX_INSTRUMENTS + 1)
            .messages(1_000_000)).contains("instruments"));
    }

    @Test
    void shouldRefuseARateTooSlowForTheTradingDay()
    {
        final String message = refusal(new SimulationConfig().messages(5_000_000).messagesPerSecond(10));
        assertTrue(message.contains("past the end of the trading day"), message);
        assertTrue(message.contains("at least 174"), message);
    }

    @Test
    void shouldRefuseABurstMultiplierBelowOne()
    {
        assertTrue(refusal(new SimulationConfig().burstMultiplier(0.5)).contains("burstMultiplier"));
    }

    @Test
    void shouldPlaceMidnightInTheExchangeTimeZone()
    {
        // 2025-01-02 00:00 in New York is 05:00 UTC.
        assertEquals(1_735_794_000_000_000_000L, new SimulationConfig().midnightEpochNanos());
    }

    @Test
    void shouldRefusePriceLevelsOutOfRangeNamingTheRange()
    {
        final String message = refusal(new SimulationConfig().priceLevels(SimulationConfig.MIN_PRICE_LEVELS - 1));
        assertTrue(message.startsWith("priceLevels must be between 128 and 2048, was 127"), message);
        assertTrue(refusal(new SimulationConfig().priceLevels(SimulationConfig.MAX_PRICE_LEVELS + 1))
            .contains("was 2049"));
    }

    @Test
    void shouldRefuseAFarOrderShareOutsideZeroToOne()
    {
        assertEquals("farOrderShare must be between 0 and 1, was -0.1",
            refusal(new SimulationConfig().farOrderShare(-0.1)));
        assertEquals("farOrderShare must be between 0 and 1, was 1.5",
            refusal(new SimulationConfig().farOrderShare(1.5)));
        assertEquals("farOrderShare must be between 0 and 1, was NaN",
            refusal(new SimulationConfig().farOrderShare(Double.NaN)));
    }

    @Test
    void shouldRefuseFarOrdersNoFurtherThanTheNearOnesOrPastHalfTheWindow()
    {
        final String tooNear = refusal(new SimulationConfig().farOrderShare(0.2).farOrderLevels(24));
        assertTrue(tooNear.startsWith("farOrderLevels must be between 25 and 96 (priceLevels / 2 - 32) with " +
            "priceLevels 256, was 24"), tooNear);
        final String tooFar = refusal(new SimulationConfig().priceLevels(1024).farOrderShare(0.2).farOrderLevels(481));
        assertTrue(tooFar.contains("between 25 and 480") && tooFar.contains("raise priceLevels"), tooFar);
    }

    @Test
    void shouldAcceptTheDeepestFarOrdersTheWindowHoldsAndIgnoreTheirDepthWhenNoneGoFar()
    {
        final SimulationConfig deepest = new SimulationConfig().priceLevels(1024).farOrderShare(1).farOrderLevels(480);
        assertSame(deepest, deepest.conclude());
        final SimulationConfig unused = new SimulationConfig().farOrderLevels(5000);
        assertSame(unused, unused.conclude());
    }
}
