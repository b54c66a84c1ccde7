package io.mdgate.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Reads one queue's records by position. The cycles on disk are numbered through by an ordinal (0 for the oldest
 * record, {@link #total()} - 1 for the newest), and the first {@link #KEY_BYTES} bytes of each cycle's first and
 * last record are cached, so a search by a key that never decreases picks its cycle in memory and then binary
 * searches inside that one cycle: moving a tailer to another cycle opens that cycle's store, which costs far more
 * than a read, so a search moves at most once.
 * <p>
 * Reading tailers are kept one per cycle (up to {@link #MAX_READERS}), so that searches in different cycles do not
 * reopen each other's stores; one more tailer stays on the newest cycle to count its records as they grow. Every
 * record read passes the owner's {@link RecordCheck}; faults of the queue library while reading become
 * {@link JournalDamagedException}s naming the file.
 * <p>
 * The tailers are created on first use: a cursor belongs to the thread that first reads with it.
 */
final class QueueCursor implements AutoCloseable
{
    /** Returned by the read methods when there is no record. */
    static final int NO_RECORD = -1;
    /** Bytes cached of each cycle's first and last record: room for the keys searched on. */
    static final int KEY_BYTES = 32;
    /** Most reading tailers kept, one per cycle; cycles beyond share the last one. */
    static final int MAX_READERS = 64;

    /** Checks one record against what the queue must hold. */
    @FunctionalInterface
    interface RecordCheck
    {
        /**
         * @return null when the record is sound, else what is wrong with it, to follow "record N of the cycle".
         */
        String problem(UnsafeBuffer record, int length);
    }

    private static final int[] NO_CYCLES = new int[0];

    private final SingleChronicleQueue queue;
    private final RollCycle rollCycle;
    private final UnsafeBuffer record;
    private final RecordCheck check;
    private ExcerptTailer[] readers = new ExcerptTailer[0];
    private ExcerptTailer reader;
    private ExcerptTailer counter;
    private int[] cycles = NO_CYCLES;
    private long[] counts = new long[0];
    private long[] firstOrdinal = new long[1];
    private Path[] files = new Path[0];
    private UnsafeBuffer keys = new UnsafeBuffer(new byte[0]);
    private long total;

    /**
     * @param queue  the queue to read, or null for a queue that has no files yet (it reads as empty).
     * @param record the buffer records are read into, large enough for the largest record.
     * @param check  applied to every record read.
     */
    QueueCursor(final SingleChronicleQueue queue, final UnsafeBuffer record, final RecordCheck check)
    {
        this.queue = queue;
        this.rollCycle = queue == null ? null : queue.rollCycle();
        this.record = record;
        this.check = check;
    }

    /**
     * Brings the view of the queue up to date: a full rescan when cycles were added or removed, else a count of the
     * records appended to the newest cycle since the last refresh. Ordinals stay valid until the next refresh.
     *
     * @return records in the queue.
     */
    long refresh()
    {
        if (queue == null)
        {
            return 0;
        }
        final int n = cycles.length;
        if (n == 0 || queue.firstCycle() != cycles[0] || queue.lastCycle() != cycles[n - 1])
        {
            rescan();
        }
        else
        {
            recountNewest();
        }
        return total;
    }

    long total()
    {
        return total;
    }

    int cycleCount()
    {
        return cycles.length;
    }

    int cycle(final int i)
    {
        return cycles[i];
    }

    Path file(final int i)
    {
        return files[i];
    }

    long recordsInCycle(final int i)
    {
        return counts[i];
    }

    long firstOrdinalOfCycle(final int i)
    {
        return firstOrdinal[i];
    }

    /** @return the long at {@code offset} of the i-th cycle's first record (which must exist). */
    long firstKey(final int i, final int offset)
    {
        return keys.getLong(i * 2 * KEY_BYTES + offset, ByteOrder.LITTLE_ENDIAN);
    }

    /** @return the long at {@code offset} of the i-th cycle's last record (which must exist). */
    long lastKey(final int i, final int offset)
    {
        return keys.getLong(i * 2 * KEY_BYTES + KEY_BYTES + offset, ByteOrder.LITTLE_ENDIAN);
    }

    /** @return the index (as in {@link #cycle(int)}) of the first cycle holding records, or -1. */
    int firstNonEmpty()
    {
        for (int i = 0; i < cycles.length; i++)
        {
            if (counts[i] > 0)
            {
                return i;
            }
        }
        return -1;
    }

    /** @return the index of the last cycle holding records, or -1. */
    int lastNonEmpty()
    {
        for (int i = cycles.length - 1; i >= 0; i--)
        {
            if (counts[i] > 0)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param keyOffset where the long key is in a record (below {@link #KEY_BYTES}); keys never decrease through
     *                  the queue.
     * @param target    the key sought.
     * @return the smallest ordinal whose key is at least the target, or {@link #total()} when there is none.
     */
    long lowerBound(final int keyOffset, final long target)
    {
        int cycle = -1;
        for (int i = 0; i < cycles.length; i++)
        {
            if (counts[i] > 0 && lastKey(i, keyOffset) >= target)
            {
                cycle = i;
                break;
            }
        }
        if (cycle < 0)
        {
            return total;
        }
        long low = firstOrdinal[cycle];
        long high = low + counts[cycle] - 1;
        if (firstKey(cycle, keyOffset) >= target)
        {
            return low;
        }
        while (high - low > 1)
        {
            final long middle = (low + high) >>> 1;
            if (readAt(middle) == NO_RECORD)
            {
                throw promised(middle);
            }
            if (record.getLong(keyOffset, ByteOrder.LITTLE_ENDIAN) < target)
            {
                low = middle;
            }
            else
            {
                high = middle;
            }
        }
        return high;
    }

    /**
     * Copies the record with this ordinal into the record buffer, checked.
     *
     * @return its length, or {@link #NO_RECORD} when the queue cannot give it.
     */
    int readAt(final long ordinal)
    {
        if (!moveTo(ordinal))
        {
            return NO_RECORD;
        }
        return next();
    }

    /** @return whether the reader now stands before the record with this ordinal. */
    boolean moveTo(final long ordinal)
    {
        final int i = cycleOf(ordinal);
        final long index = rollCycle.toIndex(cycles[i], ordinal - firstOrdinal[i]);
        try
        {
            reader = readerFor(i);
            return reader.moveToIndex(index);
        }
        catch (final RuntimeException | InternalError ex)
        {
            throw new JournalDamagedException(files[i], "record " + (ordinal - firstOrdinal[i]) + " of the cycle " +
                "cannot be found (" + ex + ")", ex);
        }
    }

    /**
     * Copies the reader's next record into the record buffer, checked, and moves past it.
     *
     * @return its length, or {@link #NO_RECORD} when there is none (yet).
     */
    int next()
    {
        final ExcerptTailer tailer = reader();
        final int length = read(tailer);
        if (length != NO_RECORD)
        {
            final String problem = check.problem(record, length);
            if (problem != null)
            {
                throw new JournalDamagedException(currentFile(), lastReadDescription() + " " + problem);
            }
        }
        return length;
    }

    /** @return where the record last read stands, e.g. "record 12 of the cycle". */
    String lastReadDescription()
    {
        return "record " + rollCycle.toSequenceNumber(reader().lastReadIndex()) + " of the cycle";
    }

    /** @return the file the reader reads, or the queue directory before the first read. */
    Path currentFile()
    {
        final File file = reader == null ? null : reader.currentFile();
        return file != null ? file.toPath() : queue.file().toPath();
    }

    /** @return the damage report for a record the index promises but the file does not give. */
    JournalDamagedException promised(final long ordinal)
    {
        final int i = cycleOf(ordinal);
        return new JournalDamagedException(files[i], "record " + (ordinal - firstOrdinal[i]) + " of the cycle is " +
            "in its index but cannot be read");
    }

    @Override
    public void close()
    {
        closeReaders();
        if (counter != null)
        {
            counter.close();
            counter = null;
        }
    }

    private void rescan()
    {
        closeReaders();
        queue.refreshDirectoryListing();
        final int[] found = ChronicleQueues.cycles(queue);
        final int n = found.length;
        cycles = found;
        counts = new long[n];
        firstOrdinal = new long[n + 1];
        files = new Path[n];
        readers = new ExcerptTailer[Math.min(n, MAX_READERS)];
        keys = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Math.max(1, n) * 2 * KEY_BYTES, 64));
        long count = 0;
        for (int i = 0; i < n; i++)
        {
            firstOrdinal[i] = count;
            files[i] = fileOf(cycles[i]);
            counts[i] = countRecords(i);
            if (counts[i] > 0)
            {
                cacheKeys(i, 0, 0);
                cacheKeys(i, counts[i] - 1, KEY_BYTES);
            }
            count += counts[i];
        }
        firstOrdinal[n] = count;
        total = count;
        if (n > 0 && counts[n - 1] == 0)
        {
            counter().moveToCycle(cycles[n - 1]);
        }
    }

    /**
     * Counts the records appended to the newest cycle since the last look, by reading on from where the counting
     * tailer stands (after the newest record seen); asking the queue for a cycle's count instead reopens the cycle's
     * store every time. A record of a newer cycle means the queue rolled: then everything is rescanned.
     */
    private void recountNewest()
    {
        final int last = cycles.length - 1;
        final ExcerptTailer tailer = counter();
        long added = 0;
        while (true)
        {
            final int length = read(tailer);
            if (length == NO_RECORD)
            {
                break;
            }
            final long position = rollCycle.toSequenceNumber(tailer.lastReadIndex());
            if (rollCycle.toCycle(tailer.lastReadIndex()) != cycles[last])
            {
                rescan();
                return;
            }
            final String problem = check.problem(record, length);
            if (problem != null)
            {
                throw new JournalDamagedException(files[last], "record " + position + " of the cycle " + problem);
            }
            if (counts[last] + added == 0)
            {
                keys.putBytes(last * 2 * KEY_BYTES, record, 0, Math.min(KEY_BYTES, length));
            }
            keys.putBytes(last * 2 * KEY_BYTES + KEY_BYTES, record, 0, Math.min(KEY_BYTES, length));
            added++;
        }
        if (added > 0)
        {
            counts[last] += added;
            firstOrdinal[last + 1] = firstOrdinal[last] + counts[last];
            total = firstOrdinal[last + 1];
        }
    }

    private Path fileOf(final int cycle)
    {
        try
        {
            counter().moveToCycle(cycle);
            final File file = counter().currentFile();
            return file != null ? file.toPath() : ChronicleQueues.cycleFile(queue, cycle);
        }
        catch (final RuntimeException | InternalError ex)
        {
            throw new JournalDamagedException(queue.file().toPath(), "cycle " + cycle + " cannot be opened (" + ex +
                ")", ex);
        }
    }

    private long countRecords(final int i)
    {
        try
        {
            return counter().excerptsInCycle(cycles[i]);
        }
        catch (final RuntimeException | InternalError ex)
        {
            throw new JournalDamagedException(files[i], "its index cannot be read (" + ex + ")", ex);
        }
    }

    /** Reads the i-th cycle's record at {@code position} with the counting tailer and caches its first bytes. */
    private void cacheKeys(final int i, final long position, final int at)
    {
        final int length;
        try
        {
            length = counter().moveToIndex(rollCycle.toIndex(cycles[i], position)) ? read(counter()) : NO_RECORD;
        }
        catch (final RuntimeException | InternalError ex)
        {
            throw new JournalDamagedException(files[i], "record " + position + " of the cycle cannot be found (" +
                ex + ")", ex);
        }
        if (length == NO_RECORD)
        {
            throw new JournalDamagedException(files[i], "record " + position + " of the cycle is in its index but " +
                "cannot be read");
        }
        final String problem = check.problem(record, length);
        if (problem != null)
        {
            throw new JournalDamagedException(files[i], "record " + position + " of the cycle " + problem);
        }
        keys.putBytes(i * 2 * KEY_BYTES + at, record, 0, Math.min(KEY_BYTES, length));
    }

    private int read(final ExcerptTailer tailer)
    {
        try (DocumentContext document = tailer.readingDocument())
        {
            if (!document.isPresent())
            {
                return NO_RECORD;
            }
            final Bytes<?> bytes = document.wire().bytes();
            final long length = bytes.readRemaining();
            if (length > record.capacity())
            {
                throw new JournalDamagedException(fileOf(tailer), "record " +
                    rollCycle.toSequenceNumber(document.index()) + " of the cycle is " + length + " bytes long, " +
                    "more than the " + record.capacity() + " a record of this queue can have");
            }
            bytes.nativeRead(bytes.readPosition(), record.addressOffset(), length);
            return (int)length;
        }
        catch (final JournalDamagedException ex)
        {
            throw ex;
        }
        catch (final RuntimeException | InternalError ex)
        {
            throw new JournalDamagedException(fileOf(tailer), "the record after record " +
                rollCycle.toSequenceNumber(tailer.index()) + " of the cycle cannot be read (" + ex + ")", ex);
        }
    }

    private Path fileOf(final ExcerptTailer tailer)
    {
        final File file = tailer.currentFile();
        return file != null ? file.toPath() : queue.file().toPath();
    }

    private int cycleOf(final long ordinal)
    {
        int i = 0;
        while (i + 1 < cycles.length && firstOrdinal[i + 1] <= ordinal)
        {
            i++;
        }
        return i;
    }

    /** @return the tailer that last read, for sequential reading and reports. */
    private ExcerptTailer reader()
    {
        if (reader == null)
        {
            reader = readers.length > 0 ? readerFor(0) : queue.createTailer().direction(TailerDirection.FORWARD);
        }
        return reader;
    }

    private ExcerptTailer readerFor(final int cycle)
    {
        final int slot = Math.min(cycle, readers.length - 1);
        if (readers[slot] == null)
        {
            readers[slot] = queue.createTailer().direction(TailerDirection.FORWARD);
        }
        return readers[slot];
    }

    private void closeReaders()
    {
        for (int i = 0; i < readers.length; i++)
        {
            if (readers[i] != null)
            {
                if (readers[i] == reader)
                {
                    reader = null;
                }
                readers[i].close();
                readers[i] = null;
            }
        }
        if (reader != null)
        {
            reader.close();
            reader = null;
        }
    }

    private ExcerptTailer counter()
    {
        if (counter == null)
        {
            counter = queue.createTailer().direction(TailerDirection.FORWARD);
        }
        return counter;
    }
}
