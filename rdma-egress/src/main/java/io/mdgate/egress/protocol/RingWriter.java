package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.nio.ByteOrder;

import static io.mdgate.egress.protocol.ConsumerRegionDescriptor.*;

/**
 * The gateway's side of one consumer's ring: ticks are staged with their stamps in a registered staging region laid
 * out exactly as the consumer's ring ({@link ConsumerRegionDescriptor}), then {@link #flush()} posts one-sided writes
 * of the staged slots followed by writes of their stamps (at most two of each, where the ring wraps). It enforces no
 * flow control: the caller decides whether a position may be written.
 * <p>
 * Threading: the publisher's thread. Allocation-free.
 */
public final class RingWriter
{
    private final MemoryRegion staging;
    private final AtomicBuffer buffer;
    private int ringSlots;
    private RemoteRegion remote;
    private long position;
    private long flushedPosition;

    /**
     * @param staging registered {@link io.mdgate.egress.transport.RegionAccess#LOCAL} region of at least
     *                {@link ConsumerRegionDescriptor#ringLength(int)} bytes for the largest ring.
     */
    public RingWriter(final MemoryRegion staging)
    {
        this.staging = staging;
        this.buffer = staging.buffer();
    }

    /**
     * Binds the writer to a consumer's ring and starts at position 0.
     *
     * @param remote    the consumer's region.
     * @param ringSlots N of the consumer's ring (a power of two that fits the staging region).
     */
    public void attach(final RemoteRegion remote, final int ringSlots)
    {
        if (ringLength(ringSlots) > staging.length())
        {
            throw new IllegalArgumentException("ring of " + ringSlots + " slots does not fit the staging region");
        }
        this.remote = remote;
        this.ringSlots = ringSlots;
        this.position = 0;
        this.flushedPosition = 0;
    }

    public void detach()
    {
        remote = null;
    }

    /** @return the next position to be staged. */
    public long position()
    {
        return position;
    }

    /** @return positions staged but not yet posted. */
    public int pending()
    {
        return (int)(position - flushedPosition);
    }

    public int ringSlots()
    {
        return ringSlots;
    }

    /**
     * Stages a tick at the next position, with extra flag bits or-ed into its {@code flags}. The caller flushes
     * before {@link #pending()} reaches the ring size.
     */
    public void stage(final DirectBuffer tick, final int offset, final short extraFlags)
    {
        final long p = position;
        final int slot = slotOffset(p, ringSlots);
        buffer.putBytes(slot, tick, offset, SLOT_LENGTH);
        if (extraFlags != 0)
        {
            final int flags = slot + TickLayout.FLAGS_OFFSET;
            buffer.putShort(flags, (short)(buffer.getShort(flags, ByteOrder.LITTLE_ENDIAN) | extraFlags),
                ByteOrder.LITTLE_ENDIAN);
        }
        final int stamp = stampOffset(p, ringSlots);
        buffer.putLong(stamp, p + 1, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(stamp + STAMP_CHECK_OFFSET, SlotCheck.compute(p, buffer, slot), ByteOrder.LITTLE_ENDIAN);
        position = p + 1;
    }

    /**
     * Posts the staged slots, then their stamps. On failure nothing is forgotten: the same range is posted again at
     * the next flush (rewriting identical bytes is harmless).
     *
     * @return {@link TransportResult#OK} or the transport's failure code.
     */
    public int flush()
    {
        final long from = flushedPosition;
        final int count = (int)(position - from);
        if (count == 0 || null == remote)
        {
            return TransportResult.OK;
        }
        final int first = (int)(from & (ringSlots - 1));
        final int firstRun = Math.min(count, ringSlots - first);
        int result = writeRun(first, firstRun);
        if (result == TransportResult.OK && count > firstRun)
        {
            result = writeRun(0, count - firstRun);
        }
        if (result == TransportResult.OK)
        {
            flushedPosition = position;
        }
        return result;
    }

    private int writeRun(final int firstSlot, final int slots)
    {
        final int slotOffset = SLOTS_OFFSET + firstSlot * SLOT_LENGTH;
        int result = remote.write(slotOffset, staging, slotOffset, slots * SLOT_LENGTH);
        if (result == TransportResult.OK)
        {
            final int stampOffset = stampsOffset(ringSlots) + firstSlot * STAMP_LENGTH;
            result = remote.write(stampOffset, staging, stampOffset, slots * STAMP_LENGTH);
        }
        return result;
    }
}
