package io.mdgate.app.journal;

import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.capture.CaptureFixtures;
import io.mdgate.core.capture.ReadJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RecordCommandTest
{
    @TempDir
    Path dir;

    private static Map<String, Object> record(final Path file, final Path journal, final String... extra)
    {
        final String[] args = new String[extra.length + 4];
        args[0] = file.toString();
        args[1] = "--journal";
        args[2] = journal.toString();
        args[3] = "--json";
        System.arraycopy(extra, 0, args, 4, extra.length);
        final CommandRun run = CommandRun.run(new RecordCommand(), args);
        assertEquals(0, run.exitCode(), run::toString);
        return ReadJson.parseObject(run.out().trim());
    }

    private static long number(final Map<String, Object> json, final String key)
    {
        return ((Number)json.get(key)).longValue();
    }

    @Test
    void shouldContinueTheGatewaySequenceWhenALaterDayIsRecordedIntoTheSameJournal()
    {
        final Path journal = dir.resolve("journal");
        final Map<String, Object> first =
            record(SimulatedJournal.capture(dir, "d1.pcap", 2_000, "2025-01-02"), journal);
        final Map<String, Object> second =
            record(SimulatedJournal.capture(dir, "d2.pcap", 2_000, "2025-01-03"), journal);

        assertEquals(1, number(first, "firstSequence"));
        assertEquals(number(first, "lastSequence") + 1, number(second, "firstSequence"));
        assertEquals(2_000, number(second, "messages"));
        assertTrue(number(second, "packets") > 0);

        final CommandRun info = CommandRun.run(new JournalCommand(), "info", journal.toString(), "--json");
        final Map<String, Object> json = ReadJson.parseObject(info.out().trim());
        assertEquals(number(second, "lastSequence"), number(json, "ticks"));
        assertEquals(2, ((java.util.List<?>)json.get("tickCycles")).size(), "one hourly cycle per day");
    }

    @Test
    void shouldRefuseAFileThatWouldTakeTheJournalBackInTimeAndLeaveTheJournalAsItWas()
    {
        final Path journal = dir.resolve("journal");
        final Path capture = SimulatedJournal.capture(dir, "d1.pcap", 2_000, "2025-01-02");
        final long ticks = number(record(capture, journal), "ticks");

        final CommandRun again = CommandRun.run(new RecordCommand(), capture.toString(), "--journal", journal.toString());

        assertEquals(1, again.exitCode(), again::toString);
        assertTrue(again.err().contains("time must not go backwards within a journal"), again::toString);
        final CommandRun info = CommandRun.run(new JournalCommand(), "info", journal.toString(), "--json");
        assertEquals(ticks, number(ReadJson.parseObject(info.out().trim()), "ticks"));
    }

    @Test
    void shouldStartAtSequenceOneAsRunDoesSoACaptureJoinedLateBeginsWithOneGapTick()
    {
        final Path late = CaptureFixtures.write(dir, "late.pcap", new CaptureFixtures.Pcap()
            .udp(CaptureFixtures.GROUP_A, CaptureFixtures.moldPacketOfAdds(CaptureFixtures.SESSION, 100, 2))
            .toBytes());

        final Map<String, Object> summary = record(late, dir.resolve("journal"), "--session-date", "2025-01-03");

        assertEquals(99, number(summary, "missingMessages"), "sequences 1..99, before the capture's first packet");
        assertEquals(2, number(summary, "messages"));
        assertEquals(1, number(summary, "firstSequence"));
    }

    @Test
    void shouldJournalOnlyTheSessionGivenWithSession()
    {
        final Path capture = CaptureFixtures.write(dir, "two-sessions.pcap", new CaptureFixtures.Pcap()
            .udp(CaptureFixtures.GROUP_A, CaptureFixtures.moldPacketOfAdds("OTHERSESS1", 1, 3))
            .udp(CaptureFixtures.GROUP_A, CaptureFixtures.moldPacketOfAdds(CaptureFixtures.SESSION, 1, 2))
            .udp(CaptureFixtures.GROUP_A, CaptureFixtures.moldPacketOfAdds("OTHERSESS1", 4, 3))
            .toBytes());

        final Map<String, Object> byCount = record(capture, dir.resolve("by-count"), "--session-date", "2025-01-03");
        final Map<String, Object> given = record(capture, dir.resolve("given"), "--session-date", "2025-01-03",
            "--session", CaptureFixtures.SESSION);

        assertEquals(6, number(byCount, "messages"), "without --session: the name in the most packets, OTHERSESS1");
        assertEquals(2, number(given, "messages"));
        assertEquals(0, number(given, "missingMessages"));
    }

    @Test
    void shouldSayHowToAppendACaptureJoinedLateWhenItsLeadingGapWouldTakeTheJournalBackInTime()
    {
        final Path journal = dir.resolve("journal");
        record(SimulatedJournal.capture(dir, "d1.pcap", 2_000, "2025-01-02"), journal);
        final Path late = CaptureFixtures.write(dir, "late.pcap", new CaptureFixtures.Pcap()
            .udp(CaptureFixtures.GROUP_A, CaptureFixtures.moldPacketOfAdds(CaptureFixtures.SESSION, 100, 2))
            .toBytes());

        final CommandRun refused = CommandRun.run(new RecordCommand(), late.toString(), "--journal", journal.toString(),
            "--session-date", "2025-01-03");

        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.err().contains("give --first-sequence 0"), refused::toString);
        final Map<String, Object> appended = record(late, journal, "--session-date", "2025-01-03",
            "--first-sequence", "0");
        assertEquals(2, number(appended, "messages"));
        assertEquals(0, number(appended, "missingMessages"));
    }

    @Test
    void shouldRecordADailyItchFileWithoutPackets()
    {
        final Path itch = dir.resolve("day.itch");
        final CommandRun sim = CommandRun.run(new SimCommand(), "--messages", "1000", "--itch", itch.toString());
        assertEquals(0, sim.exitCode(), sim::toString);

        final Map<String, Object> summary =
            record(itch, dir.resolve("journal"), "--session-date", "2025-01-02", "--roll-cycle", "daily");

        assertEquals("DAILY", summary.get("format"));
        assertEquals(1_000, number(summary, "messages"));
        assertTrue(number(summary, "ticks") >= 1_000);
        assertEquals(0, number(summary, "packets"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--retain -1|--retain -1 is negative",
        "--roll-cycle fortnightly|'fortnightly' is not a roll cycle",
        "--cycle-clock sundial|--cycle-clock sundial is not a clock",
        "--line-a 233.54.12.111:26477|give both --line-a and --line-b",
        "--reorder-window 0|--reorder-window 0 is outside 1..",
        "--gap-wait-ms -1|--gap-wait-ms -1 is outside 0..",
        "--first-sequence -1|--first-sequence -1 is negative",
        "--session ELEVENCHARS|--session ELEVENCHARS",
        "--format csv|'csv' is not a format" })
    void shouldRefuseBadArgumentsWithExitCodeTwo(final String arguments, final String expected) throws Exception
    {
        final Path file = Files.writeString(dir.resolve("x.pcap"), "");
        final String[] extra = arguments.split(" ");
        final String[] args = new String[extra.length + 3];
        args[0] = file.toString();
        args[1] = "--journal";
        args[2] = dir.resolve("journal").toString();
        System.arraycopy(extra, 0, args, 3, extra.length);

        final CommandRun run = CommandRun.run(new RecordCommand(), args);

        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().contains(expected), run::toString);
    }

    @Test
    void shouldRefuseADirectoryThatIsNotAJournalWithExitCodeTwo() throws Exception
    {
        Files.writeString(dir.resolve("notes.txt"), "mine");
        final CommandRun run = CommandRun.run(new RecordCommand(), dir.resolve("x.pcap").toString(), "--journal",
            dir.toString());

        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().contains("not an mdgate journal"), run::toString);
    }

    @Test
    void shouldSayWhenTheFileIsMissingWithExitCodeTwo()
    {
        final CommandRun run = CommandRun.run(new RecordCommand(), dir.resolve("missing.pcap").toString(),
            "--journal", dir.resolve("journal").toString());

        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().contains("no such file"), run::toString);
    }

    @Test
    void shouldRecordACaptureFromStdinAsFromItsFileWhetherCopiedOrStreamed() throws Exception
    {
        final Path capture = SimulatedJournal.capture(dir, "day.pcap", 3_000, "2025-01-02");
        final Path spool = Files.createDirectories(dir.resolve("spool"));
        final Map<String, Object> fromFile = record(capture, dir.resolve("from-file"));

        final CommandRun copied = CommandRun.run(fromStdin(capture, spool), "-", "--journal",
            dir.resolve("copied").toString(), "--json");
        final CommandRun streamed = CommandRun.run(fromStdin(capture, dir.resolve("no-such-spool")), "-",
            "--journal", dir.resolve("streamed").toString(), "--json", "--line-a", "233.54.12.111:26477", "--line-b",
            "233.49.196.111:26477");

        final String replayed = replay(dir.resolve("from-file"));
        for (final CommandRun run : List.of(copied, streamed))
        {
            assertEquals(0, run.exitCode(), run::toString);
            final Map<String, Object> summary = ReadJson.parseObject(run.out().trim());
            assertEquals("stdin", summary.get("file"));
            for (final String key : List.of("messages", "ticks", "lastSequence", "packets", "missingMessages"))
            {
                assertEquals(fromFile.get(key), summary.get(key), key);
            }
        }
        assertEquals(replayed, replay(dir.resolve("copied")), "the same ticks, receive times included");
        assertEquals(replayed, replay(dir.resolve("streamed")), "the same ticks, receive times included");
        try (java.util.stream.Stream<Path> left = Files.list(spool))
        {
            assertEquals(List.of(), left.toList(), "the copy of stdin is deleted");
        }
    }

    @Test
    void shouldShowProgressOnStderrOnlyWhenAskedForOffATerminalAndNeverOnStdout()
    {
        final Path capture = SimulatedJournal.capture(dir, "day.pcap", 100_000, "2025-01-02");

        final CommandRun shown = CommandRun.run(new RecordCommand(), capture.toString(), "--journal",
            dir.resolve("shown").toString(), "--json", "--progress", "--progress-every-ms", "1");
        final CommandRun quiet = CommandRun.run(new RecordCommand(), capture.toString(), "--journal",
            dir.resolve("quiet").toString(), "--json");
        final CommandRun both = CommandRun.run(new RecordCommand(), capture.toString(), "--journal",
            dir.resolve("both").toString(), "--progress", "--no-progress");

        assertEquals(0, shown.exitCode(), shown::toString);
        assertTrue(shown.err().matches("(?s)\\r\\[[#.]{30}\\] +\\d+%  [\\d,]+ messages  .* messages/s  ETA .*"),
            "a bar with the share of the file read: " + shown.err());
        assertEquals(100_000, number(ReadJson.parseObject(shown.out().trim()), "messages"), "stdout is the summary");
        assertEquals(0, quiet.exitCode(), quiet::toString);
        assertEquals("", quiet.err(), "no terminal, no --progress: nothing on stderr");
        assertEquals(2, both.exitCode(), both::toString);
        assertTrue(both.err().startsWith("give --progress or --no-progress, not both"), both::toString);
    }

    private static RecordCommand fromStdin(final Path capture, final Path spool) throws java.io.IOException
    {
        final RecordCommand command = new RecordCommand();
        command.stdin = new java.io.ByteArrayInputStream(Files.readAllBytes(capture));
        command.spoolDirectory = spool;
        return command;
    }

    private static String replay(final Path journal)
    {
        final CommandRun run = CommandRun.run(new ReplayCommand(), "--journal", journal.toString());
        assertEquals(0, run.exitCode(), run::toString);
        return run.out();
    }
}
