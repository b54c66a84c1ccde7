package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.TransportException;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Memory registered with the device ({@code ibv_reg_mr}) through the project's library: page-aligned, on 2 MiB pages
 * when the transport got them ({@link RegionMemory}); local write access, plus remote write
 * for {@link RegionAccess#REMOTE_WRITE}, whose {@link RemoteKey} is (virtual address, rkey, length). Registered
 * memory is pinned by the kernel, so its pages stay where the device writes them.
 * <p>
 * Threading: see {@link MemoryRegion}.
 */
final class VerbsRegion implements MemoryRegion, VerbsResource, RegisteredMemory
{
    private final RegionMemory memory;
    private final UnsafeBuffer buffer;
    private final RegionAccess access;
    private final long mr;
    private final int lkey;
    private final RemoteKey remoteKey;
    private boolean closed;

    private VerbsRegion(final RegionMemory memory, final UnsafeBuffer buffer, final RegionAccess access, final long mr,
        final int lkey, final RemoteKey remoteKey)
    {
        this.memory = memory;
        this.buffer = buffer;
        this.access = access;
        this.mr = mr;
        this.lkey = lkey;
        this.remoteKey = remoteKey;
    }

    static VerbsRegion register(final VerbsDevice device, final RegionMemory memory, final int length,
        final RegionAccess access)
    {
        final UnsafeBuffer buffer = memory.buffer();
        final int[] keys = new int[2];
        final boolean remote = access == RegionAccess.REMOTE_WRITE;
        final long mr = VerbsNative.regMr0(device.handle(), buffer.addressOffset(), memory.mappedLength(), remote,
            keys);
        if (mr < 0)
        {
            memory.release();
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

    @Override
    public long address()
    {
        return buffer.addressOffset();
    }

    @Override
    public int lkey()
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
            VerbsNative.deregMr0(mr);
            memory.release();
        }
    }
}
