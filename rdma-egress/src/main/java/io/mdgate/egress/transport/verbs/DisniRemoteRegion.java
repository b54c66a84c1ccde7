package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;

/**
 * A peer's region opened over a DiSNI control connection: each write is one RDMA Write through the connection's
 * pre-built {@code SVCPostSend}, to the key's address plus the offset under its rkey. Bounds are checked here
 * first, since a write the device refuses breaks the connection. Writes up to 4 KiB (and every {@link #writeLong})
 * are copied or inlined at post time; larger ones are read from the source region until they complete. The source
 * must be a region of the same transport ({@link DisniRegion}).
 * <p>
 * Threading: one posting thread, the channel's. Allocation-free.
 */
final class DisniRemoteRegion implements RemoteRegion, VerbsResource
{
    private final DisniControlChannel channel;
    private final RemoteKey key;
    private final int length;
    private boolean closed;

    DisniRemoteRegion(final DisniControlChannel channel, final RemoteKey key)
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
        return channel.write((RegisteredMemory)source, source.buffer(), sourceOffset, length,
            key.address() + remoteOffset, key.key());
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
        return channel.writeLong(value, key.address() + remoteOffset, key.key());
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
