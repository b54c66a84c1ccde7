package io.mdgate.journal;

import net.openhft.chronicle.queue.ExcerptAppender;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Keeps the disk blocks of a queue's current cycle file allocated ahead of its appender, so that an append never
 * writes into a page of the memory-mapped file that the filesystem has not backed. On a full filesystem such a write
 * is a bus error: the JVM turns it into an {@code InternalError} thrown somewhere inside Chronicle, after part of the
 * record may have been written. Instead, {@link #ensure} says before the append whether its bytes are backed,
 * allocating more when the reserve runs low, and the journal stops before a record the filesystem has no room for.
 * <pre>
 *   cycle file:  | header, index | records ... | allocated, all zeros       | not allocated (a hole)
 *                0                             end                    reservedEnd
 * </pre>
 * Every byte below {@code reservedEnd} is allocated, and before each append {@code end + bytes + HEADROOM_BYTES} is
 * below it: the headroom covers what Chronicle adds around a record (its header, a new index array). A new cycle file
 * is made by the append itself, so the first append into one is allowed only when the filesystem has
 * {@link #NEW_FILE_BYTES} free, and the new file is reserved right after it. Reserving is a system call once per
 * {@link #CHUNK_BYTES} appended; the check in between is a comparison.
 * <p>
 * Threading: the appender's thread only.
 */
final class CycleFileSpace implements AutoCloseable
{
    /** How far ahead of the end of the records a reserve reaches. */
    static final long CHUNK_BYTES = 4L << 20;
    /** Room kept past a record for what Chronicle writes with it: its header, a new index array (8,192 longs). */
    static final long HEADROOM_BYTES = 256L << 10;
    /** Free space a new cycle file needs for its first record: its header and first indexes (128 KiB), headroom. */
    static final long NEW_FILE_BYTES = 1L << 20;
    private static final long PAGE = 4096;
    private static final int NO_CYCLE = Integer.MIN_VALUE;

    /** Opens the allocator of a cycle file whose data ends at the given offset. */
    @FunctionalInterface
    interface Opener
    {
        FileBlocks open(Path file, long dataEnd) throws IOException;
    }

    private final Opener opener;
    private final LongSupplier freeBytes;
    private FileBlocks blocks;
    private int cycle = NO_CYCLE;
    private long end;
    private long reservedEnd;

    /**
     * @param opener    opens a cycle file's allocator ({@link FileBlocks#open}).
     * @param freeBytes the free bytes of the queue's filesystem (a {@code statvfs}), asked before a new file; -1
     *                  when unknown, which lets the new file be made.
     */
    CycleFileSpace(final Opener opener, final LongSupplier freeBytes)
    {
        this.opener = opener;
        this.freeBytes = freeBytes;
    }

    /**
     * Before an append.
     *
     * @param nextCycle the cycle the append goes to (the queue's {@code cycle()}).
     * @param bytes     most bytes the record takes, its header included.
     * @return whether the append may go ahead: false when the filesystem has no room for it (nothing was written).
     */
    boolean ensure(final int nextCycle, final long bytes)
    {
        if (nextCycle != cycle)
        {
            final long free = freeBytes.getAsLong();
            return free < 0 || free >= NEW_FILE_BYTES + bytes;
        }
        final long need = end + bytes + HEADROOM_BYTES;
        return need <= reservedEnd || reserve(need);
    }

    /**
     * After an append: notes where the records end and, when the append opened another cycle file (or is the
     * first since the journal opened), reserves that file from its start.
     *
     * @param appender the appender that just closed its document.
     */
    void appended(final ExcerptAppender appender)
    {
        end = appender.wire().bytes().writePosition();
        final int appendedCycle = appender.cycle();
        if (appendedCycle != cycle)
        {
            switchTo(appendedCycle, appender.currentFile().toPath());
        }
    }

    /** @return the end of the allocated range of the current cycle file (tests). */
    long reservedEnd()
    {
        return reservedEnd;
    }

    @Override
    public void close()
    {
        if (null != blocks)
        {
            blocks.close();
            blocks = null;
        }
        cycle = NO_CYCLE;
    }

    private void switchTo(final int newCycle, final Path file)
    {
        close();
        cycle = newCycle;
        reservedEnd = 0;
        try
        {
            blocks = opener.open(file, end);
        }
        catch (final IOException ex)
        {
            // Without an allocator nothing is reserved: the next append is refused, as on a full filesystem.
            return;
        }
        // From 0: a file written before (another run, or older versions) may have holes under its end.
        reserve(end + HEADROOM_BYTES);
    }

    /** Allocates a chunk past {@code need}, or, when the filesystem has not that much, just up to it. */
    private boolean reserve(final long need)
    {
        if (null == blocks)
        {
            return false;
        }
        final long chunk = pageAlign(need + CHUNK_BYTES);
        if (blocks.allocate(reservedEnd, chunk - reservedEnd) == 0)
        {
            reservedEnd = chunk;
            return true;
        }
        final long least = pageAlign(need);
        if (least > reservedEnd && blocks.allocate(reservedEnd, least - reservedEnd) == 0)
        {
            reservedEnd = least;
            return true;
        }
        return false;
    }

    private static long pageAlign(final long offset)
    {
        return (offset + PAGE - 1) & -PAGE;
    }
}
