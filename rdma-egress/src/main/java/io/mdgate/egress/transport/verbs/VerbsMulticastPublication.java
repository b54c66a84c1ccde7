package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.TransportResult;

/**
 * The stream's sending end: one UD queue pair joined to the stream's IPv4 group through RDMA-CM, posting each
 * datagram to the group's address handle (remote QPN 0xFFFFFF, the group's Q_Key) with one pre-built work request.
 * The datagram is copied into the queue's registered ring at post time, so the source is free on return. One queue
 * pair serves every consumer of the stream.
 * <p>
 * Threading: one sending thread. Allocation-free.
 */
final class VerbsMulticastPublication implements MulticastPublication, VerbsResource
{
    private final long handle;
    private final int streamId;
    private final int mtu;
    private final String group;
    private boolean closed;

    VerbsMulticastPublication(final long handle, final int streamId, final int mtu, final String group)
    {
        this.handle = handle;
        this.streamId = streamId;
        this.mtu = mtu;
        this.group = group;
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

    String group()
    {
        return group;
    }

    @Override
    public int offer(final MemoryRegion source, final int offset, final int length)
    {
        if (closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (length > mtu)
        {
            return TransportResult.TOO_LONG;
        }
        if (offset < 0 || length < 0 || offset > source.length() - length)
        {
            return TransportResult.OUT_OF_BOUNDS;
        }
        return VerbsResults.toTransportResult(
            VerbsNative.udSend0(handle, source.buffer().addressOffset() + offset, length));
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
            VerbsNative.udClose0(handle);
        }
    }
}
