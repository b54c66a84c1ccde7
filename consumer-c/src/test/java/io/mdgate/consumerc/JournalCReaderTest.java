package io.mdgate.consumerc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.SymbolDirectory;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.TickJson;
import io.mdgate.journal.CycleSummary;
import io.mdgate.journal.JournalAgent;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.JournalCycleClock;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.JournalRollCycle;
import io.mdgate.journal.TickJournal;
import io.mdgate.journal.TickReplay;

/**
 * The C journal reader ({@code mdgate-journal-c}, {@code lib/journal.c}) against the Java journal: a simulated day
 * journaled by the journal module in five-minute cycles, read back by the C tool and by {@link TickReplay}, tick for
 * tick and byte for byte; damaged copies (a truncated cycle file, a record of the wrong length, a cycle file taken
 * away) each give a clear error and exactly the ticks before the damage; the same runs under the AddressSanitizer
 * and UBSan build ({@code make SANITIZE=1}).
 */
class JournalCReaderTest
{
    private static final int TICK = 64;

    @TempDir
    static Path root;

    private static Path journal;
    private static byte[] ticks;
    private static List<CycleSummary> cycles;

    @TempDir
    Path work;

    @BeforeAll
    static void journalASimulatedDay()
    {
        journal = root.resolve("journal");
        // About an hour of simulated session at 70 messages a second: a dozen five-minute cycle files.
        final SimulationConfig config = new SimulationConfig().seed(11).instruments(100).messages(220_000)
            .messagesPerSecond(70).conclude();
        try (TickJournal writer = TickJournal.open(new JournalContext().directory(journal)
            .rollCycle(JournalRollCycle.FIVE_MINUTELY).cycleClock(JournalCycleClock.RECORD_TIME)))
        {
            final JournalAgent agent = writer.agent();
            agent.onStart();
            final long[] count = { 0 };
            final TickHandler journaling = (buffer, offset) ->
            {
                writer.publisher().onTick(buffer, offset);
                if ((++count[0] & 255) == 0)
                {
                    agent.doWork();
                }
            };
            final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1 << 17).maxLevels(1 << 16)
                .maxInstruments(256));
            final MessageProcessor processor = new MessageProcessor(
                new Normalizer(books, new ExchangeClock(config.sessionDate()), journaling, 1).sessionId(1));
            final ItchSessionGenerator generator = new ItchSessionGenerator(config);
            final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
            long sequence = 1;
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                processor.process(message, 0, length, sequence++);
            }
            agent.onClose();
        }
        try (JournalReader reader = JournalReader.open(journal); TickReplay replay = reader.newTickReplay())
        {
            final ByteArrayOutputStream all = new ByteArrayOutputStream();
            final byte[] one = new byte[TICK];
            final long replayed = replay.replay(1, Long.MAX_VALUE, (buffer, offset) ->
            {
                buffer.getBytes(offset, one);
                all.write(one, 0, TICK);
            });
            ticks = all.toByteArray();
            cycles = replay.cycles();
            assertEquals(replayed, ticks.length / TICK);
        }
        System.out.printf("journaled %,d ticks in %d cycle files%n", ticks.length / TICK, cycles.size());
        assertTrue(ticks.length / TICK > 250_000, ticks.length / TICK + " ticks journaled");
        assertTrue(cycles.size() >= 8, cycles.size() + " cycle files");
    }

    @Test
    void shouldReadEveryTickOfADayInSeveralCyclesExactlyAsTheJavaReaderDoes() throws IOException
    {
        readWholeDay(CTool.plain());
    }

    @Test
    void shouldReadTheDayAndReportDamageCleanlyUnderTheSanitizers() throws IOException
    {
        final CTool sanitized = CTool.sanitized();
        readWholeDay(sanitized);
        final String[] range = { journal.toString(), "--from", Long.toString(cycles.get(1).firstSequence()), "--to",
            Long.toString(cycles.get(1).firstSequence() + 2_000) };
        final Run json = sanitized.run(work, range);
        assertEquals(0, json.exit, json.stderr);
        assertEquals(CTool.plain().run(work, range).stdout(), json.stdout(), "JSON lines with symbols");
        shouldStopAtATruncatedCycleFile(sanitized);
        shouldStopAtARecordThatIsNotATick(sanitized);
        shouldStopWhereACycleFileIsMissing(sanitized);
    }

    @Test
    void shouldPrintTheSameJsonAsTheJavaToolsForARangeAcrossCyclesSymbolsIncluded() throws IOException
    {
        final CycleSummary second = cycles.get(1);
        final long from = second.lastSequence() - 5_000;
        final long to = second.lastSequence() + 5_000;
        final Run run = CTool.plain().run(work, journal.toString(), "--from", Long.toString(from), "--to",
            Long.toString(to));
        final Run bare = CTool.plain().run(work, journal.toString(), "--from", Long.toString(from), "--to",
            Long.toString(to), "--no-symbols");
        assertEquals(0, run.exit, run.stderr);
        assertEquals(0, bare.exit, bare.stderr);

        // What replay writes: symbols from the INSTRUMENT ticks of the session, those before the range included.
        final SymbolDirectory symbols = new SymbolDirectory();
        final TickJson json = new TickJson(symbols);
        final TickJson withoutSymbols = new TickJson(null);
        final UnsafeBuffer buffer = new UnsafeBuffer(ticks);
        final StringBuilder expected = new StringBuilder();
        final StringBuilder expectedBare = new StringBuilder();
        for (long sequence = 1; sequence <= to; sequence++)
        {
            symbols.onTick(buffer, offsetOf(sequence));
            if (sequence >= from)
            {
                expected.append(json.format(buffer, offsetOf(sequence))).append('\n');
                expectedBare.append(withoutSymbols.format(buffer, offsetOf(sequence))).append('\n');
            }
        }
        assertTrue(symbols.named() > 50, symbols.named() + " instruments named");
        assertTrue(expected.indexOf("\"symbol\":\"") >= 0, "the range has ticks with symbols");
        assertEquals(expected.toString(), run.stdout());
        assertEquals(expectedBare.toString(), bare.stdout());
    }

    @Test
    void shouldStopAtATruncatedCycleFileWithTheTicksBeforeIt() throws IOException
    {
        shouldStopAtATruncatedCycleFile(CTool.plain());
    }

    @Test
    void shouldStopAtARecordThatIsNotATickWithTheTicksBeforeIt() throws IOException
    {
        shouldStopAtARecordThatIsNotATick(CTool.plain());
    }

    @Test
    void shouldStopWhereACycleFileIsMissingWithTheTicksBeforeIt() throws IOException
    {
        shouldStopWhereACycleFileIsMissing(CTool.plain());
    }

    @Test
    void shouldReadAJournalWhileItIsOpenForWritingUpToWhatWasJournaled() throws IOException
    {
        final Path live = work.resolve("live");
        try (TickJournal writer = TickJournal.open(new JournalContext().directory(live)))
        {
            final JournalAgent agent = writer.agent();
            agent.onStart();
            final UnsafeBuffer tick = new UnsafeBuffer(new byte[TICK]);
            for (long sequence = 1; sequence <= 20_000; sequence++)
            {
                tick.putBytes(0, ticks, offsetOf(sequence), TICK);
                writer.publisher().onTick(tick, 0);
                if (sequence % 5_000 == 0)
                {
                    while (writer.journaledSequence() < sequence)
                    {
                        agent.doWork();
                    }
                    final Path raw = work.resolve("live-" + sequence + ".bin");
                    final Run run = CTool.plain().run(work, live.toString(), "--raw", raw.toString());
                    assertEquals(0, run.exit, run.stderr);
                    assertArrayEquals(Arrays.copyOf(ticks, (int)sequence * TICK), Files.readAllBytes(raw),
                        "what was journaled when the reader ran, while the appender is open");
                }
            }
            agent.onClose();
        }
    }

    @Test
    void shouldRefuseADirectoryThatIsNotAJournalAndBadArguments() throws IOException
    {
        final Run notJournal = CTool.plain().run(work, work.toString(), "--count");
        assertEquals(2, notJournal.exit);
        assertTrue(notJournal.stderr.contains("is not a journal"), notJournal.stderr);
        final Run badRange = CTool.plain().run(work, journal.toString(), "--from", "10", "--to", "5");
        assertEquals(2, badRange.exit);
        assertTrue(badRange.stderr.contains("--from 10 is after --to 5"), badRange.stderr);
        final Run badNumber = CTool.plain().run(work, journal.toString(), "--from", "x");
        assertEquals(2, badNumber.exit);
    }

    @Test
    void shouldReadTheDayWithThePythonReaderOfJournalMdAndStopAtAMissingCycle() throws IOException
    {
        final Path script = work.resolve("journal.py");
        Files.writeString(script, pythonReaderOfJournalMd(), StandardCharsets.UTF_8);
        final CTool python = new CTool("python", Path.of("python3"));
        final Run day = python.run(work, script.toString(), journal.toString());
        assertEquals(0, day.exit, day.stderr);
        assertArrayEquals(ticks, Files.readAllBytes(day.output), "the Python reader's ticks differ");

        final Path copy = copyOfJournal();
        final int removed = 5;
        Files.delete(cycleFile(copy, removed));
        final Run damaged = python.run(work, script.toString(), copy.toString());
        assertEquals(1, damaged.exit, damaged.stderr);
        final CycleSummary gone = cycles.get(removed);
        assertTrue(damaged.stderr.contains("ticks " + gone.firstSequence() + ".." + gone.lastSequence() +
            " are missing"), damaged.stderr);
        final byte[] read = Files.readAllBytes(damaged.output);
        assertPrefix(read);
        assertEquals(gone.firstSequence() - 1, read.length / TICK);
    }

    /** @return the Python block of docs/JOURNAL.md's "A Python reader". */
    private static String pythonReaderOfJournalMd() throws IOException
    {
        Path directory = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (directory != null && !Files.isRegularFile(directory.resolve("docs/JOURNAL.md")))
        {
            directory = directory.getParent();
        }
        assertTrue(directory != null, "no docs/JOURNAL.md above " + System.getProperty("user.dir"));
        final String doc = Files.readString(directory.resolve("docs/JOURNAL.md"), StandardCharsets.UTF_8);
        final int section = doc.indexOf("### A Python reader");
        final int start = doc.indexOf("```python\n", section);
        final int end = doc.indexOf("```\n", start + 10);
        assertTrue(section >= 0 && start > section && end > start, "no Python block in docs/JOURNAL.md");
        return doc.substring(start + "```python\n".length(), end);
    }

    private void readWholeDay(final CTool tool) throws IOException
    {
        final Path raw = work.resolve("day-" + tool.name + ".bin");
        final Run run = tool.run(work, journal.toString(), "--raw", raw.toString());
        assertEquals(0, run.exit, run.stderr);
        assertEquals("", run.stderr);
        assertArrayEquals(ticks, Files.readAllBytes(raw), "the C reader's ticks differ from the Java reader's");

        final Run count = tool.run(work, journal.toString(), "--count");
        assertEquals(Long.toString(ticks.length / TICK), count.stdout().trim());
        final Run summary = tool.run(work, journal.toString(), "--summary");
        assertEquals("{\"rollCycle\":\"FIVE_MINUTELY\",\"cycleFiles\":" + cycles.size() + ",\"ticks\":" +
            ticks.length / TICK + ",\"firstSequence\":1,\"lastSequence\":" + ticks.length / TICK + "}",
            summary.stdout().trim());

        final long from = cycles.get(cycles.size() / 2).firstSequence() + 17;
        final Run tail = tool.run(work, journal.toString(), "--from", Long.toString(from), "--count");
        assertEquals(Long.toString(ticks.length / TICK - from + 1), tail.stdout().trim());
    }

    private void shouldStopAtATruncatedCycleFile(final CTool tool) throws IOException
    {
        final Path copy = copyOfJournal();
        final int damaged = 2;
        final Path file = cycleFile(copy, damaged);
        final long length;
        try (RandomAccessFile truncated = new RandomAccessFile(file.toFile(), "rw"))
        {
            length = 100_000 + 4_321;
            truncated.setLength(length);
        }
        final Path raw = work.resolve("truncated.bin");
        final Run run = tool.run(work, copy.toString(), "--raw", raw.toString());
        assertEquals(1, run.exit, run.stderr);
        assertTrue(run.stderr.contains(file.getFileName() + " is damaged: it is " + length + " bytes long but its " +
            "header says records were written up to byte"), run.stderr);
        assertTrue(run.stderr.contains("(the file was truncated)"), run.stderr);
        final byte[] read = Files.readAllBytes(raw);
        assertPrefix(read);
        assertTrue(read.length / TICK >= cycles.get(damaged).firstSequence() - 1 + 1_000,
            "the ticks of the truncated file before its end are read too: " + read.length / TICK);
        assertTrue(read.length / TICK < cycles.get(damaged).lastSequence());
    }

    private void shouldStopAtARecordThatIsNotATick(final CTool tool) throws IOException
    {
        final Path copy = copyOfJournal();
        final int damaged = 1;
        final long sequence = cycles.get(damaged).firstSequence() + 1_234;
        final Path file = cycleFile(copy, damaged);
        final long header = recordHeaderOf(file, sequence);
        try (RandomAccessFile records = new RandomAccessFile(file.toFile(), "rw"))
        {
            records.seek(header);
            records.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(48).array());
        }
        final Path raw = work.resolve("record.bin");
        final Run run = tool.run(work, copy.toString(), "--raw", raw.toString());
        assertEquals(1, run.exit, run.stderr);
        assertTrue(run.stderr.contains(file.getFileName() + " is damaged: the record at byte " + header +
            " is 48 bytes long, not a 64-byte tick"), run.stderr);
        assertTrue(run.stderr.contains("ERECORD"), run.stderr);
        final byte[] read = Files.readAllBytes(raw);
        assertPrefix(read);
        assertEquals(sequence - 1, read.length / TICK, "every tick before the damaged record, and none after");
    }

    private void shouldStopWhereACycleFileIsMissing(final CTool tool) throws IOException
    {
        final Path copy = copyOfJournal();
        final int removed = 3;
        Files.delete(cycleFile(copy, removed));
        final Path raw = work.resolve("missing.bin");
        final Run run = tool.run(work, copy.toString(), "--raw", raw.toString());
        assertEquals(1, run.exit, run.stderr);
        final CycleSummary gone = cycles.get(removed);
        assertTrue(run.stderr.contains("ticks " + gone.firstSequence() + ".." + gone.lastSequence() + " are missing"),
            run.stderr);
        assertTrue(run.stderr.contains(cycleFile(copy, removed + 1).getFileName() + " is damaged"), run.stderr);
        final byte[] read = Files.readAllBytes(raw);
        assertPrefix(read);
        assertEquals(gone.firstSequence() - 1, read.length / TICK);
    }

    private static void assertPrefix(final byte[] read)
    {
        assertEquals(0, read.length % TICK, "whole ticks only");
        assertTrue(read.length <= ticks.length);
        assertArrayEquals(Arrays.copyOf(ticks, read.length), read, "the ticks before the damage are the journal's");
    }

    private static int offsetOf(final long sequence)
    {
        return (int)(sequence - 1) * TICK;
    }

    /** @return where the record header of the tick with this sequence is in a cycle file (its bytes searched). */
    private static long recordHeaderOf(final Path file, final long sequence) throws IOException
    {
        final byte[] tick = Arrays.copyOfRange(ticks, offsetOf(sequence), offsetOf(sequence) + TICK);
        final byte[] bytes = Files.readAllBytes(file);
        for (int i = 4; i + TICK <= bytes.length; i += 4)
        {
            if (Arrays.equals(bytes, i, i + TICK, tick, 0, TICK))
            {
                return i - 4;
            }
        }
        throw new AssertionError("tick " + sequence + " is not in " + file);
    }

    private static Path cycleFile(final Path journalCopy, final int index)
    {
        return journalCopy.resolve("ticks").resolve(cycles.get(index).file().getFileName());
    }

    /** Copies the journal's manifest and tick queue, keeping the cycle files sparse (they are 80 MiB each). */
    private Path copyOfJournal() throws IOException
    {
        final Path copy = Files.createDirectories(work.resolve("copy-" + System.nanoTime()));
        final Run cp = new CTool("cp", Path.of("cp")).run(work, "-r", "--sparse=always",
            journal.resolve("mdgate-journal.properties").toString(), journal.resolve("ticks").toString(),
            copy.toString());
        assertEquals(0, cp.exit, cp.stderr);
        return copy;
    }

    private record Run(int exit, Path output, String stderr)
    {
        String stdout() throws IOException
        {
            return Files.readString(output, StandardCharsets.UTF_8);
        }
    }

    /** The C tool, from the module's native build or built here with the sanitizers. */
    private record CTool(String name, Path program)
    {
        static CTool plain()
        {
            return new CTool("plain", nativeDirectory().resolve("bin/mdgate-journal-c"));
        }

        static CTool sanitized() throws IOException
        {
            final Path sources = Path.of(System.getProperty("user.dir"), "src/main/c");
            final Run make = new CTool("make", Path.of("make")).run(sources, "--no-print-directory",
                "BUILD_DIR=" + nativeDirectory(), "SANITIZE=1", "all");
            assertEquals(0, make.exit, "make SANITIZE=1 failed:\n" + make.stdout() + make.stderr);
            return new CTool("sanitized", nativeDirectory().resolve("sanitize/bin/mdgate-journal-c"));
        }

        private static Path nativeDirectory()
        {
            final String property = System.getProperty("mdgate.consumer.native");
            assertFalse(null == property || property.isEmpty(), "mdgate.consumer.native is not set: run through Maven");
            return Path.of(property);
        }

        /** Runs the program in {@code directory}; its output goes to files in the class's temporary directory. */
        Run run(final Path directory, final String... arguments) throws IOException
        {
            final List<String> command = new ArrayList<>();
            command.add(program.toString());
            command.addAll(List.of(arguments));
            final Path out = Files.createTempFile(root, "out", ".txt");
            final Path err = Files.createTempFile(root, "err", ".txt");
            final ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().put("ASAN_OPTIONS", "abort_on_error=0:exitcode=99");
            builder.environment().put("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:exitcode=98");
            final Process process = builder.start();
            try
            {
                if (!process.waitFor(2, TimeUnit.MINUTES))
                {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError(command + " did not finish within 2 minutes");
                }
            }
            catch (final InterruptedException ex)
            {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", ex);
            }
            final String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertFalse(stderr.contains("Sanitizer"), "the sanitizers reported:\n" + stderr);
            return new Run(process.exitValue(), out, stderr);
        }
    }
}
