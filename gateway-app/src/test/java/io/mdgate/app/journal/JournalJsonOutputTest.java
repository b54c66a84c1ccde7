package io.mdgate.app.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.JsonFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code --json} output of {@code record}, {@code journal info} and {@code replay} (its summary and its packet
 * lines): one JSON object a line with the keys docs/OPERATIONS.md ("JSON output") lists, in that order, numbers as
 * numbers and nulls as null, and paths with quotes and control characters in them given back exactly.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JournalJsonOutputTest
{
    /** Quotes, a backslash, a tab, a newline and a control character: each must come back as it was. */
    private static final String AWKWARD = "j \"q\" \\b\tt\nn\u0001x";

    private static final List<String> RECORD_KEYS = List.of("file", "format", "journal", "messages", "malformed",
        "missingMessages", "ticks", "firstSequence", "lastSequence", "packets", "elapsedNanos", "ticksPerSecond");
    private static final List<String> INFO_KEYS = List.of("journal", "rollCycle", "ticks", "firstSequence",
        "lastSequence", "firstTime", "lastTime", "packets", "firstPacketTime", "lastPacketTime", "fileBytes",
        "tickRecordBytes", "verifiedTicks", "tickCycles", "packetCycles");
    private static final List<String> TICK_CYCLE_KEYS = List.of("file", "cycle", "records", "firstSequence",
        "lastSequence", "firstTime", "lastTime", "fileBytes");
    private static final List<String> PACKET_CYCLE_KEYS = List.of("file", "cycle", "records", "firstTime",
        "lastTime", "fileBytes");
    private static final List<String> REPLAY_KEYS = List.of("source", "records", "firstSequence", "lastSequence",
        "firstTime", "lastTime", "elapsedNanos", "ratePerSecond", "speed", "output");
    private static final List<String> PACKET_KEYS = List.of("receiveTimestamp", "line", "session", "sequence",
        "messages", "length");

    @TempDir
    Path dir;

    @Test
    void shouldPrintRecordInfoAndReplayAsOneObjectALineWithTheirKeysAndAPathWithQuotesAndControlCharacters()
        throws IOException
    {
        final Path awkward = Files.createDirectory(dir.resolve(AWKWARD));
        final Path capture = SimulatedJournal.capture(awkward, "day \"1\".pcap", 2_000, "2025-01-02");
        final Path journal = awkward.resolve("journal\t\"2\"");

        final CommandRun record = CommandRun.run(new RecordCommand(), capture.toString(), "--journal",
            journal.toString(), "--json");
        assertEquals(0, record.exitCode(), record::toString);
        final ObjectNode recorded = JsonFields.oneObjectLine(record.out());
        assertEquals(RECORD_KEYS, JsonFields.names(recorded));
        assertEquals(capture.toString(), recorded.get("file").textValue());
        assertEquals(journal.toString(), recorded.get("journal").textValue());
        assertEquals("PCAP", recorded.get("format").textValue());
        assertTrue(recorded.get("ticks").isIntegralNumber() && recorded.get("ticks").longValue() > 0, record.out());
        final long ticks = recorded.get("ticks").longValue();
        assertEquals(1, recorded.get("firstSequence").longValue());
        assertEquals(ticks, recorded.get("lastSequence").longValue());

        final CommandRun info = CommandRun.run(new JournalCommand(), "info", journal.toString(), "--json", "--verify");
        assertEquals(0, info.exitCode(), info::toString);
        final ObjectNode listed = JsonFields.oneObjectLine(info.out());
        assertEquals(INFO_KEYS, JsonFields.names(listed));
        assertEquals(journal.toString(), listed.get("journal").textValue());
        assertEquals(ticks, listed.get("ticks").longValue());
        assertEquals(ticks, listed.get("verifiedTicks").longValue());
        assertEquals(TICK_CYCLE_KEYS, JsonFields.names(listed.get("tickCycles").get(0)));
        assertEquals(PACKET_CYCLE_KEYS, JsonFields.names(listed.get("packetCycles").get(0)));

        final Path out = awkward.resolve("ticks \"3\"\n.json");
        final CommandRun replay = CommandRun.run(new ReplayCommand(), "--journal", journal.toString(),
            "--from-seq", "5", "--to-seq", "9", "--out", out.toString(), "--json");
        assertEquals(0, replay.exitCode(), replay::toString);
        final ObjectNode replayed = JsonFields.oneObjectLine(replay.out());
        assertEquals(REPLAY_KEYS, JsonFields.names(replayed));
        assertEquals(out.toString(), replayed.get("output").textValue());
        assertEquals(5, replayed.get("records").longValue());
        assertEquals(9, replayed.get("lastSequence").longValue());
        assertTrue(replayed.get("speed").isNull(), replay.out());
    }

    @Test
    void shouldWriteNullForWhatAnEmptyReplayDoesNotHave()
    {
        final Path journal = SimulatedJournal.journal(dir, 1_000);

        final CommandRun replay = CommandRun.run(new ReplayCommand(), "--journal", journal.toString(),
            "--from-seq", "900000", "--to-seq", "900001", "--out", dir.resolve("none.json").toString(), "--json",
            "--speed", "2.5");

        assertEquals(0, replay.exitCode(), replay::toString);
        final ObjectNode replayed = JsonFields.oneObjectLine(replay.out());
        assertEquals(REPLAY_KEYS, JsonFields.names(replayed));
        assertEquals(0, replayed.get("records").longValue());
        for (final String key : List.of("firstSequence", "lastSequence", "firstTime", "lastTime"))
        {
            assertTrue(replayed.get(key).isNull(), key + " in " + replay.out());
        }
        assertEquals(2.5, replayed.get("speed").doubleValue());
        assertTrue(replayed.get("speed").isFloatingPointNumber(), replay.out());
    }

    @Test
    void shouldPrintEachReplayedPacketAsOneObjectALine()
    {
        final Path journal = SimulatedJournal.journal(dir, 1_000);

        final CommandRun replay = CommandRun.run(new ReplayCommand(), "--journal", journal.toString(),
            "--from-seq", "100", "--to-seq", "300", "--source", "packets");

        assertEquals(0, replay.exitCode(), replay::toString);
        final List<ObjectNode> packets = JsonFields.objectLines(replay.out());
        assertTrue(packets.size() >= 2, replay::toString);
        for (final JsonNode packet : packets)
        {
            assertEquals(PACKET_KEYS, JsonFields.names(packet));
            assertEquals("SIM0000001", packet.get("session").textValue(), packet::toString);
            assertTrue(packet.get("sequence").isIntegralNumber() && packet.get("sequence").longValue() > 0,
                packet::toString);
            assertTrue(packet.get("messages").isIntegralNumber(), packet::toString);
            assertTrue(packet.get("receiveTimestamp").isIntegralNumber(), packet::toString);
        }
    }
}
