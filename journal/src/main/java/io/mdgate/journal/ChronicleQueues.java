package io.mdgate.journal;

import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;
import org.agrona.concurrent.SystemEpochClock;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NavigableSet;

/**
 * Opens the journal's Chronicle queues with the journal's settings, and checks their cycle files before a queue
 * maps them: a file shorter than the write position its header records has been truncated, and mapping it would
 * either fault (read-only) or silently extend it with zeros (read-write). Start-up only; not thread-safe.
 */
final class ChronicleQueues
{
    private ChronicleQueues()
    {
    }

    /**
     * @param directory the queue directory (created when absent and not read-only).
     * @param rollCycle the journal's roll cycle.
     * @param time      the clock choosing the cycle of appended records; null for the wall clock.
     * @param readOnly  whether the queue is only read.
     * @return the open queue.
     */
    static SingleChronicleQueue open(
        final Path directory, final JournalRollCycle rollCycle, final TimeProvider time, final boolean readOnly)
    {
        try
        {
            return SingleChronicleQueueBuilder.binary(directory.toFile())
                .rollCycle(rollCycle.rollCycle())
                .timeProvider(time != null ? time : new CycleTimeProvider(
                    SystemEpochClock.INSTANCE, JournalCycleClock.WALL_CLOCK))
                .readOnly(readOnly)
                .build();
        }
        catch (final RuntimeException ex)
        {
            throw new JournalException("cannot open the queue in " + directory + ": " + ex, ex);
        }
    }

    /** @return whether the directory holds at least one cycle file. */
    static boolean hasCycleFiles(final Path directory)
    {
        if (!Files.isDirectory(directory))
        {
            return false;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + JournalLayout.CYCLE_FILE_SUFFIX))
        {
            return files.iterator().hasNext();
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot list " + directory + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Refuses a queue with a truncated cycle file, before anything maps the files for reading or writing.
     *
     * @param directory the queue directory.
     * @param rollCycle the journal's roll cycle.
     * @throws JournalDamagedException naming the first truncated file.
     */
    static void checkNotTruncated(final Path directory, final JournalRollCycle rollCycle)
    {
        if (!hasCycleFiles(directory))
        {
            return;
        }
        try (SingleChronicleQueue queue = open(directory, rollCycle, null, true))
        {
            for (final int cycle : cycles(queue))
            {
                checkCycle(queue, cycle);
            }
        }
    }

    private static void checkCycle(final SingleChronicleQueue queue, final int cycle)
    {
        final SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
        if (store == null)
        {
            return;
        }
        try
        {
            final File file = store.file();
            final long writePosition = store.writePosition();
            if (file.length() < writePosition)
            {
                throw new JournalDamagedException(file.toPath(), "it is " + file.length() + " bytes long but its " +
                    "header says records were written up to byte " + writePosition + " (the file was truncated)");
            }
        }
        finally
        {
            queue.closeStore(store);
        }
    }

    /**
     * @param queue a queue.
     * @return the cycles that have a file, oldest first, after rescanning the directory.
     */
    static int[] cycles(final SingleChronicleQueue queue)
    {
        queue.refreshDirectoryListing();
        final int first = queue.firstCycle();
        final int last = queue.lastCycle();
        if (first == Integer.MAX_VALUE || last == Integer.MIN_VALUE || first > last)
        {
            return new int[0];
        }
        final NavigableSet<Long> cycles = queue.listCyclesBetween(first, last);
        final int[] result = new int[cycles.size()];
        int i = 0;
        for (final Long cycle : cycles)
        {
            result[i++] = cycle.intValue();
        }
        return result;
    }

    /**
     * @param queue a queue.
     * @param cycle one of its cycles.
     * @return the file holding the cycle.
     */
    static Path cycleFile(final SingleChronicleQueue queue, final int cycle)
    {
        final SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
        if (store == null)
        {
            return queue.file().toPath();
        }
        try
        {
            return store.file().toPath();
        }
        finally
        {
            queue.closeStore(store);
        }
    }
}
