package io.mdgate.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.core.capture.DecodeSummary;
import io.mdgate.core.capture.MessageTally;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate ingress --json}: decode's object with {@code feed} and {@code ingress} after its keys, as one
 * compact line, whatever characters the source's name holds.
 */
class IngressReportTest
{
    /** The keys of {@code feed}, as docs/OPERATIONS.md ("JSON output") lists them. */
    static final List<String> FEED_KEYS = List.of("A", "B", "RECOVERY", "messagesDelivered", "messagesLost",
        "sessionChanges");
    /** The keys of each line in {@code feed}. */
    static final List<String> FEED_LINE_KEYS = List.of("packets", "messages", "duplicates", "heartbeats",
        "gapsOpened", "gapsFilledByOtherLine", "gapsFilledByRerequest", "gapsDeclaredLost", "malformed",
        "stalePeriods");
    /** The keys of {@code ingress}. */
    static final List<String> INGRESS_KEYS = List.of("source", "lines", "dropped", "port");

    @Test
    void shouldPrintDecodesKeysThenFeedAndIngressAsOneObjectOnOneLine()
    {
        final String source = "sockets on lo \"a\\b\"\t\u0001";
        final FeedSession session = new FeedSession(new FeedSession.Context()
            .messageHandler((buffer, offset, length, sequence) -> { })
            .gapHandler((first, count) -> { })
            .session("TEST")
            .firstSequence(1));
        final IngressStats stats = IngressStats.builder(source).line(FeedLines.A, 3, 300)
            .dropped(IngressStats.ARP, 2).port("frames", 5).build();
        final DecodeSummary summary = IngressReport.summary(source,
            IngressLines.parse("A=239.1.1.1:5000,B=239.1.1.2:5001"), new MessageTally(), session, stats, 1_000_000);

        final String line = IngressReport.json(summary, session, stats);
        final ObjectNode json = JsonFields.oneObjectLine(line + "\n");

        final List<String> keys = new ArrayList<>(JsonFields.names(JsonFields.object(summary.toJson())));
        keys.addAll(List.of("feed", "ingress"));
        assertEquals(keys, JsonFields.names(json));
        assertEquals(JsonFields.object(summary.toJson()), withoutFeedAndIngress(json), "decode's object unchanged");
        assertEquals(FEED_KEYS, JsonFields.names(json.get("feed")));
        assertEquals(FEED_LINE_KEYS, JsonFields.names(json.get("feed").get("RECOVERY")));
        assertEquals(INGRESS_KEYS, JsonFields.names(json.get("ingress")));
        assertEquals(source, json.get("ingress").get("source").textValue());
        assertEquals(source, json.get("file").textValue());
        assertEquals(300, json.get("ingress").get("lines").get("A").get("bytes").longValue());
        assertEquals(2, json.get("ingress").get("dropped").get(IngressStats.ARP).longValue());
        assertEquals(5, json.get("ingress").get("port").get("frames").longValue());
        assertTrue(line.contains(",\"elapsedMillis\":1.000,"), "the decimal as decode wrote it: " + line);
    }

    private static ObjectNode withoutFeedAndIngress(final ObjectNode json)
    {
        final ObjectNode copy = json.deepCopy();
        copy.remove(List.of("feed", "ingress"));
        return copy;
    }
}
