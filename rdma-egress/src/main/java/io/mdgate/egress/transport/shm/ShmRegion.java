package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteKey;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * A registered region of the {@code shm} transport. A {@link RegionAccess#REMOTE_WRITE} region is a file under the
 * transport's directory that a peer maps after checking the key in its header ({@link ShmRegionDescriptor}); a
 * {@link RegionAccess#LOCAL} region is private, page-aligned memory of this process. Closing it unmaps and removes
 * the file; a peer that mapped it keeps its mapping until it closes its side.
 * <p>
 * Threading: see {@link MemoryRegion}.
 */
final class ShmRegion implements MemoryRegion, ShmResource
{
    private final RegionAccess access;
    private final RemoteKey remoteKey;
    private final Path file;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private boolean closed;

    private ShmRegion(
        final RegionAccess access,
        final RemoteKey remoteKey,
        final Path file,
        final MappedByteBuffer mapped,
        final UnsafeBuffer buffer)
    {
        this.access = access;
        this.remoteKey = remoteKey;
        this.file = file;
        this.mapped = mapped;
        this.buffer = buffer;
    }

    static ShmRegion local(final int length)
    {
        final ByteBuffer memory = BufferUtil.allocateDirectAligned(align(length), 4096);
        return new ShmRegion(RegionAccess.LOCAL, null, null, null, new UnsafeBuffer(memory, 0, length));
    }

    static ShmRegion shared(
        final ShmPlacement placement, final Path name, final long address, final int key, final int length,
        final String group)
    {
        final ShmPlacement.Created created = placement.create(
            name, (long)ShmRegionDescriptor.HEADER_LENGTH + align(length), group);
        final Path file = created.file();
        final MappedByteBuffer mapped = created.mapped();
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, ShmRegionDescriptor.HEADER_LENGTH);
        header.putLong(ShmRegionDescriptor.ADDRESS_OFFSET, address);
        header.putInt(ShmRegionDescriptor.KEY_OFFSET, key);
        header.putInt(ShmRegionDescriptor.VERSION_OFFSET, ShmRegionDescriptor.VERSION);
        header.putLong(ShmRegionDescriptor.LENGTH_OFFSET, length);
        header.putLong(ShmRegionDescriptor.OWNER_PID_OFFSET, ProcessHandle.current().pid());
        header.putLongRelease(ShmRegionDescriptor.MAGIC_OFFSET, ShmRegionDescriptor.MAGIC);
        final UnsafeBuffer buffer = new UnsafeBuffer(mapped, ShmRegionDescriptor.HEADER_LENGTH, length);
        return new ShmRegion(RegionAccess.REMOTE_WRITE, new RemoteKey(address, key, length), file, mapped, buffer);
    }

    private static int align(final int length)
    {
        return (length + 4095) & ~4095;
    }

    @Override
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    @Override
    public int length()
    {
        return buffer.capacity();
    }

    @Override
    public RegionAccess access()
    {
        return access;
    }

    @Override
    public RemoteKey remoteKey()
    {
        return remoteKey;
    }

    Path file()
    {
        return file;
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
            if (null != file)
            {
                ShmFiles.delete(file);
                ShmFiles.unmap(mapped);
            }
        }
    }
}
