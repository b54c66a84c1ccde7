package io.mdgate.app.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.JsonFields;
import io.mdgate.core.itch.ItchMessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate sim --json}: one JSON object on one line with the keys docs/SIMULATOR.md lists, in that order;
 * session names and the output given back exactly, whatever characters they hold.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimSummaryJsonTest
{
    private static final List<String> KEYS = List.of("messages", "counts", "packets", "framed", "faults", "session",
        "firstSequence", "lastSequence", "sessions", "lagBMillis", "seed", "instruments", "output", "firstTimestamp",
        "lastTimestamp", "sendFailures", "retransmit", "elapsedMillis");
    private static final List<String> FAULT_KEYS = List.of("lost", "reordered", "duplicated", "corrupted", "stray",
        "farAhead");
    private static final List<String> RETRANSMIT_KEYS = List.of("address", "port", "answerLimit", "requests",
        "answered", "messagesResent", "limited", "malformed", "wrongSession", "unavailable");

    @TempDir
    Path dir;

    @Test
    void shouldPrintTheSummaryAsOneObjectWithTheDocumentedKeys()
    {
        final Path pcap = dir.resolve("s.pcap");

        final SimCommandTest.Result result = SimCommandTest.sim("--messages", "2000", "--pcap", pcap.toString(),
            "--json");

        assertEquals(0, result.exitCode(), result::toString);
        final ObjectNode json = JsonFields.oneObjectLine(result.out());
        assertEquals(KEYS, JsonFields.names(json));
        assertEquals(2000, json.get("messages").longValue());
        assertEquals(expectedTypes(), JsonFields.names(json.get("counts")));
        assertEquals(List.of("A", "B"), JsonFields.names(json.get("packets")));
        assertEquals(List.of("data", "heartbeats", "endOfSession"), JsonFields.names(json.get("framed")));
        assertEquals(FAULT_KEYS, JsonFields.names(json.get("faults").get("A")));
        assertEquals(FAULT_KEYS, JsonFields.names(json.get("faults").get("B")));
        assertEquals(List.of("session", "messages"), JsonFields.names(json.get("sessions").get(0)));
        assertTrue(json.get("lagBMillis").isFloatingPointNumber(), result.out());
        assertTrue(json.get("retransmit").isNull(), result.out());
        assertTrue(json.get("output").textValue().startsWith("pcap " + pcap + " "), result.out());
    }

    @Test
    void shouldGiveBackSessionNamesAndTheOutputWithQuotesBackslashesAndControlCharacters()
    {
        final String first = "S\"1\\\t\u0001";
        final String second = "S2\n\"x\"";
        final String output = "pcap C:\\tmp\\\"s\".pcap\r\n";
        final long[] counts = new long[256];
        counts['A'] = 7;
        final SimSummary summary = new SimSummary(42, 3, 9, counts,
            List.of(new SimSummary.SessionReport(first, 5), new SimSummary.SessionReport(second, 4)), 1, 2, 3, 4, 1,
            new SimSummary.LineReport(10, 1, 0, 0, 0, 0, 0), new SimSummary.LineReport(11, 0, 0, 0, 0, 0, 0), 1_500_000,
            output, 0, new SimSummary.RetransmitReport("10.0.0.\"1", 26400, 8, 2, 1, 3, 0, 0, 0, 1), 12);

        final ObjectNode json = JsonFields.oneObjectLine(summary.toJson() + "\n");

        assertEquals(KEYS, JsonFields.names(json));
        assertEquals(first, json.get("session").textValue());
        assertEquals(first, json.get("sessions").get(0).get("session").textValue());
        assertEquals(second, json.get("sessions").get(1).get("session").textValue());
        assertEquals(output, json.get("output").textValue());
        assertEquals(7, json.get("counts").get("A").longValue());
        assertEquals(1.5, json.get("lagBMillis").doubleValue());
        final JsonNode retransmit = json.get("retransmit");
        assertEquals(RETRANSMIT_KEYS, JsonFields.names(retransmit));
        assertEquals("10.0.0.\"1", retransmit.get("address").textValue());
        assertEquals(26400, retransmit.get("port").intValue());
    }

    private static List<String> expectedTypes()
    {
        final List<String> types = new ArrayList<>();
        for (final byte type : ItchMessageType.ALL)
        {
            types.add(String.valueOf((char)type));
        }
        return types;
    }
}
