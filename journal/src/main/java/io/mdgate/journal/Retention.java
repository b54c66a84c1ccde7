package io.mdgate.journal;

import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Deletes a queue's oldest cycle files so that at most the configured number remain. Runs on the journal agent's
 * thread when a new cycle starts (a file deletion per roll, never per record) and at open. Readers that have the
 * deleted files mapped keep reading them until they let go. Not thread-safe.
 */
final class Retention
{
    private final int retainCycles;

    /** @param retainCycles cycles to keep, or {@link JournalContext#RETAIN_ALL}. */
    Retention(final int retainCycles)
    {
        this.retainCycles = retainCycles;
    }

    /**
     * @param queue the queue to trim.
     * @return cycle files deleted.
     */
    int apply(final SingleChronicleQueue queue)
    {
        if (retainCycles == JournalContext.RETAIN_ALL || queue == null)
        {
            return 0;
        }
        final int[] cycles = ChronicleQueues.cycles(queue);
        int deleted = 0;
        for (int i = 0; i < cycles.length - retainCycles; i++)
        {
            final Path file = ChronicleQueues.cycleFile(queue, cycles[i]);
            try
            {
                if (Files.deleteIfExists(file))
                {
                    deleted++;
                }
            }
            catch (final IOException ex)
            {
                throw new JournalException("cannot delete " + file + " to keep " + retainCycles + " cycles: " +
                    ex.getMessage(), ex);
            }
        }
        if (deleted > 0)
        {
            queue.refreshDirectoryListing();
        }
        return deleted;
    }
}
