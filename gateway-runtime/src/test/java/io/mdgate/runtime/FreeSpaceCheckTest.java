package io.mdgate.runtime;

import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.runtime.counters.CountersSnapshot;
import io.mdgate.runtime.counters.ErrorRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The journal's free-space check against the real filesystem of a temporary directory: a threshold below its free
 * space is quiet, one above it (no filesystem has an exbibyte free) is counted on every check and reported once.
 */
@Timeout(30)
class FreeSpaceCheckTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void shouldPublishTheFreeSpaceAndStayQuietAboveTheThreshold() throws Exception
    {
        final long freeMb = Files.getFileStore(dir).getUsableSpace() >> 20;
        try (CountersFileWriter counters = counters())
        {
            final FreeSpaceCheck check = new FreeSpaceCheck(dir, Math.max(1, freeMb / 2), counters, stream());
            check.check();
            final CountersSnapshot s = snapshot();
            assertTrue(Math.abs(s.value("journal.free_mb") - freeMb) <= Math.max(64, freeMb / 10),
                "free space published: " + s.value("journal.free_mb") + " MiB vs " + freeMb);
            assertEquals(0, s.value("journal.free_space_low"));
            assertEquals(List.of(), errors());
            assertEquals("", err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldCountEveryLowCheckAndReportTheDropOnceBelowTheThreshold() throws Exception
    {
        try (CountersFileWriter counters = counters())
        {
            final FreeSpaceCheck check = new FreeSpaceCheck(dir, 1L << 40, counters, stream());
            check.check();
            check.check();
            check.check();
            assertEquals(3, snapshot().value("journal.free_space_low"));
            final List<ErrorRecord> errors = errors();
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.get(0).text().contains("min_free_mb = 1099511627776 MiB"), errors.get(0).text());
            final String printed = err.toString(StandardCharsets.UTF_8);
            assertEquals(1, printed.lines().count(), printed);
            assertTrue(printed.startsWith("mdgate run: warning: the journal's filesystem (" + dir + ")"), printed);
        }
    }

    private CountersFileWriter counters()
    {
        return CountersFileWriter.create(dir.resolve("counters"), "free-space", 16, 1 << 16);
    }

    private PrintStream stream()
    {
        return new PrintStream(err, true, StandardCharsets.UTF_8);
    }

    private CountersSnapshot snapshot()
    {
        try (CountersFile file = CountersFile.open(dir.resolve("counters")))
        {
            return file.snapshot();
        }
    }

    private List<ErrorRecord> errors()
    {
        try (CountersFile file = CountersFile.open(dir.resolve("counters")))
        {
            return file.errors();
        }
    }
}
