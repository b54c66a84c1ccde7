package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import static io.mdgate.egress.transport.shm.BroadcastLogDescriptor.*;

/**
 * Writes datagrams into a broadcast log file ({@link BroadcastLogDescriptor}). Never waits for readers: a slow
 * reader is lapped and finds out by itself. Creates the file at start (replacing one a crashed publisher left) and
 * removes it on close.
 * <p>
 * Threading: one sending thread. {@link #offer} is allocation- and syscall-free.
 */
final class ShmMulticastPublication implements MulticastPublication, ShmResource
{
    private final int streamId;
    private final int mtu;
    private final int slotMask;
    private final int slotLength;
    private final Path file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer log;
    private long tail;
    private boolean closed;

    ShmMulticastPublication(
        final ShmPlacement placement, final Path file, final int streamId, final int mtu, final int slotCount,
        final String group)
    {
        placement.deleteEverywhere(file);
        final ShmPlacement.Created created = placement.create(file, fileLength(slotCount, mtu), group);
        this.file = created.file();
        this.streamId = streamId;
        this.mtu = mtu;
        this.slotMask = slotCount - 1;
        this.slotLength = slotLength(mtu);
        this.mapped = created.mapped();
        this.log = new UnsafeBuffer(mapped);
        log.putInt(VERSION_OFFSET, VERSION);
        log.putInt(STREAM_ID_OFFSET, streamId);
        log.putInt(SLOT_COUNT_OFFSET, slotCount);
        log.putInt(SLOT_LENGTH_OFFSET, slotLength);
        log.putInt(MTU_OFFSET, mtu);
        log.putLongRelease(TAIL_OFFSET, 0);
        log.putLongRelease(MAGIC_OFFSET, MAGIC);
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
    public int offer(final MemoryRegion source, final int offset, final int length)
    {
        if (length > mtu || length < 0)
        {
            return TransportResult.TOO_LONG;
        }
        if (closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        final long index = tail;
        final int slot = slotOffset(index, slotMask, slotLength);
        log.putLong(slot + SLOT_STAMP_OFFSET, (index + 1) | WRITING);
        VarHandle.storeStoreFence();
        log.putInt(slot + SLOT_DATAGRAM_LENGTH_OFFSET, length);
        log.putBytes(slot + SLOT_HEADER_LENGTH, source.buffer(), offset, length);
        log.putLongRelease(slot + SLOT_STAMP_OFFSET, index + 1);
        tail = index + 1;
        log.putLongRelease(TAIL_OFFSET, index + 1);
        return TransportResult.OK;
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
            ShmFiles.delete(file);
            ShmFiles.unmap(mapped);
        }
    }
}
