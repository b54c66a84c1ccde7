package io.mdgate.egress.protocol;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

/**
 * Seqlock read of a top-of-book slot ({@link TopOfBookDescriptor}) into a private copy: the version is read before
 * and after the copy and must be the same even number. Retries a bounded number of times while the gateway writes.
 * <p>
 * Threading: the consumer's thread; the gateway writes concurrently. Allocation-free.
 */
public final class TopOfBookReader
{
    /** The copy is one consistent version. */
    public static final int READ = 1;
    /** The slot was never written. */
    public static final int EMPTY = 0;
    /** Every attempt overlapped a write: try again later. */
    public static final int BUSY = -1;

    private final int attempts;

    /** @param attempts copies tried before giving up with {@link #BUSY}, at least 1. */
    public TopOfBookReader(final int attempts)
    {
        this.attempts = Math.max(1, attempts);
    }

    /**
     * @param table     buffer holding the slot.
     * @param offset    of the slot.
     * @param dst       receives the 64 bytes.
     * @param dstOffset where in {@code dst}.
     * @return {@link #READ}, {@link #EMPTY} or {@link #BUSY}.
     */
    public int read(final AtomicBuffer table, final int offset, final MutableDirectBuffer dst, final int dstOffset)
    {
        return read(table, offset, TopOfBookDescriptor.LENGTH, dst, dstOffset);
    }

    /**
     * Reads a seqlocked slot of any length whose first 8 bytes are its version, as a depth table slot
     * ({@link DepthTableDescriptor}).
     *
     * @param length bytes of the slot, version included.
     * @return {@link #READ}, {@link #EMPTY} or {@link #BUSY}.
     */
    public int read(final AtomicBuffer table, final int offset, final int length, final MutableDirectBuffer dst,
        final int dstOffset)
    {
        for (int i = 0; i < attempts; i++)
        {
            final long before = table.getLongVolatile(offset + TopOfBookDescriptor.VERSION_OFFSET);
            if (before == 0)
            {
                return EMPTY;
            }
            if ((before & 1) == 0)
            {
                table.getBytes(offset, dst, dstOffset, length);
                VarHandle.loadLoadFence();
                if (table.getLongVolatile(offset + TopOfBookDescriptor.VERSION_OFFSET) == before)
                {
                    return READ;
                }
            }
            Thread.onSpinWait();
        }
        return BUSY;
    }
}
