package io.mdgate.runtime.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryIntervalConfigTest
{
    @Test
    void shouldDefaultTheRetryIntervalToTheFeedSessionsOwn()
    {
        assertEquals(2, ConfigLoader.parse(ConfigLoaderTest.MINIMAL).feed().retryIntervalMs());
    }

    @Test
    void shouldReadTheRetryInterval()
    {
        final String toml = ConfigLoaderTest.MINIMAL.replace("[feed]\n", "[feed]\nretry_interval_ms = 25\n");

        assertEquals(25, ConfigLoader.parse(toml).feed().retryIntervalMs());
    }

    @Test
    void shouldRefuseARetryIntervalOfZero()
    {
        final String toml = ConfigLoaderTest.MINIMAL.replace("[feed]\n", "[feed]\nretry_interval_ms = 0\n");

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml));
        assertTrue(ex.getMessage().contains("feed.retry_interval_ms"), ex.getMessage());
    }
}
