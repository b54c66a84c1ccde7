package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlMessageHandler;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A control connection: an RC queue pair set up by RDMA-CM. {@link #offer} is one SEND (inline or copied at post
 * time, so the caller's buffer is free on return); {@link #poll} is one native call that notices a disconnect
 * (RDMA-CM event, a failed work request), reaps send completions and copies the arrived messages into a frame
 * buffer, then hands them over. The peer always has receives posted; a peer that stops reading makes the sender
 * retry (RNR) and then back-pressure, never lose a message.
 * <p>
 * Threading: one thread offers and polls. Offer and poll do not allocate; they make the syscalls rdma-core's
 * provider makes (with Soft-RoCE, one per post).
 */
final class VerbsControlChannel implements ControlChannel, VerbsResource
{
    private final long handle;
    private final int maxMessageLength;
    private final FrameReader frames;
    private final UnsafeBuffer scratch;
    private final String peer;
    private final String localAddress;
    private boolean connected = true;
    private boolean closed;

    VerbsControlChannel(final long handle, final int maxMessageLength, final int pollBatch)
    {
        this.handle = handle;
        this.maxMessageLength = maxMessageLength;
        this.frames = new FrameReader(maxMessageLength, pollBatch);
        this.scratch = new UnsafeBuffer(BufferUtil.allocateDirectAligned(FrameReader.align(maxMessageLength, 64), 64));
        this.peer = "rdma-cm:" + VerbsNative.rcAddress0(handle, false);
        this.localAddress = VerbsNative.rcAddress0(handle, true);
    }

    long handle()
    {
        return handle;
    }

    /** @return the local end, {@code ip:port}. */
    String localAddress()
    {
        return localAddress;
    }

    int onResult(final int result)
    {
        final int code = VerbsResults.toTransportResult(result);
        if (code == TransportResult.NOT_CONNECTED)
        {
            connected = false;
        }
        return code;
    }

    @Override
    public int maxMessageLength()
    {
        return maxMessageLength;
    }

    @Override
    public int offer(final DirectBuffer buffer, final int offset, final int length)
    {
        if (!connected || closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (length < 0 || length > maxMessageLength)
        {
            return TransportResult.TOO_LONG;
        }
        final long address;
        if (null == buffer.byteArray())
        {
            address = buffer.addressOffset() + offset;
        }
        else
        {
            scratch.putBytes(0, buffer, offset, length);
            address = scratch.addressOffset();
        }
        return onResult(VerbsNative.rcSend0(handle, address, length));
    }

    @Override
    public int poll(final ControlMessageHandler handler, final int limit)
    {
        if (!connected || closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        final int count = VerbsNative.rcPoll0(handle, frames.address(), frames.capacity(),
            Math.min(limit, frames.frames()));
        if (count < 0)
        {
            connected = false;
            return TransportResult.NOT_CONNECTED;
        }
        int offset = 0;
        for (int i = 0; i < count; i++)
        {
            handler.onMessage(frames.buffer(), offset + FrameReader.HEADER_LENGTH, frames.length(offset));
            offset = frames.next(offset);
        }
        return count;
    }

    @Override
    public boolean isConnected()
    {
        return connected && !closed;
    }

    @Override
    public RemoteRegion openRemoteRegion(final RemoteKey key)
    {
        if (key.length() <= 0 || key.address() == 0)
        {
            throw new TransportException("remote region " + key + " is empty or has no address");
        }
        return new VerbsRemoteRegion(this, key);
    }

    @Override
    public String peer()
    {
        return peer;
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
            connected = false;
            VerbsNative.rcClose0(handle);
        }
    }
}
