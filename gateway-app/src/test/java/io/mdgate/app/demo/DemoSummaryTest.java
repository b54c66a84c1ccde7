package io.mdgate.app.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mdgate.app.report.LatencySeries;
import io.mdgate.egress.consumer.DeliveryPath;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoSummaryTest
{
    @Test
    void shouldReportPublishedGapsConsumersAndLatencyAsJson() throws Exception
    {
        final Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("egress.ticks_published", 1_000L);
        counters.put("egress.last_sequence", 1_000L);
        counters.put("feed.gaps.opened", 7L);
        counters.put("feed.gaps.filled_by_other_line", 4L);
        counters.put("feed.gaps.filled_by_rerequest", 3L);
        counters.put("feed.gaps.lost", 0L);
        final JsonNode sim = new ObjectMapper().readTree("{\"messages\":900,\"packets\":{\"A\":500,\"B\":501}," +
            "\"faults\":{\"A\":{\"lost\":5},\"B\":{\"lost\":6}},\"retransmit\":{\"answered\":3}}");
        final DemoSummary summary = new DemoSummary(IngressMode.NETNS_DPDK, 20, 20_000, 30_000, 10_000, sim, counters,
            List.of(result("fast1", false, 10_000), result("slow", true, 50_000)),
            List.of(new LatencySeries("ingress_to_session", histogram(2_000), 1)), Path.of("/tmp/j"), List.of());

        final JsonNode json = new ObjectMapper().readTree(summary.toJson());

        assertTrue(json.path("ok").asBoolean());
        assertEquals(1_000, json.path("messagesPublished").asLong());
        assertEquals(7, json.path("gaps").path("opened").asLong());
        assertEquals(7, json.path("gaps").path("filled").asLong(), "other line + re-request");
        assertEquals(0, json.path("gaps").path("lost").asLong());
        assertEquals(1_000, json.path("consumers").path("fast1").path("received").asLong());
        assertTrue(json.path("consumers").path("slow").path("slow").asBoolean());
        assertEquals(11, json.path("simulator").path("packetsDropped").path("A").asLong() +
            json.path("simulator").path("packetsDropped").path("B").asLong());
        assertEquals(90, json.path("simulator").path("achievedRate").asLong(), "900 messages in 10 s");
        assertEquals(2_000, json.path("latencyNanos").path("ingress_to_session").path("p50").asLong(), 2);
        assertEquals(10_000, json.path("latencyNanos").path("ingress_to_consumer").path("p99").asLong(), 10,
            "end to end from the fast consumers only, not the slow one's 50 us");
    }

    @Test
    void shouldListProblemsInTheTextAndClearJsonVerdict() throws Exception
    {
        final DemoSummary summary = new DemoSummary(IngressMode.LOOPBACK_SOCKET, 5, 100, 1, 1, null, Map.of(),
            List.of(), List.of(), Path.of("j"), List.of("3 gaps were declared lost"));

        assertTrue(summary.toText().contains("PROBLEM: 3 gaps were declared lost"), summary.toText());
        assertFalse(summary.toText().contains("exactly once"));
        assertFalse(new ObjectMapper().readTree(summary.toJson()).path("ok").asBoolean());
    }

    private static DemoConsumer.Result result(final String name, final boolean slow, final long latencyNanos)
    {
        return new DemoConsumer.Result(name, DeliveryPath.RING, slow, 1_000, 1, 1_000, 0, 0, null,
            histogram(latencyNanos), null);
    }

    private static Histogram histogram(final long value)
    {
        final Histogram h = new Histogram(3);
        h.recordValueWithCount(value, 100);
        return h;
    }
}
