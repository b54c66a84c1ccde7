package io.mdgate.app.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldPrintPercentilesOfEveryIntervalOfEveryStageAndDrawThemIntoAPng() throws IOException
    {
        final Path logs = Files.createDirectories(dir.resolve("hlog"));
        // two intervals whose sum is 1..1000 us: p50 = 500 us, max = 1000 us
        writeLog(logs.resolve("ingress-session.hlog"), null, 1, 500, 501, 1000);
        writeLog(logs.resolve("session-journal.hlog"), null, 10, 10, 20, 20);
        final Path out = dir.resolve("report");

        final Run run = run("--out", out.toString(), logs.toString());

        assertEquals(0, run.exitCode, run.toString());
        final String row = line(run.out, "ingress-session");
        final String[] cells = row.trim().split("\\s+");
        assertEquals("1000", cells[1], row);
        assertEquals(500.0, Double.parseDouble(cells[3]), 0.5, row);
        assertEquals(1000.0, Double.parseDouble(cells[cells.length - 1]), 1.0, row);
        final String[] fixed = line(run.out, "session-journal").trim().split("\\s+");
        assertEquals("4", fixed[1]);
        assertEquals(10.0, Double.parseDouble(fixed[2]), 0.01);
        assertEquals(Files.readString(out.resolve(ReportCommand.TABLE)), run.out, "stdout holds the table only");
        final BufferedImage image = ImageIO.read(out.resolve(ReportCommand.PLOT).toFile());
        assertNotNull(image, "latency.png is a readable image");
        assertEquals(1000, image.getWidth());
        assertEquals(600, image.getHeight());
        assertTrue(run.err.contains("(2 stages with samples)"), run.err);
        assertTrue(run.err.endsWith("table: " + out.resolve(ReportCommand.TABLE) + System.lineSeparator()), run.err);
    }

    @Test
    void shouldPrintOnlyTheTableToStdoutAndWriteNoFileForOutDash() throws IOException
    {
        final Path logs = Files.createDirectories(dir.resolve("hlog"));
        writeLog(logs.resolve("ingress-session.hlog"), null, 1, 500, 501, 1000);
        final Path toDir = dir.resolve("report");
        final Run inDir = run("--out", toDir.toString(), logs.toString());
        final Path cwd = Path.of("").toAbsolutePath();
        final boolean tableHere = Files.exists(cwd.resolve(ReportCommand.TABLE));
        final boolean plotHere = Files.exists(cwd.resolve(ReportCommand.PLOT));

        final Run toStdout = run("--out", "-", logs.toString());

        assertEquals(0, toStdout.exitCode, toStdout.toString());
        assertEquals(Files.readString(toDir.resolve(ReportCommand.TABLE)), toStdout.out);
        assertEquals(inDir.out, toStdout.out);
        assertEquals("", toStdout.err);
        assertEquals(tableHere, Files.exists(cwd.resolve(ReportCommand.TABLE)), "no table file written");
        assertEquals(plotHere, Files.exists(cwd.resolve(ReportCommand.PLOT)), "no plot file written");
        assertTrue(Files.notExists(cwd.resolve("-")), "no directory named - here either");
    }

    @Test
    void shouldPrintOneJsonObjectPerStageAndNothingElseOnStdoutWithJson() throws IOException
    {
        final Path logs = Files.createDirectories(dir.resolve("hlog"));
        writeLog(logs.resolve("ingress-session.hlog"), null, 1, 500, 501, 1000);
        writeLog(logs.resolve("session-journal.hlog"), null, 10, 10, 20, 20);

        final Run run = run("--json", "--out", "-", logs.toString());

        assertEquals(0, run.exitCode, run.toString());
        final List<com.fasterxml.jackson.databind.JsonNode> stages = io.mdgate.app.JsonLines.parse(run.out);
        assertEquals(List.of("ingress-session", "session-journal"),
            stages.stream().map(s -> s.get("stage").asText()).toList());
        assertEquals(1000, stages.get(0).get("samples").asLong());
        assertEquals(500.0, stages.get(0).get("p50Us").asDouble(), 0.5);
        assertEquals(1000.0, stages.get(0).get("maxUs").asDouble(), 1.0);
        assertEquals(10.0, stages.get(1).get("minUs").asDouble(), 0.01);
        assertEquals(2, stages.get(1).get("intervals").asInt());
    }

    @Test
    void shouldKeepTaggedIntervalsOfOneLogApart() throws IOException
    {
        final Path log = dir.resolve("stages.hlog");
        try (PrintStream stream = new PrintStream(Files.newOutputStream(log)))
        {
            final HistogramLogWriter writer = new HistogramLogWriter(stream);
            writer.outputLogFormatVersion();
            writer.outputLegend();
            writer.outputIntervalHistogram(histogram("egress", 5, 5));
            writer.outputIntervalHistogram(histogram("journal", 7_000, 7_000));
        }

        final Run run = run("--no-plot", "--out", dir.toString(), log.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(5.0, Double.parseDouble(line(run.out, "stages/egress").trim().split("\\s+")[3]), 0.01);
        assertEquals(7_000.0, Double.parseDouble(line(run.out, "stages/journal").trim().split("\\s+")[3]), 7.0);
        assertTrue(Files.notExists(dir.resolve(ReportCommand.PLOT)), "--no-plot draws nothing");
    }

    @Test
    void shouldRefuseAPathThatDoesNotExistAsAUsageError()
    {
        final Run run = run(dir.resolve("missing.hlog").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("does not exist"), run.err);
    }

    @Test
    void shouldRefuseADirectoryWithoutLogs()
    {
        final Run run = run(dir.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("holds no .hlog file"), run.err);
    }

    @Test
    void shouldFailOnAFileThatIsNotAHistogramLog() throws IOException
    {
        final Path bogus = Files.writeString(dir.resolve("bogus.hlog"), "1.0,2.0,3.0,not-base64!!\n");

        final Run run = run("--out", dir.resolve("r").toString(), bogus.toString());

        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.contains("bogus.hlog"), run.err);
    }

    private static void writeLog(final Path file, final String tag, final long... rangesMicros) throws IOException
    {
        try (PrintStream stream = new PrintStream(Files.newOutputStream(file)))
        {
            final HistogramLogWriter writer = new HistogramLogWriter(stream);
            writer.outputLogFormatVersion();
            writer.outputLegend();
            for (int i = 0; i < rangesMicros.length; i += 2)
            {
                writer.outputIntervalHistogram(histogram(tag, rangesMicros[i], rangesMicros[i + 1]));
            }
        }
    }

    private static Histogram histogram(final String tag, final long fromMicros, final long toMicros)
    {
        final Histogram histogram = new Histogram(3);
        for (long us = fromMicros; us <= toMicros; us++)
        {
            histogram.recordValue(us * 1_000);
        }
        if (fromMicros == toMicros)
        {
            histogram.recordValue(fromMicros * 1_000);
        }
        histogram.setTag(tag);
        histogram.setStartTimeStamp(1_000);
        histogram.setEndTimeStamp(2_000);
        return histogram;
    }

    private static String line(final String text, final String name)
    {
        final List<String> lines = Arrays.asList(text.split("\n"));
        return lines.stream().filter(l -> l.startsWith(name + " ")).findFirst()
            .orElseThrow(() -> new AssertionError("no row '" + name + "' in:\n" + text));
    }

    private static Run run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(new ReportCommand());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return new Run(commandLine.execute(args), out.toString(), err.toString());
    }

    private record Run(int exitCode, String out, String err)
    {
    }
}
