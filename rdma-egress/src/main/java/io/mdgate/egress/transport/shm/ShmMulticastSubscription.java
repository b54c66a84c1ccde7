package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.DatagramHandler;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.TransportException;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import static io.mdgate.egress.transport.shm.BroadcastLogDescriptor.*;

/**
 * Reads datagrams from a broadcast log file ({@link BroadcastLogDescriptor}), starting at the datagrams written
 * after it joined. Each datagram is copied into this subscription's receive buffer and checked against the slot's
 * stamp before it is handed over, so a handler never sees a datagram the writer was overwriting. When lapped it
 * skips ahead to half a log behind the writer and counts the datagrams skipped.
 * <p>
 * Threading: one polling thread. {@link #poll} is allocation- and syscall-free.
 */
final class ShmMulticastSubscription implements MulticastSubscription, ShmResource
{
    private final int streamId;
    private final int mtu;
    private final int slotCount;
    private final int slotMask;
    private final int slotLength;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer log;
    private final UnsafeBuffer receiveBuffer;
    private long next;
    private long lossCount;
    private boolean closed;

    ShmMulticastSubscription(final Path file, final int streamId)
    {
        this.mapped = ShmFiles.mapExisting(file, HEADER_LENGTH);
        this.log = new UnsafeBuffer(mapped);
        if (log.getLongVolatile(MAGIC_OFFSET) != MAGIC || log.getInt(VERSION_OFFSET) != VERSION ||
            log.getInt(STREAM_ID_OFFSET) != streamId)
        {
            ShmFiles.unmap(mapped);
            throw new TransportException(file + " is not broadcast log version " + VERSION + " of stream " + streamId);
        }
        this.streamId = streamId;
        this.slotCount = log.getInt(SLOT_COUNT_OFFSET);
        this.slotMask = slotCount - 1;
        this.slotLength = log.getInt(SLOT_LENGTH_OFFSET);
        this.mtu = log.getInt(MTU_OFFSET);
        if (Integer.bitCount(slotCount) != 1 || fileLength(slotCount, mtu) > mapped.capacity() ||
            slotLength != BroadcastLogDescriptor.slotLength(mtu))
        {
            ShmFiles.unmap(mapped);
            throw new TransportException(file + " has an inconsistent header");
        }
        this.receiveBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned((mtu + 63) & ~63, 64));
        this.next = log.getLongVolatile(TAIL_OFFSET);
    }

    @Override
    public int streamId()
    {
        return streamId;
    }

    @Override
    public int maxDatagramLength()
    {
        return mtu;
    }

    @Override
    public int poll(final DatagramHandler handler, final int limit)
    {
        int delivered = 0;
        while (delivered < limit && !closed)
        {
            final long index = next;
            final int slot = slotOffset(index, slotMask, slotLength);
            final long stamp = log.getLongVolatile(slot + SLOT_STAMP_OFFSET);
            if (stamp == index + 1)
            {
                final int length = log.getInt(slot + SLOT_DATAGRAM_LENGTH_OFFSET);
                if (length >= 0 && length <= mtu)
                {
                    log.getBytes(slot + SLOT_HEADER_LENGTH, receiveBuffer, 0, length);
                }
                VarHandle.loadLoadFence();
                if (log.getLongVolatile(slot + SLOT_STAMP_OFFSET) != index + 1)
                {
                    skipAhead();
                    continue;
                }
                next = index + 1;
                if (length >= 0 && length <= mtu)
                {
                    handler.onDatagram(receiveBuffer, 0, length);
                    delivered++;
                }
            }
            else if ((stamp & ~WRITING) > index + 1)
            {
                skipAhead();
            }
            else
            {
                break;
            }
        }
        return delivered;
    }

    private void skipAhead()
    {
        final long tail = log.getLongVolatile(TAIL_OFFSET);
        final long resume = Math.max(next + 1, tail - slotCount / 2);
        lossCount += resume - next;
        next = resume;
    }

    @Override
    public long lossCount()
    {
        return lossCount;
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            ShmFiles.unmap(mapped);
        }
    }
}
