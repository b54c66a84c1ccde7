package io.mdgate.core.capture;

import io.mdgate.core.itch.ItchMessageType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecodeSummaryTest
{
    private static DecodeSummary sample()
    {
        final DecodeSummary summary = new DecodeSummary();
        summary.file = "dir/odd \"name\"\\with\ttab\u0001.pcap";
        summary.format = ItchFileFormat.PCAP;
        summary.messages = 7;
        summary.counts['A'] = 5;
        summary.counts['S'] = 2;
        summary.lengthMismatch = 1;
        summary.moldBlockOverrun = 2;
        summary.truncatedRecords = 1;
        summary.gaps = 1;
        summary.missingMessages = 4;
        summary.gapRanges = 1;
        summary.gapFirst[0] = 10;
        summary.gapLast[0] = 13;
        summary.firstSequence = 3;
        summary.lastSequence = 20;
        summary.lineDestinations[0] = "233.54.12.111:26477";
        summary.linePackets[0] = 9;
        summary.session = "000010059B";
        summary.otherSessions.put("OTHER\u0000", 3L);
        summary.elapsedNanos = 2_000_000;
        return summary;
    }

    @Test
    void shouldStartTheJsonWithTheKeysScriptsRelyOnInTheirOrder()
    {
        final Map<String, Object> json = ReadJson.parseObject(sample().toJson());
        final List<String> keys = new ArrayList<>(json.keySet());

        assertEquals(List.of("messages", "counts", "malformed", "gaps", "firstSequence", "lastSequence"),
            keys.subList(0, 6));
        assertEquals(7L, json.get("messages"));
        assertEquals(4L, json.get("malformed"));
        assertEquals(1L, json.get("gaps"));
        assertEquals(3L, json.get("firstSequence"));
        assertEquals(20L, json.get("lastSequence"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldListEveryItchTypeInTheCountsEvenWhenAbsent()
    {
        final Map<String, Object> counts = (Map<String, Object>)ReadJson.parseObject(sample().toJson()).get("counts");

        assertEquals(ItchMessageType.ALL.length, counts.size());
        assertEquals(5L, counts.get("A"));
        assertEquals(2L, counts.get("S"));
        assertEquals(0L, counts.get("h"));
        assertEquals(0L, counts.get("O"));
    }

    @Test
    void shouldEscapeQuotesBackslashesAndControlCharactersInStrings()
    {
        final String json = sample().toJson();
        final Map<String, Object> parsed = ReadJson.parseObject(json);

        assertEquals(sample().file(), parsed.get("file"));
        assertTrue(json.contains("\\\"name\\\"\\\\with\\ttab\\u0001"), json);
        assertEquals(Map.of("OTHER\u0000", 3L), parsed.get("otherSessions"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldBreakDownTheMalformedCountAndKeepTheGapRanges()
    {
        final Map<String, Object> json = ReadJson.parseObject(sample().toJson());
        final Map<String, Object> detail = (Map<String, Object>)json.get("malformedDetail");
        final List<Object> ranges = (List<Object>)json.get("gapRanges");

        assertEquals(1L, detail.get("lengthMismatch"));
        assertEquals(2L, detail.get("moldBlockOverrun"));
        assertEquals(1L, detail.get("truncatedRecords"));
        assertEquals(List.of(Map.of("first", 10L, "last", 13L, "missing", 4L)), ranges);
        assertEquals(4L, json.get("missingMessages"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldKeepTheSameKeysWhetherOrNotTheInputWasACapture()
    {
        final Map<String, Object> capture = ReadJson.parseObject(sample().toJson());
        final DecodeSummary file = new DecodeSummary();
        file.format = ItchFileFormat.DAILY;
        final Map<String, Object> daily = ReadJson.parseObject(file.toJson());

        assertEquals(capture.keySet(), daily.keySet());
        assertNull(daily.get("session"));
        final Map<String, Object> lines = (Map<String, Object>)daily.get("lines");
        assertEquals(Map.of("destination", "233.54.12.111:26477", "packets", 9L),
            ((Map<String, Object>)capture.get("lines")).get("A"));
        assertTrue(((Map<String, Object>)lines.get("B")).containsKey("destination"));
    }

    @Test
    void shouldComputeTheRateFromTheElapsedTime()
    {
        assertEquals(3500, sample().messagesPerSecond());
        assertEquals(0, new DecodeSummary().messagesPerSecond());
        assertEquals(3500L, ReadJson.parseObject(sample().toJson()).get("messagesPerSecond"));
        assertEquals(2.0, ReadJson.parseObject(sample().toJson()).get("elapsedMillis"));
    }

    @Test
    void shouldPrintOnlyThePresentTypesAndWhatWentWrongInTheText()
    {
        final String text = sample().toText();

        assertTrue(text.contains("Add Order"), text);
        assertTrue(text.matches("(?s).*A  Add Order\\s+5\\R.*"), text);
        assertFalse(text.contains("Broken Trade"), text);
        assertTrue(text.contains("length mismatch 1"), text);
        assertTrue(text.contains("missing 10..13 (4)"), text);
        assertTrue(text.contains("OTHER\\x00"), text);
        assertTrue(text.contains("233.54.12.111:26477, 9 packets"), text);
    }
}
