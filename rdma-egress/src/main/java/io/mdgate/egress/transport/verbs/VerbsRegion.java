package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.TransportException;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Page-aligned direct memory registered with the device ({@code ibv_reg_mr}): local write access, plus remote write
 * for {@link RegionAccess#REMOTE_WRITE}, whose {@link RemoteKey} is (virtual address, rkey, length). Registered
 * memory is pinned by the kernel, so its pages stay where the device writes them.
 * <p>
 * Threading: see {@link MemoryRegion}.
 */
final class VerbsRegion implements MemoryRegion, VerbsResource
{
    private final ByteBuffer memory; // keeps the registered memory alive as long as the region
    private final UnsafeBuffer buffer;
    private final RegionAccess access;
    private final long mr;
    private final int lkey;
    private final RemoteKey remoteKey;
    private boolean closed;

    private VerbsRegion(final ByteBuffer memory, final UnsafeBuffer buffer, final RegionAccess access, final long mr,
        final int lkey, final RemoteKey remoteKey)
    {
        this.memory = memory;
        this.buffer = buffer;
        this.access = access;
        this.mr = mr;
        this.lkey = lkey;
        this.remoteKey = remoteKey;
    }

    static VerbsRegion register(final VerbsDevice device, final int length, final RegionAccess access)
    {
        final int aligned = FrameReader.align(length, 4096);
        final ByteBuffer memory = BufferUtil.allocateDirectAligned(aligned, 4096);
        final UnsafeBuffer buffer = new UnsafeBuffer(memory, 0, length);
        final int[] keys = new int[2];
        final boolean remote = access == RegionAccess.REMOTE_WRITE;
        final long mr = VerbsNative.regMr0(device.handle(), buffer.addressOffset(), aligned, remote, keys);
        if (mr < 0)
        {
            final String hint = -mr == VerbsNative.ENOMEM ? " (the locked-memory limit, ulimit -l, may be too low)" :
                "";
            throw new TransportException("cannot register " + length + " bytes with " + device.name() + ": " +
                VerbsResults.describe(mr) + hint);
        }
        final RemoteKey key = remote ? new RemoteKey(buffer.addressOffset(), keys[1], length) : null;
        return new VerbsRegion(memory, buffer, access, mr, keys[0], key);
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

    long address()
    {
        return buffer.addressOffset();
    }

    int lkey()
    {
        return lkey;
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
            // The memory itself is freed with the ByteBuffer once nothing refers to this region.
            VerbsNative.deregMr0(mr);
        }
    }
}
