package io.mdgate.bench.floor;

import io.mdgate.app.demo.DemoConsumer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class HandOffFloorTest
{
    @Test
    void shouldHandOverAndTimeEveryMessageItSendsAtTheOfferedRate() throws InterruptedException
    {
        final HandOffFloor floor = new HandOffFloor(2_000, 1, 0, 0, DemoConsumer.Idle.YIELD);

        final long start = System.nanoTime();
        final String json = floor.run();
        final long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        assertTrue(json.contains("\"sent\":2000,\"received\":2000,"), json);
        assertTrue(json.contains("\"negative\":0,\"latencyNanos\":{\"samples\":2000,"), "every message timed: " + json);
        assertTrue(json.contains("\"error\":null"), json);
        assertTrue(elapsedMillis >= 990, "2,000 messages at 2,000 msg/s take a second, took " + elapsedMillis + " ms");
    }
}
