package io.mdgate.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads one queue's records by position: the cycles on disk are numbered through by an ordinal (0 for the oldest
 * record, {@link #total()} - 1 for the newest) so a binary search can run over the whole queue, and records are
 * copied into a caller's buffer. Faults of the queue library while reading (a damaged file) become
 * {@link JournalDamagedException}s naming the file.
 * <p>
 * The tailer is created on first use: a cursor belongs to the thread that first reads with it.
 */
final class QueueCursor implements AutoCloseable
{
    /** Returned by the read methods when there is no record. */
    static final int NO_RECORD = -1;

    private static final int[] NO_CYCLES = new int[0];

    private final SingleChronicleQueue queue;
    private final RollCycle rollCycle;
    private ExcerptTailer tailer;
    private int[] cycles = NO_CYCLES;
    private long[] firstOrdinal = new long[0];
    private long total;

    /** @param queue the queue to read, or null for a queue that has no files yet (it reads as empty). */
    QueueCursor(final SingleChronicleQueue queue)
    {
        this.queue = queue;
        this.rollCycle = queue == null ? null : queue.rollCycle();
    }

    /**
     * Rescans the cycles on disk and their record counts; the ordinals are valid until the next refresh.
     *
     * @return records in the queue.
     */
    long refresh()
    {
        if (queue == null)
        {
            return 0;
        }
        final ExcerptTailer tailer = tailer();
        cycles = ChronicleQueues.cycles(queue);
        firstOrdinal = new long[cycles.length + 1];
        long count = 0;
        for (int i = 0; i < cycles.length; i++)
        {
            firstOrdinal[i] = count;
            try
            {
                count += tailer.excerptsInCycle(cycles[i]);
            }
            catch (final RuntimeException | InternalError ex)
            {
                throw new JournalDamagedException(cycleFile(cycles[i]), "its index cannot be read (" + ex + ")", ex);
            }
        }
        firstOrdinal[cycles.length] = count;
        total = count;
        return total;
    }

    long total()
    {
        return total;
    }

    int[] cycles()
    {
        return cycles;
    }

    /** @return records of the i-th cycle (oldest is 0) as of the last refresh. */
    long recordsInCycle(final int i)
    {
        return firstOrdinal[i + 1] - firstOrdinal[i];
    }

    /** @return the ordinal of the first record of the i-th cycle. */
    long firstOrdinalOfCycle(final int i)
    {
        return firstOrdinal[i];
    }

    /** @return the queue index of the record with this ordinal. */
    long index(final long ordinal)
    {
        int i = Arrays.binarySearch(firstOrdinal, 0, cycles.length, ordinal);
        if (i < 0)
        {
            i = -i - 2;
        }
        while (i + 1 < cycles.length && firstOrdinal[i + 1] <= ordinal)
        {
            i++;
        }
        return rollCycle.toIndex(cycles[i], ordinal - firstOrdinal[i]);
    }

    /** @return where the record last read stands in its cycle, e.g. "record 12 of the cycle". */
    String lastReadDescription()
    {
        return "record " + rollCycle.toSequenceNumber(tailer().lastReadIndex()) + " of the cycle";
    }

    /** @return the record's position in its cycle, 0 for the cycle's first. */
    long positionInCycle(final long ordinal)
    {
        return rollCycle.toSequenceNumber(index(ordinal));
    }

    /** @return the cycle (as in {@link #cycles()}) of the record with this ordinal. */
    int cycleOfOrdinal(final long ordinal)
    {
        return rollCycle.toCycle(index(ordinal));
    }

    /**
     * Copies the record with this ordinal.
     *
     * @return its length, or {@link #NO_RECORD} when the queue cannot give it.
     */
    int readAt(final long ordinal, final UnsafeBuffer into)
    {
        final long index = index(ordinal);
        if (!moveTo(index))
        {
            return NO_RECORD;
        }
        return next(into);
    }

    /** @return whether the cursor now stands before the record with this queue index. */
    boolean moveTo(final long index)
    {
        try
        {
            return tailer().moveToIndex(index);
        }
        catch (final RuntimeException | InternalError ex)
        {
            throw new JournalDamagedException(cycleFile(rollCycle.toCycle(index)),
                "record " + rollCycle.toSequenceNumber(index) + " of the cycle cannot be found (" + ex + ")", ex);
        }
    }

    /**
     * Copies the next record and moves past it.
     *
     * @param into receives the record; records longer than its capacity are reported as damage.
     * @return the record's length, or {@link #NO_RECORD} when there is none (yet).
     */
    int next(final UnsafeBuffer into)
    {
        final ExcerptTailer tailer = tailer();
        try (DocumentContext document = tailer.readingDocument())
        {
            if (!document.isPresent())
            {
                return NO_RECORD;
            }
            final Bytes<?> bytes = document.wire().bytes();
            final long length = bytes.readRemaining();
            if (length > into.capacity())
            {
                throw new JournalDamagedException(currentFile(), "record " +
                    rollCycle.toSequenceNumber(document.index()) + " of the cycle is " + length + " bytes long, more than the " +
                    into.capacity() + " a record of this queue can have");
            }
            bytes.nativeRead(bytes.readPosition(), into.addressOffset(), length);
            return (int)length;
        }
        catch (final JournalDamagedException ex)
        {
            throw ex;
        }
        catch (final RuntimeException | InternalError ex)
        {
            throw new JournalDamagedException(currentFile(), "the record after record " +
                rollCycle.toSequenceNumber(tailer.index()) + " of the cycle cannot be read (" + ex + ")", ex);
        }
    }

    /** @return the file the cursor reads, or the queue directory before the first read. */
    Path currentFile()
    {
        final File file = tailer == null ? null : tailer.currentFile();
        return file != null ? file.toPath() : queue.file().toPath();
    }

    /** @return the file holding a cycle. */
    Path cycleFile(final int cycle)
    {
        return ChronicleQueues.cycleFile(queue, cycle);
    }

    @Override
    public void close()
    {
        if (tailer != null)
        {
            tailer.close();
            tailer = null;
        }
    }

    private ExcerptTailer tailer()
    {
        if (tailer == null)
        {
            tailer = queue.createTailer().direction(TailerDirection.FORWARD);
        }
        return tailer;
    }
}
