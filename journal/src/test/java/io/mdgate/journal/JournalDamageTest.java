package io.mdgate.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class JournalDamageTest
{
    private static final long TICKS = 200_000;

    @TempDir
    Path dir;

    @Test
    void shouldNameATruncatedCycleFileAndRefuseToOpenIt() throws IOException
    {
        JournalFixture.write(JournalFixture.context(dir), 1, TICKS);
        final Path file = onlyCycleFile();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(TICKS * 68 / 2);
        }

        final JournalDamagedException reading = assertThrows(JournalDamagedException.class, () -> JournalReader.open(dir));
        assertEquals(file, reading.file());
        assertTrue(reading.getMessage().contains("truncated"), reading.getMessage());
        assertTrue(reading.getMessage().contains("Restore the file"), reading.getMessage());

        final JournalDamagedException writing =
            assertThrows(JournalDamagedException.class, () -> TickJournal.open(JournalFixture.context(dir)));
        assertEquals(file, writing.file());
        assertEquals(TICKS * 68 / 2, Files.size(file), "the truncated file must be left as it was");
    }

    @ParameterizedTest(name = "fill {0} at tick {1}")
    @CsvSource({ "0, 100000", "255, 100000", "-1, 100000", "0, 150000", "255, 150000", "-1, 150000" })
    void shouldStopAReplayAtOverwrittenRecordsNamingTheFile(final int fill, final long at) throws IOException
    {
        JournalFixture.write(JournalFixture.context(dir), 1, TICKS);
        final Path file = onlyCycleFile();
        final long middle = findRecord(file, at);
        final byte[] garbage = new byte[4096];
        if (fill < 0)
        {
            new Random(42).nextBytes(garbage);
        }
        else
        {
            java.util.Arrays.fill(garbage, (byte)fill);
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(middle);
            raf.write(garbage);
        }

        final TestTicks.Collector ticks = TestTicks.collector();
        final JournalDamagedException damaged = assertThrows(JournalDamagedException.class, () ->
        {
            try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
            {
                replay.replay(1, TICKS, ticks);
            }
        });
        assertEquals(file, damaged.file(), damaged.getMessage());
        assertTrue(ticks.sequences.size() < at, "a replay must not pass over damage");
        for (int i = 0; i < ticks.sequences.size(); i++)
        {
            assertEquals(i + 1L, ticks.sequences.get(i));
        }
    }

    private Path onlyCycleFile() throws IOException
    {
        try (Stream<Path> files = Files.list(dir.resolve(JournalLayout.TICKS)))
        {
            final List<Path> cycles = files.filter(f -> f.toString().endsWith(JournalLayout.CYCLE_FILE_SUFFIX)).toList();
            assertEquals(1, cycles.size(), cycles.toString());
            return cycles.get(0);
        }
    }

    /** @return the file offset of the tick with this sequence (its 8 little-endian bytes), found by scanning. */
    private static long findRecord(final Path file, final long sequence) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        final java.nio.ByteBuffer view = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 8 <= bytes.length; i += 4)
        {
            if (view.getLong(i) == sequence && view.getLong(i + 8) == sequence * 3)
            {
                return i;
            }
        }
        throw new AssertionError("tick " + sequence + " not found in " + file);
    }
}
