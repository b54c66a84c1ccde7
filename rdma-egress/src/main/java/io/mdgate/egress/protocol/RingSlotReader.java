package io.mdgate.egress.protocol;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

import static io.mdgate.egress.protocol.ConsumerRegionDescriptor.*;

/**
 * Reads one ring slot of a consumer region ({@link ConsumerRegionDescriptor}) into a private copy and says whether
 * the copy can be trusted, with no help from the gateway: the stamp must hold the expected position before and after
 * the copy, and the check must match the copy.
 * <p>
 * Threading: the consumer's polling thread; the gateway writes concurrently. Allocation-free.
 */
public final class RingSlotReader
{
    /** The copy holds the slot for the position asked for. */
    public static final int READ = 1;
    /** Nothing written at this position yet (or an older position is still there). */
    public static final int EMPTY = 0;
    /** The slot was being written while it was copied: try again later. */
    public static final int TORN = -1;
    /** The slot holds a later position: the reader was overtaken. */
    public static final int AHEAD = -2;

    private final AtomicBuffer region;
    private final int ringSlots;

    /**
     * @param region    the consumer region, from offset 0.
     * @param ringSlots N, a power of two.
     */
    public RingSlotReader(final AtomicBuffer region, final int ringSlots)
    {
        this.region = region;
        this.ringSlots = ringSlots;
    }

    /**
     * @param position ring position to read.
     * @param dst      receives the 64 bytes (meaningful only when {@link #READ} is returned).
     * @param dstOffset where in {@code dst}.
     * @return {@link #READ}, {@link #EMPTY}, {@link #TORN} or {@link #AHEAD}.
     */
    public int read(final long position, final MutableDirectBuffer dst, final int dstOffset)
    {
        final int stamp = stampOffset(position, ringSlots);
        final long before = region.getLongVolatile(stamp);
        if (before != position + 1)
        {
            return before > position + 1 ? AHEAD : EMPTY;
        }
        region.getBytes(slotOffset(position, ringSlots), dst, dstOffset, SLOT_LENGTH);
        VarHandle.loadLoadFence();
        final long after = region.getLongVolatile(stamp);
        final long check = region.getLongVolatile(stamp + STAMP_CHECK_OFFSET);
        if (after != position + 1 || check != SlotCheck.compute(position, dst, dstOffset))
        {
            return TORN;
        }
        return READ;
    }

    public int ringSlots()
    {
        return ringSlots;
    }
}
