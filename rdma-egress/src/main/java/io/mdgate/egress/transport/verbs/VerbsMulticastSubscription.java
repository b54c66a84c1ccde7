package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.DatagramHandler;
import io.mdgate.egress.transport.MulticastSubscription;

/**
 * The stream's receiving end: a UD queue pair of its own joined to the group through RDMA-CM, with receives posted
 * from a registered region. A poll is one native call that copies arrived datagrams (without their 40-byte GRH)
 * into a frame buffer and posts the receives again. When the subscriber falls behind and the posted receives run
 * out, the device drops datagrams without telling anyone, so {@link #lossCount()} stays 0 and the protocol's
 * sequence numbers find the loss.
 * <p>
 * Threading: one polling thread. Allocation-free.
 */
final class VerbsMulticastSubscription implements MulticastSubscription, VerbsResource
{
    private final long handle;
    private final int streamId;
    private final int mtu;
    private final FrameReader frames;
    private boolean closed;

    VerbsMulticastSubscription(final long handle, final int streamId, final int mtu, final int pollBatch)
    {
        this.handle = handle;
        this.streamId = streamId;
        this.mtu = mtu;
        this.frames = new FrameReader(mtu + 40, pollBatch);
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
        if (closed)
        {
            return 0;
        }
        final int count = VerbsNative.udPoll0(handle, frames.address(), frames.capacity(),
            Math.min(limit, frames.frames()));
        int offset = 0;
        for (int i = 0; i < count; i++)
        {
            handler.onDatagram(frames.buffer(), offset + FrameReader.HEADER_LENGTH, frames.length(offset));
            offset = frames.next(offset);
        }
        return Math.max(count, 0);
    }

    @Override
    public long lossCount()
    {
        return 0;
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
