package io.mdgate.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The machine-readable outputs, as {@code | jq} reads them: with {@code --json} (or JSON ticks) stdout holds JSON
 * objects, one a line, and nothing else; the human summary goes to stderr. Run through {@link Main} as the
 * operator runs them. {@code consume} is checked in EgressCommandsTest, which has the publisher it needs.
 */
@Timeout(120)
class NdjsonOutputTest
{
    private static final int MESSAGES = 5_000;

    @TempDir
    static Path dir;

    private static Path capture;
    private static Path journal;

    @BeforeAll
    static void simulateAndRecord()
    {
        capture = dir.resolve("sim.pcap");
        journal = dir.resolve("journal");
        final Run sim = Run.of("sim", "--pcap", capture.toString(), "--messages", "" + MESSAGES, "--json");
        assertEquals(0, sim.exitCode, sim.err);
        final Run record = Run.of("record", capture.toString(), "--journal", journal.toString());
        assertEquals(0, record.exitCode, record.err);
    }

    @Test
    void shouldPrintOnlyOneJsonObjectOnStdoutForSimJson()
    {
        final Run sim = Run.of("sim", "--messages", "2000", "--json");

        assertEquals(0, sim.exitCode, sim.err);
        assertEquals(2_000, JsonLines.single(sim.out).get("messages").asLong(), sim.out);
    }

    @Test
    void shouldPrintOnlyOneJsonObjectOnStdoutForRecordJson()
    {
        final Run record = Run.of("record", capture.toString(), "--journal", dir.resolve("r2").toString(), "--json");

        assertEquals(0, record.exitCode, record.err);
        assertEquals(MESSAGES, JsonLines.single(record.out).get("messages").asLong(), record.out);
    }

    @Test
    void shouldPrintOnlyOneJsonObjectOnStdoutForJournalInfoJson()
    {
        final Run info = Run.of("journal", "info", journal.toString(), "--json", "--verify");

        assertEquals(0, info.exitCode, info.err);
        assertTrue(JsonLines.single(info.out).get("ticks").asLong() > MESSAGES / 2, info.out);
    }

    @Test
    void shouldPrintOnlyTickObjectsOnStdoutForReplayToJsonAndTheSummaryOnStderr()
    {
        final Run replay = Run.of("replay", "--journal", journal.toString(), "--to", "json");

        assertEquals(0, replay.exitCode, replay.err);
        final List<JsonNode> ticks = JsonLines.parse(replay.out);
        for (int i = 0; i < ticks.size(); i++)
        {
            assertEquals(i + 1, ticks.get(i).get("gatewaySequence").asLong(), ticks.get(i).toString());
        }
        assertTrue(replay.err.startsWith(String.format(java.util.Locale.ROOT, "replayed %,d ticks", ticks.size())),
            replay.err);
    }

    @Test
    void shouldPrintOnlyTickObjectsOnStdoutForDecodeTicksAndTheJsonSummaryOnStderr()
    {
        final Run decode = Run.of("decode", capture.toString(), "--ticks", "--json");

        assertEquals(0, decode.exitCode, decode.err);
        final List<JsonNode> ticks = JsonLines.parse(decode.out);
        assertTrue(ticks.size() > MESSAGES / 2, "ticks: " + ticks.size());
        assertTrue(ticks.stream().allMatch(t -> t.has("gatewaySequence") && t.has("event")), decode.out);
        assertEquals(MESSAGES, JsonLines.single(decode.err).get("messages").asLong(), decode.err);
    }

    /** A command run through {@link Main#commandLine()} with stdout and stderr captured. */
    private record Run(int exitCode, String out, String err)
    {
        static Run of(final String... args)
        {
            final StringWriter out = new StringWriter();
            final StringWriter err = new StringWriter();
            final CommandLine commandLine = Main.commandLine();
            commandLine.setOut(new PrintWriter(out, true));
            commandLine.setErr(new PrintWriter(err, true));
            final int exitCode = commandLine.execute(args);
            return new Run(exitCode, out.toString(), err.toString());
        }
    }
}
