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
}
