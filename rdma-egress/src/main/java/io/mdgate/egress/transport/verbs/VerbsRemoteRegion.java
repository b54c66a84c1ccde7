package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;

/**
 * A peer's region opened over a control connection: each write is one {@code IBV_WR_RDMA_WRITE} work request on the
 * connection's RC queue pair, to the key's address plus the offset with its rkey. The HCA checks the rkey and the
 * bounds; a refused write breaks the connection (the queue pair goes to the error state), which is why the bounds
 * are also checked here first. Writes up to 4 KiB (and every {@link #writeLong}) are copied at post time, so their
 * source may change at once; larger writes are read from the source region until they complete.
 * <p>
 * Threading: one posting thread, the channel's. Allocation-free.
 */
final class VerbsRemoteRegion implements RemoteRegion, VerbsResource
{
    private final VerbsControlChannel channel;
    private final RemoteKey key;
    private final int length;
    private boolean closed;

    VerbsRemoteRegion(final VerbsControlChannel channel, final RemoteKey key)
    {
        this.channel = channel;
        this.key = key;
        this.length = (int)Math.min(Integer.MAX_VALUE, key.length());
    }

    @Override
    public int length()
    {
        return length;
    }

    @Override
    public int write(final int remoteOffset, final MemoryRegion source, final int sourceOffset, final int length)
    {
        if (closed || channel.isClosed())
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (!RemoteRegion.writeFits(remoteOffset, length, this.length, sourceOffset, source.length()))
        {
            return TransportResult.OUT_OF_BOUNDS;
        }
        final VerbsRegion region = (VerbsRegion)source;
        return channel.onResult(VerbsNative.rcWrite0(channel.handle(), region.address() + sourceOffset,
            region.lkey(), length, key.address() + remoteOffset, key.key()));
    }

    @Override
    public int writeLong(final int remoteOffset, final long value)
    {
        if (closed || channel.isClosed())
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (!RemoteRegion.longFits(remoteOffset, length))
        {
            return TransportResult.OUT_OF_BOUNDS;
        }
        return channel.onResult(VerbsNative.rcWriteLong0(channel.handle(), value, key.address() + remoteOffset,
            key.key()));
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        closed = true;
    }
}
