package io.mdgate.core.capture;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class DecodeSummaryBuilderTest
{
    @Test
    void shouldFillTheSummaryAsDecodeWouldPrintItAndLeaveTheRestEmpty()
    {
        final MessageTally tally = new MessageTally();
        final UnsafeBuffer message = new UnsafeBuffer(CaptureFixtures.itch('S', 7));
        tally.onMessage(message, 0, message.capacity(), 7);
        tally.onMessage(message, 0, message.capacity(), 8);

        final DecodeSummary summary = new DecodeSummaryBuilder()
            .source("net_pcap0,rx_pcap=s.pcap")
            .messages(tally)
            .gaps(1, 3)
            .duplicates(2)
            .packets(10, 1, true)
            .line(0, "233.54.12.111:26477", 6)
            .line(1, "233.49.196.111:26477", 4)
            .session("SIM0000001", 5)
            .malformedPackets(2)
            .frames(12, 11, 1, 0, 0, 1, 0)
            .volume(1234, 1_000_000)
            .build();

        final Map<String, Object> json = ReadJson.parseObject(summary.toJson());
        assertEquals(2L, json.get("messages"));
        assertEquals(2L, ((Map<?, ?>)json.get("counts")).get("S"));
        assertEquals(7L, json.get("firstSequence"));
        assertEquals(8L, json.get("lastSequence"));
        assertEquals(1L, json.get("gaps"));
        assertEquals(3L, json.get("missingMessages"));
        assertEquals(2L, json.get("malformed"));
        assertEquals(Boolean.TRUE, json.get("endOfSession"));
        assertEquals(Map.of("(other sessions)", 5L), json.get("otherSessions"));
        assertEquals(12L, ((Map<?, ?>)json.get("capture")).get("frames"));
        assertEquals("net_pcap0,rx_pcap=s.pcap", json.get("file"));
        assertNull(json.get("format"));
        assertEquals(2000L, json.get("messagesPerSecond"));
    }
}
