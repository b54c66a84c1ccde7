package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Watches the free space of the journal's filesystem from the housekeeping duty cycle (a {@code statfs} a second,
 * never on a stage's thread): publishes it as {@code journal.free_mb}, counts each check that finds it below
 * {@code [journal] min_free_mb} in {@code journal.free_space_low}, and, on each drop below the threshold, records
 * one distinct error and prints a warning, so that an operator hears of it before the disk is full.
 * <p>
 * Threading: the housekeeping thread.
 */
final class FreeSpaceCheck
{
    private static final long MIB = 1024 * 1024;

    private final Path directory;
    private final FileStore store;
    private final long minFreeMb;
    private final CountersFileWriter counters;
    private final PrintStream err;
    private final AtomicCounter freeMb;
    private final AtomicCounter lowChecks;
    private boolean low;

    /**
     * @param directory the journal directory (it exists: the journal is open).
     * @param minFreeMb the threshold in MiB, more than 0.
     */
    FreeSpaceCheck(final Path directory, final long minFreeMb, final CountersFileWriter counters,
        final PrintStream err)
    {
        this.directory = directory;
        this.minFreeMb = minFreeMb;
        this.counters = counters;
        this.err = err;
        try
        {
            store = Files.getFileStore(directory);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot see the filesystem of the journal " + directory + ": " +
                ex.getMessage(), ex);
        }
        freeMb = counters.newCounter("journal.free_mb", CounterType.LEVEL);
        lowChecks = counters.newCounter("journal.free_space_low", CounterType.TOTAL);
    }

    /** Checks once. */
    void check()
    {
        final long free;
        try
        {
            free = store.getUsableSpace() / MIB;
        }
        catch (final IOException ex)
        {
            return;
        }
        freeMb.setRelease(free);
        if (free >= minFreeMb)
        {
            low = false;
            return;
        }
        lowChecks.incrementRelease();
        if (!low)
        {
            low = true;
            final String message = "the journal's filesystem (" + directory + ") has less than [journal] " +
                "min_free_mb = " + minFreeMb + " MiB free; free space or lower retain_cycles before it fills";
            counters.errorLog().record(new IllegalStateException(message));
            err.println("mdgate run: warning: " + message + " (" + free + " MiB free)");
        }
    }
}
