package io.mdgate.app.journal;

import io.mdgate.core.capture.ReadJson;
import io.mdgate.core.capture.PcapWriter;
import io.mdgate.core.capture.Tshark;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplayCommandTest
{
    @TempDir
    static Path shared;

    private static Path journal;

    @TempDir
    Path dir;

    @BeforeAll
    static void recordADay()
    {
        journal = SimulatedJournal.journal(shared, 5_000);
    }

    private static CommandRun replay(final String... args)
    {
        final String[] all = new String[args.length + 2];
        all[0] = "--journal";
        all[1] = journal.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return CommandRun.run(new ReplayCommand(), all);
    }

    @Test
    void shouldWriteAPcapToStdoutForOutDashByteForByteAsTheFileForm() throws Exception
    {
        final Path file = dir.resolve("packets.pcap");
        final CommandRun toFile = replay("--from-seq", "100", "--to-seq", "400", "--to", "pcap", "--out",
            file.toString());
        assertEquals(0, toFile.exitCode(), toFile::toString);

        final ByteArrayOutputStream piped = new ByteArrayOutputStream();
        final ReplayCommand command = new ReplayCommand();
        command.binaryStdout = piped;
        final CommandRun toStdout = CommandRun.run(command, "--journal", journal.toString(), "--from-seq", "100",
            "--to-seq", "400", "--to", "pcap", "--out=-");

        assertEquals(0, toStdout.exitCode(), toStdout::toString);
        assertEquals("", toStdout.out(), "nothing but the capture on stdout");
        assertTrue(toStdout.err().contains("packets"), toStdout.err());
        assertFalse(Files.exists(Path.of("-")), "no file named -");
        assertArrayEquals(Files.readAllBytes(file), piped.toByteArray());
        assertTrue(piped.size() > PcapWriter.FILE_HEADER_LENGTH, "packets were written");

        assumeTrue(Tshark.find() != null, "tshark is not installed");
        final Process tshark = new ProcessBuilder(Tshark.find().toString(), "-r", "-",
            "-d", "udp.port==26477,moldudp64", "-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
            "-T", "fields", "-e", "frame.number", "-e", "_ws.malformed", "-e", "_ws.expert.severity")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try
        {
            try (OutputStream stdin = tshark.getOutputStream())
            {
                stdin.write(piped.toByteArray());
            }
            final List<String> frames = new String(tshark.getInputStream().readAllBytes()).lines().toList();
            assertTrue(tshark.waitFor(2, TimeUnit.MINUTES), "tshark finishes");
            assertEquals(0, tshark.exitValue());
            assertEquals(Tshark.run(file, "-T", "fields", "-e", "frame.number").size(), frames.size());
            for (final String frame : frames)
            {
                assertEquals(frame.split("\t")[0], frame.trim(), "no malformed frame, no warning: " + frame);
            }
        }
        finally
        {
            tshark.destroyForcibly();
        }
    }

    @Test
    void shouldWriteCsvWithAHeaderAndOneRowPerTick()
    {
        final CommandRun run = replay("--from-seq", "100", "--to-seq", "149", "--to", "csv");

        assertEquals(0, run.exitCode(), run::toString);
        final List<String> lines = run.lines();
        assertEquals(TickCsv.HEADER, lines.get(0));
        assertEquals(51, lines.size());
        for (int i = 1; i < lines.size(); i++)
        {
            assertTrue(lines.get(i).startsWith((99 + i) + ","), lines.get(i));
            assertEquals(14, lines.get(i).split(",", -1).length, lines.get(i));
        }
    }

    @Test
    void shouldWriteToAFileAndPrintTheSummaryAsJsonOnStdout() throws IOException
    {
        final Path out = dir.resolve("ticks.json");
        final CommandRun run = replay("--from-seq", "10", "--to-seq", "19", "--out", out.toString(), "--json");

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(10, Files.readAllLines(out).size());
        final Map<String, Object> summary = ReadJson.parseObject(run.out().trim());
        assertEquals("ticks", summary.get("source"));
        assertEquals(10L, ((Number)summary.get("records")).longValue());
        assertEquals(10L, ((Number)summary.get("firstSequence")).longValue());
        assertEquals(19L, ((Number)summary.get("lastSequence")).longValue());
        assertEquals(out.toString(), summary.get("output"));
        assertEquals("", run.err());
    }

    @Test
    void shouldReplayTheRawPacketsBehindASequenceRange()
    {
        final CommandRun ticks = replay("--from-seq", "2000", "--to-seq", "2100");
        final long firstReceive = receiveTime(ticks.lines().get(0));
        final long lastReceive = receiveTime(ticks.lines().get(ticks.lines().size() - 1));

        final CommandRun run = replay("--from-seq", "2000", "--to-seq", "2100", "--source", "packets");

        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.lines().size() >= 2, run::toString);
        for (final String line : run.lines())
        {
            final Map<String, Object> packet = ReadJson.parseObject(line);
            final long time = ((Number)packet.get("receiveTimestamp")).longValue();
            assertTrue(time >= firstReceive && time <= lastReceive, line);
            assertTrue(List.of("A", "B").contains(packet.get("line")), line);
            assertEquals("SIM0000001", packet.get("session"));
        }
    }

    @Test
    void shouldTakeATimeOfDayOnTheJournalsFirstDayInNewYorkTime()
    {
        final CommandRun run = replay("--from-time", "09:30:00", "--to-time", "09:30:00.010", "--to", "csv");

        assertEquals(0, run.exitCode(), run::toString);
        final long from = 1_735_828_200_000_000_000L;
        for (final String row : run.lines().subList(1, run.lines().size()))
        {
            final long time = Long.parseLong(row.split(",")[2]);
            assertTrue(time >= from && time <= from + 10_000_000, row);
        }
        assertTrue(run.lines().size() > 1, run::toString);
    }

    @Test
    void shouldReplayAtTheRecordedPaceTimesTheSpeed()
    {
        final CommandRun run = replay("--from-seq", "3000", "--to-seq", "3020", "--speed", "1000");

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(21, run.lines().size());
        assertTrue(run.err().contains("at 1000.0x the recorded pace"), run.err());
    }

    @Test
    void shouldReplayNothingForARangeBeyondTheJournal()
    {
        final CommandRun run = replay("--from-seq", "100000000", "--to-seq", "100000010");

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("", run.out());
        assertTrue(run.err().startsWith("replayed 0 ticks"), run.err());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--from-seq 1 --to-seq 5 --from-time 09:30 --to-time 09:31|not both",
        "--from-seq 10 --to-seq 5|--from-seq 10 is after --to-seq 5",
        "--from-time 2025-01-02T15:00:00Z --to-time 2025-01-02T14:00:00Z|the range must run forwards",
        "--to pcap|--to pcap needs --out FILE",
        "--to pcap --source ticks --out x.pcap|cannot take --source ticks",
        "--speed 0|--speed 0.0 is out of range",
        "--to xml|--to xml is not an output",
        "--source trades|--source trades is not a queue",
        "--from-time yesterday|'yesterday' is not a time" })
    void shouldRefuseBadArgumentsWithExitCodeTwo(final String arguments, final String expected)
    {
        final CommandRun run = replay(arguments.split(" "));

        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().contains(expected), run::toString);
    }

    @Test
    void shouldRefuseAMissingJournalOrADirectoryThatIsNotOneWithExitCodeTwo()
    {
        final CommandRun missing = CommandRun.run(new ReplayCommand(), "--journal", dir.resolve("none").toString());
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("no such directory"), missing::toString);

        final CommandRun notJournal = CommandRun.run(new ReplayCommand(), "--journal", dir.toString());
        assertEquals(2, notJournal.exitCode(), notJournal::toString);
        assertTrue(notJournal.err().contains("is not an mdgate journal"), notJournal::toString);
    }

    @Test
    void shouldNameTheDamagedFileAndExitWithOne() throws IOException
    {
        final Path copy = dir.resolve("copy");
        copyTree(journal, copy);
        final Path cycle;
        try (Stream<Path> files = Files.list(copy.resolve("ticks")))
        {
            cycle = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile file = new RandomAccessFile(cycle.toFile(), "rw"))
        {
            file.setLength(200_000);
        }

        final CommandRun run = CommandRun.run(new ReplayCommand(), "--journal", copy.toString());

        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains(cycle.toString()) && run.err().contains("truncated"), run::toString);
    }

    private static long receiveTime(final String json)
    {
        return ((Number)ReadJson.parseObject(json).get("receiveTimestamp")).longValue();
    }

    private static void copyTree(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> paths = Files.walk(from))
        {
            for (final Path path : paths.sorted(Comparator.naturalOrder()).toList())
            {
                final Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.copy(path, target);
                }
            }
        }
    }
}
