package io.mdgate.app.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mdgate.app.JsonFields;
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
        final DemoSummary summary = new DemoSummary(IngressMode.NETNS_DPDK,
            DemoConfig.CoreMap.RUN_TO_COMPLETION, DemoConsumer.Idle.YIELD, 20, 20_000, 30_000, 10_000, sim, counters,
            List.of(result("fast1", false, 10_000), result("slow", true, 50_000)),
            List.of(new LatencySeries("ingress_to_session", histogram(2_000), 1)), Path.of("/tmp/j"), List.of());

        final JsonNode json = JsonFields.oneObjectLine(summary.toJson() + "\n");

        assertEquals(List.of("ingress", "ingressDescription", "map", "consumerIdle", "durationSeconds", "rate",
            "elapsedMillis", "ok", "problems", "simulator", "gateway", "messagesPublished", "gaps", "consumers",
            "latencyNanos", "journal", "counters"), JsonFields.names(json));
        assertEquals(List.of("A", "B"), JsonFields.names(json.path("simulator").path("packets")));
        assertEquals(List.of("A", "B"), JsonFields.names(json.path("simulator").path("packetsDropped")));
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
        assertEquals("run-to-completion", json.path("map").asText());
        assertEquals("yield", json.path("consumerIdle").asText());
    }

    @Test
    void shouldShowEachStageInMicrosecondsWithTheSamplesItFoundNegative() throws Exception
    {
        final Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("latency.ingress_to_session.negative", 3L);
        counters.put("latency.ingress_to_egress.negative", 0L);
        final DemoSummary summary = new DemoSummary(IngressMode.NETNS_DPDK, DemoConfig.CoreMap.PIPELINE,
            DemoConsumer.Idle.SPIN, 20, 100_000, 30_000, 10_000, null, counters,
            List.of(result("fast1", false, 9_000), result("slow", true, 50_000)),
            List.of(new LatencySeries("ingress_to_session", histogram(2_500), 1),
                new LatencySeries("ingress_to_egress", histogram(4_000), 1)), Path.of("/tmp/j"), List.of());

        final String text = summary.toText();
        final JsonNode json = new ObjectMapper().readTree(summary.toJson());

        assertTrue(text.contains("core map: pipeline; consumers idle by spin"), text);
        assertTrue(text.matches("(?s).*ingress_to_session +100 +2\\.5 +2\\.5 +2\\.5 +2\\.5 +3\\R.*"), text);
        assertTrue(text.matches("(?s).*ingress_to_egress +100 +4\\.0 +4\\.0 +4\\.0 +4\\.0 +0\\R.*"), text);
        assertTrue(text.matches("(?s).*ingress_to_consumer +100 +9\\.0 +9\\.0 +9\\.0 +9\\.0 +2\\R.*"), text);
        assertEquals(3, json.path("latencyNanos").path("ingress_to_session").path("negative").asLong());
        assertEquals(2, json.path("latencyNanos").path("ingress_to_consumer").path("negative").asLong(),
            "the fast consumer's 2, not the slow one's 5");
    }

    @Test
    void shouldListProblemsInTheTextAndClearJsonVerdict() throws Exception
    {
        final DemoSummary summary = new DemoSummary(IngressMode.LOOPBACK_SOCKET,
            DemoConfig.CoreMap.PIPELINE, DemoConsumer.Idle.BACKOFF, 5, 100, 1, 1, null, Map.of(),
            List.of(), List.of(), Path.of("j"), List.of("3 gaps were declared lost"));

        assertTrue(summary.toText().contains("PROBLEM: 3 gaps were declared lost"), summary.toText());
        assertFalse(summary.toText().contains("exactly once"));
        assertFalse(new ObjectMapper().readTree(summary.toJson()).path("ok").asBoolean());
    }

    private static DemoConsumer.Result result(final String name, final boolean slow, final long latencyNanos)
    {
        return new DemoConsumer.Result(name, DeliveryPath.RING, slow, 1_000, 1, 1_000, 0, 0, null,
            histogram(latencyNanos), slow ? 5 : 2, 0, null);
    }

    private static Histogram histogram(final long value)
    {
        final Histogram h = new Histogram(3);
        h.recordValueWithCount(value, 100);
        return h;
    }
}
