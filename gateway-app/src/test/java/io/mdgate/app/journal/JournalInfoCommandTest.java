package io.mdgate.app.journal;

import io.mdgate.core.capture.ReadJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JournalInfoCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldListCyclesSequencesTimesCountsAndSize()
    {
        final Path journal = SimulatedJournal.journal(dir, 3_000);

        final CommandRun text = CommandRun.run(new JournalCommand(), "info", journal.toString(), "--verify");
        final CommandRun json = CommandRun.run(new JournalCommand(), "info", journal.toString(), "--json");

        assertEquals(0, text.exitCode(), text::toString);
        final Map<String, Object> info = ReadJson.parseObject(json.out().trim());
        final long ticks = ((Number)info.get("ticks")).longValue();
        assertTrue(text.out().contains(String.format("sequence 1..%d", ticks)), text::toString);
        assertTrue(text.out().contains("roll cycle     hourly"), text::toString);
        assertTrue(text.out().contains(String.format("verified       %,d ticks", ticks)), text::toString);
        assertTrue(text.out().contains("20250102-14L.cq4"), text::toString);
        assertEquals("HOURLY", info.get("rollCycle"));
        assertEquals(1L, ((Number)info.get("firstSequence")).longValue());
        assertTrue(((Number)info.get("fileBytes")).longValue() > ticks * 64);
        final List<?> cycles = (List<?>)info.get("tickCycles");
        assertEquals(1, cycles.size());
        assertEquals(ticks, ((Number)((Map<?, ?>)cycles.get(0)).get("records")).longValue());
    }

    @Test
    void shouldRefuseAMissingDirectoryAndAMissingSubcommandWithExitCodeTwo()
    {
        final CommandRun missing = CommandRun.run(new JournalCommand(), "info", dir.resolve("none").toString());
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("no such directory"), missing::toString);

        final CommandRun bare = CommandRun.run(new JournalCommand());
        assertEquals(2, bare.exitCode(), bare::toString);
        assertTrue(bare.err().contains("Missing command"), bare::toString);
    }
}
