package io.mdgate.app.journal;

import io.mdgate.app.DecodeCommand;
import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.capture.ReadJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal's acceptance run on a smaller day: a simulated capture is recorded into a journal, and replays by
 * sequence and by time print exactly the ticks asked for, one JSON object a line, with contiguous gateway
 * sequences, each equal to the tick the decode path makes from the same capture.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RecordReplayAcceptanceTest
{
    private static final int MESSAGES = 100_000;

    @TempDir
    static Path dir;

    private static Path journal;
    private static Path capture;
    /** The decode path's ticks, by gateway sequence. */
    private static final Map<Long, Map<String, Object>> DECODED = new HashMap<>();
    private static final List<Long> DECODED_ORDER = new ArrayList<>();

    @BeforeAll
    static void recordASimulatedDay()
    {
        capture = dir.resolve("day.pcap");
        journal = dir.resolve("journal");
        final CommandRun sim = CommandRun.run(new SimCommand(), "--messages", Integer.toString(MESSAGES),
            "--pcap", capture.toString());
        assertEquals(0, sim.exitCode(), sim::toString);

        final CommandRun record = CommandRun.run(new RecordCommand(), capture.toString(), "--journal",
            journal.toString());
        assertEquals(0, record.exitCode(), record::toString);
        assertTrue(record.out().contains(String.format("%,d messages", MESSAGES)), record::toString);

        final CommandRun decode = decodeTicks(capture);
        assertEquals(0, decode.exitCode(), decode::toString);
        for (final String line : decode.lines())
        {
            if (line.startsWith("{\"gatewaySequence\""))
            {
                final Map<String, Object> tick = ReadJson.parseObject(line);
                final long sequence = ((Number)tick.get("gatewaySequence")).longValue();
                DECODED.put(sequence, tick);
                DECODED_ORDER.add(sequence);
            }
        }
        assertTrue(DECODED.size() > MESSAGES, "the decode path made " + DECODED.size() + " ticks");
    }

    @Test
    void shouldReplayExactlyTheTicksOfASequenceRangeAsJsonLines()
    {
        final long from = DECODED.size() / 3;
        final long to = from + 2_500;
        final CommandRun replay = CommandRun.run(new ReplayCommand(), "--journal", journal.toString(),
            "--from-seq", Long.toString(from), "--to-seq", Long.toString(to), "--to", "json");

        assertEquals(0, replay.exitCode(), replay::toString);
        assertTicks(replay.lines(), from, to);
        assertTrue(replay.err().startsWith("replayed 2,501 ticks " + from + ".." + to), replay.err());
    }

    @Test
    void shouldReplayExactlyTheTicksOfAnExchangeTimeRange()
    {
        final long fromTime = time(DECODED.size() / 2);
        final long toTime = fromTime + 20_000_000;
        final List<Long> expected = DECODED_ORDER.stream()
            .filter(sequence -> time(sequence) >= fromTime && time(sequence) <= toTime)
            .toList();
        assertTrue(expected.size() > 100, "the range holds " + expected.size() + " ticks");

        final CommandRun replay = CommandRun.run(new ReplayCommand(), "--journal", journal.toString(),
            "--from-time", Long.toString(fromTime), "--to-time", Long.toString(toTime), "--to", "json");

        assertEquals(0, replay.exitCode(), replay::toString);
        assertTicks(replay.lines(), expected.get(0), expected.get(expected.size() - 1));
        assertEquals(expected.size(), replay.lines().size());
    }

    @Test
    void shouldGiveBackTheRecordedCaptureAsAPcapThatDecodesToTheSameTicks()
    {
        final Path copy = dir.resolve("copy.pcap");
        final CommandRun replay = CommandRun.run(new ReplayCommand(), "--journal", journal.toString(),
            "--to", "pcap", "--out", copy.toString());
        assertEquals(0, replay.exitCode(), replay::toString);

        final CommandRun decode = decodeTicks(copy);
        final List<String> ticks = decode.lines().stream().filter(l -> l.startsWith("{\"gatewaySequence\"")).toList();
        assertEquals(DECODED.size(), ticks.size());
        for (final String line : ticks)
        {
            final Map<String, Object> tick = ReadJson.parseObject(line);
            assertEquals(DECODED.get(((Number)tick.get("gatewaySequence")).longValue()), tick);
        }
    }

    @Test
    void shouldReportTheWholeDayInTheJournalInfo()
    {
        final CommandRun info = CommandRun.run(new JournalCommand(), "info", journal.toString(), "--json", "--verify");
        assertEquals(0, info.exitCode(), info::toString);
        final Map<String, Object> json = ReadJson.parseObject(info.out().trim());
        assertEquals((long)DECODED.size(), ((Number)json.get("ticks")).longValue());
        assertEquals((long)DECODED.size(), ((Number)json.get("verifiedTicks")).longValue());
        assertEquals(1L, ((Number)json.get("firstSequence")).longValue());
        assertTrue(((Number)json.get("packets")).longValue() > 0);
    }

    private static CommandRun decodeTicks(final Path file)
    {
        return CommandRun.run(new DecodeCommand(), file.toString(), "--ticks", "--session-date", "2025-01-02");
    }

    private static long time(final long sequence)
    {
        return ((Number)DECODED.get(sequence).get("exchangeTimestamp")).longValue();
    }

    /**
     * Each line is the tick with the next sequence, equal to the decode path's but for receive time: the symbol too,
     * which the replay found in the ticks of the session before the range.
     */
    private static void assertTicks(final List<String> lines, final long from, final long to)
    {
        assertEquals(to - from + 1, lines.size());
        long expected = from;
        int named = 0;
        for (final String line : lines)
        {
            final Map<String, Object> tick = new HashMap<>(ReadJson.parseObject(line));
            assertEquals(expected, ((Number)tick.get("gatewaySequence")).longValue(), line);
            final long receive = ((Number)tick.remove("receiveTimestamp")).longValue();
            assertTrue(receive >= time(expected), "receive time " + receive + " before exchange time: " + line);
            final Map<String, Object> decoded = new HashMap<>(DECODED.get(expected));
            decoded.remove("receiveTimestamp");
            assertEquals(decoded, tick);
            named += tick.get("symbol") != null ? 1 : 0;
            expected++;
        }
        assertTrue(named > lines.size() / 2, named + " of " + lines.size() + " ticks with a symbol");
    }
}
