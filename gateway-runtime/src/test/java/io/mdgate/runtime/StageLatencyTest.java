package io.mdgate.runtime;

import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StageLatencyTest
{
    @TempDir
    Path dir;

    @Test
    void shouldCountANegativeSampleRatherThanRecordItAsZero()
    {
        try (CountersFileWriter counters = CountersFileWriter.create(dir.resolve("c"), "t", 64, 4096);
            StageLatency latency = new StageLatency("ingress_to_session", counters, null, 0);
            CountersFile file = CountersFile.open(dir.resolve("c")))
        {
            latency.record(-3_000);
            latency.record(-1);
            latency.record(2_000);
            latency.record(2_000);
            latency.publish(0);
            assertEquals(2, file.snapshot().value("latency.ingress_to_session.negative"));
            assertEquals(2, file.snapshot().value("latency.ingress_to_session.samples"), "only the real samples");
            final long p50 = file.snapshot().value("latency.ingress_to_session.p50_ns");
            assertTrue(p50 >= 1_990 && p50 <= 2_010, "the median is not pulled to 0: " + p50);
        }
    }
}
