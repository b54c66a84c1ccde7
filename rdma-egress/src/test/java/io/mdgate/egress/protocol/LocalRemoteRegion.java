package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

/**
 * A "remote" region that is a buffer of this process, placing one-sided writes in one of the orders RDMA allows,
 * to test that readers never accept what a hostile but legal placement produces:
 * <ul>
 *   <li>{@link Placement#IN_ORDER}: writes in posting order, bytes first to last (what shm does);</li>
 *   <li>{@link Placement#WORDS_BACKWARDS}: writes in posting order, the 8-byte words of each write last to first;</li>
 *   <li>{@link Placement#WRITES_SWAPPED}: each pair of consecutive writes placed second first.</li>
 * </ul>
 * Threading: one writing thread.
 */
final class LocalRemoteRegion implements RemoteRegion
{
    enum Placement
    {
        IN_ORDER, WORDS_BACKWARDS, WRITES_SWAPPED
    }

    private final AtomicBuffer target;
    private final Placement placement;
    private MemoryRegion heldSource;
    private int heldRemoteOffset;
    private int heldSourceOffset;
    private int heldLength = -1;

    LocalRemoteRegion(final AtomicBuffer target, final Placement placement)
    {
        this.target = target;
        this.placement = placement;
    }

    @Override
    public int length()
    {
        return target.capacity();
    }

    @Override
    public int write(final int remoteOffset, final MemoryRegion source, final int sourceOffset, final int length)
    {
        if (placement == Placement.WRITES_SWAPPED && heldLength < 0)
        {
            heldSource = source;
            heldRemoteOffset = remoteOffset;
            heldSourceOffset = sourceOffset;
            heldLength = length;
            return TransportResult.OK;
        }
        place(remoteOffset, source, sourceOffset, length);
        if (heldLength >= 0)
        {
            place(heldRemoteOffset, heldSource, heldSourceOffset, heldLength);
            heldLength = -1;
        }
        return TransportResult.OK;
    }

    private void place(final int remoteOffset, final MemoryRegion source, final int sourceOffset, final int length)
    {
        VarHandle.releaseFence();
        if (placement == Placement.WORDS_BACKWARDS && (length & 7) == 0)
        {
            for (int i = length - 8; i >= 0; i -= 8)
            {
                target.putLong(remoteOffset + i, source.buffer().getLong(sourceOffset + i));
            }
        }
        else
        {
            target.putBytes(remoteOffset, source.buffer(), sourceOffset, length);
        }
    }

    @Override
    public int writeLong(final int remoteOffset, final long value)
    {
        if (heldLength >= 0)
        {
            target.putLongRelease(remoteOffset, value);
            place(heldRemoteOffset, heldSource, heldSourceOffset, heldLength);
            heldLength = -1;
            return TransportResult.OK;
        }
        target.putLongRelease(remoteOffset, value);
        return TransportResult.OK;
    }

    @Override
    public void close()
    {
    }
}
