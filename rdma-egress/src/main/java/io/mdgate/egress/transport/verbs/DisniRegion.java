package io.mdgate.egress.transport.verbs;

import com.ibm.disni.verbs.IbvMr;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.TransportException;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;

/**
 * Memory registered through DiSNI ({@code IbvPd.regMr}) with the protection domain every DiSNI queue pair of the
 * transport shares: local write access, plus remote write for {@link RegionAccess#REMOTE_WRITE}, whose
 * {@link RemoteKey} is (virtual address, rkey, length). On 2 MiB pages when the transport got them.
 * <p>
 * Threading: see {@link MemoryRegion}.
 */
final class DisniRegion implements MemoryRegion, VerbsResource, RegisteredMemory
{
    private final RegionMemory memory;
    private final UnsafeBuffer buffer;
    private final RegionAccess access;
    private final IbvMr mr;
    private final RemoteKey remoteKey;
    private boolean closed;

    private DisniRegion(final RegionMemory memory, final RegionAccess access, final IbvMr mr, final int length)
    {
        this.memory = memory;
        this.buffer = memory.buffer();
        this.access = access;
        this.mr = mr;
        this.remoteKey = access == RegionAccess.REMOTE_WRITE ? new RemoteKey(buffer.addressOffset(), mr.getRkey(),
            length) : null;
    }

    static DisniRegion register(final DisniDevice device, final RegionMemory memory, final int length,
        final RegionAccess access)
    {
        int flags = IbvMr.IBV_ACCESS_LOCAL_WRITE;
        if (access == RegionAccess.REMOTE_WRITE)
        {
            flags |= IbvMr.IBV_ACCESS_REMOTE_WRITE;
        }
        try
        {
            final IbvMr mr = device.pd().regMr(memory.address(), (int)memory.mappedLength(), flags).execute().free()
                .getMr();
            return new DisniRegion(memory, access, mr, length);
        }
        catch (final IOException ex)
        {
            memory.release();
            throw new TransportException("cannot register " + length + " bytes through DiSNI: " + ex.getMessage() +
                " (the locked-memory limit, ulimit -l, may be too low)", ex);
        }
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
        return mr.getLkey();
    }

    /** @return whether the region sits on 2 MiB pages. */
    boolean isHuge()
    {
        return memory.isHuge();
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
            try
            {
                mr.deregMr().execute().free();
            }
            catch (final IOException ignore)
            {
                // Teardown: the registration goes with the protection domain.
            }
            memory.release();
        }
    }
}
