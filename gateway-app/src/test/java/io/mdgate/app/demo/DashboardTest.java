package io.mdgate.app.demo;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DashboardTest
{
    @Test
    void shouldShowEachFeedLineAsARowWithRatesFromThePreviousSnapshot()
    {
        final Map<String, Long> before = Map.of("feed.A.packets", 1_000L, "feed.B.packets", 900L);
        final Map<String, Long> now = new LinkedHashMap<>();
        now.put("feed.A.packets", 3_000L);
        now.put("feed.A.messages", 30_000L);
        now.put("feed.B.packets", 2_900L);

        final String frame = Dashboard.render(List.of("mdgate demo"), now, before, 2.0);

        assertTrue(frame.startsWith("mdgate demo\n"), frame);
        final String rowA = row(frame, "A");
        assertTrue(rowA.contains("3,000 (1000/s)"), frame);
        assertTrue(rowA.contains("30,000"), frame);
        assertFalse(rowA.contains("30,000 ("), "no rate without a previous value: " + frame);
        assertTrue(row(frame, "B").contains("2,900 (1000/s)"), frame);
        assertTrue(row(frame, "B").trim().endsWith("-"), "a column the line lacks shows '-': " + frame);
    }

    @Test
    void shouldShowLatencyPercentilesPerStageInMicroseconds()
    {
        final Map<String, Long> now = new LinkedHashMap<>();
        now.put("latency.ingress_session.p50_ns", 1_500L);
        now.put("latency.ingress_session.p99_ns", 12_000L);
        now.put("latency.ingress_session.p999_ns", 250_000L);

        final String frame = Dashboard.render(List.of(), now, Map.of(), 1.0);

        assertTrue(frame.contains("latency (us)"), frame);
        final String[] cells = row(frame, "ingress_session").trim().split("\\s+");
        assertEquals(List.of("ingress_session", "1.5", "12.0", "250.0"), List.of(cells), frame);
        assertTrue(frame.contains("p999"), frame);
    }

    @Test
    void shouldTabulateConsumersAndGroupGapsJournalAndAnythingElse()
    {
        final Map<String, Long> now = new LinkedHashMap<>();
        now.put("feed.gaps.opened", 12L);
        now.put("feed.gaps.filled_by_other_line", 10L);
        now.put("journal.position", 4_096L);
        now.put("egress.consumer.slow.lag", 777L);
        now.put("egress.consumer.fast.lag", 0L);
        now.put("egress.published", 5L);
        now.put("housekeeping.duty_cycles", 42L);

        final String frame = Dashboard.render(List.of(), now, Map.of(), 1.0);

        assertTrue(frame.contains("gaps\n  opened 12   filled_by_other_line 10\n"), frame);
        assertTrue(frame.contains("journal\n  position 4,096\n"), frame);
        assertTrue(row(frame, "slow").contains("777"), frame);
        assertTrue(row(frame, "fast").trim().endsWith("0"), frame);
        assertTrue(frame.contains("egress\n  published 5\n"), frame);
        assertTrue(frame.contains("other\n  housekeeping.duty_cycles 42\n"), frame);
        assertEquals(1, frame.split("777", -1).length - 1, "each counter is shown once: " + frame);
    }

    private static String row(final String frame, final String name)
    {
        return frame.lines().filter(l -> l.startsWith("  " + name + " ")).findFirst()
            .orElseThrow(() -> new AssertionError("no row " + name + " in:\n" + frame));
    }
}
