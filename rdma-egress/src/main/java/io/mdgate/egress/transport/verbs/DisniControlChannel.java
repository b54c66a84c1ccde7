package io.mdgate.egress.transport.verbs;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlMessageHandler;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A control connection on the DiSNI path: an RC queue pair that RDMA-CM set up through DiSNI's {@link RdmaCmId},
 * with its own send and receive completion queues, a {@link DisniSendQueue} (SENDs and RDMA Writes through
 * pre-built {@code SVCPostSend} calls) and a {@link DisniReceiveQueue}. Same contract as the project's own
 * library's connection: {@link #offer} copies or inlines, so the caller's buffer is free on return; a peer that
 * stops reading makes the sender retry (RNR, for ever) and then back-pressure, never lose a message.
 * <p>
 * A disconnect is noticed from RDMA-CM events: a consumer's connection has its own event channel, checked at most
 * every {@link #EVENT_CHECK_NANOS} by {@link #poll} (DiSNI's event call costs a small allocation, so not every
 * duty cycle); an accepted connection's events arrive on the listener's channel, which its poll has the
 * {@link DisniControlServer} read, at the same pace. A failed work request breaks the connection at once either way.
 * <p>
 * Threading: one thread offers and polls. Offer, poll and writes do not allocate, apart from the event check.
 */
final class DisniControlChannel implements ControlChannel, VerbsResource
{
    static final long EVENT_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int WANTED_INLINE = 64;
    private static final byte RETRY = 7;

    private final RdmaCmId id;
    private final RdmaEventChannel events;
    private final IbvCQ sendCq;
    private final IbvCQ receiveCq;
    private final DisniSendQueue sends;
    private final DisniReceiveQueue receives;
    private final int maxMessageLength;
    private final UnsafeBuffer scratch = new UnsafeBuffer(org.agrona.BufferUtil.allocateDirectAligned(64, 64));
    private final String peer;
    private final String localAddress;
    private final DisniControlServer server;
    private final Runnable onClose;
    private long nextEventCheckNanos;
    private boolean connected = true;
    private boolean closed;

    private DisniControlChannel(final RdmaCmId id, final RdmaEventChannel events, final IbvCQ sendCq,
        final IbvCQ receiveCq, final DisniSendQueue sends, final DisniReceiveQueue receives,
        final int maxMessageLength, final DisniControlServer server, final Runnable onClose) throws IOException
    {
        this.id = id;
        this.server = server;
        this.events = events;
        this.sendCq = sendCq;
        this.receiveCq = receiveCq;
        this.sends = sends;
        this.receives = receives;
        this.maxMessageLength = maxMessageLength;
        this.onClose = onClose;
        this.peer = "rdma-cm:" + describe(id.getDestination());
        this.localAddress = describe(id.getSource());
    }

    /** What one end needs before RDMA-CM connects or accepts: queues on {@code id}'s device, receives posted. */
    static final class Resources
    {
        final IbvCQ sendCq;
        final IbvCQ receiveCq;
        final DisniSendQueue sends;
        final DisniReceiveQueue receives;

        private Resources(final IbvCQ sendCq, final IbvCQ receiveCq, final DisniSendQueue sends,
            final DisniReceiveQueue receives)
        {
            this.sendCq = sendCq;
            this.receiveCq = receiveCq;
            this.sends = sends;
            this.receives = receives;
        }

        static Resources create(final RdmaCmId id, final DisniDevice device, final VerbsContext context)
            throws IOException
        {
            final IbvPd pd = device.pd();
            final IbvContext verbs = id.getVerbs();
            if (null == verbs)
            {
                throw new IOException("the RDMA-CM id has no device");
            }
            IbvCQ sendCq = null;
            IbvCQ receiveCq = null;
            DisniSendQueue sends = null;
            boolean hasQp = false;
            try
            {
                sendCq = verbs.createCQ(device.completions(), context.sendQueueDepth(), 0);
                receiveCq = verbs.createCQ(device.completions(), context.controlReceiveBuffers(), 0);
                int inline = WANTED_INLINE;
                IbvQP qp;
                try
                {
                    qp = id.createQP(pd, attributes(sendCq, receiveCq, context, inline));
                }
                catch (final IOException ex)
                {
                    inline = 0;
                    qp = id.createQP(pd, attributes(sendCq, receiveCq, context, inline));
                }
                hasQp = true;
                sends = new DisniSendQueue(pd, qp, sendCq, context.sendQueueDepth(), context.sendRingBytes(), inline);
                final DisniReceiveQueue receives = new DisniReceiveQueue(pd, qp, receiveCq,
                    context.controlReceiveBuffers(), context.controlMessageLength());
                return new Resources(sendCq, receiveCq, sends, receives);
            }
            catch (final IOException | RuntimeException ex)
            {
                if (null != sends)
                {
                    sends.close();
                }
                if (hasQp)
                {
                    quietly(() -> id.destroyQP());
                }
                destroy(sendCq);
                destroy(receiveCq);
                throw ex;
            }
        }

        private static IbvQPInitAttr attributes(final IbvCQ sendCq, final IbvCQ receiveCq,
            final VerbsContext context, final int inline)
        {
            final IbvQPInitAttr attr = new IbvQPInitAttr();
            attr.cap().setMax_send_wr(context.sendQueueDepth());
            attr.cap().setMax_recv_wr(context.controlReceiveBuffers());
            attr.cap().setMax_send_sge(1);
            attr.cap().setMax_recv_sge(1);
            attr.cap().setMax_inline_data(inline);
            attr.setQp_type(IbvQP.IBV_QPT_RC);
            attr.setSend_cq(sendCq);
            attr.setRecv_cq(receiveCq);
            return attr;
        }

        void destroy(final RdmaCmId id)
        {
            quietly(() -> id.destroyQP());
            sends.close();
            receives.close();
            destroy(sendCq);
            destroy(receiveCq);
        }

        private static void destroy(final IbvCQ cq)
        {
            if (null != cq)
            {
                quietly(cq::destroyCQ);
            }
        }
    }

    /** RDMA-CM's parameters of both ends: retry for ever while the peer has no receive posted. */
    static RdmaConnParam connectionParameters() throws IOException
    {
        final RdmaConnParam param = new RdmaConnParam();
        param.setRetry_count(RETRY);
        param.setRnr_retry_count(RETRY);
        return param;
    }

    /** An accepted connection (the publisher's end); its events come from the listener. */
    static DisniControlChannel accepted(final RdmaCmId id, final Resources resources, final int maxMessageLength,
        final DisniControlServer server, final Runnable onClose) throws IOException
    {
        return new DisniControlChannel(id, null, resources.sendCq, resources.receiveCq, resources.sends,
            resources.receives, maxMessageLength, server, onClose);
    }

    /** A connection this end made (a consumer's); {@code events} is its own channel, closed with it. */
    static DisniControlChannel connected(final RdmaCmId id, final RdmaEventChannel events, final Resources resources,
        final int maxMessageLength) throws IOException
    {
        return new DisniControlChannel(id, events, resources.sendCq, resources.receiveCq, resources.sends,
            resources.receives, maxMessageLength, null, null);
    }

    RdmaCmId id()
    {
        return id;
    }

    /** @return the local end, {@code ip:port}. */
    String localAddress()
    {
        return localAddress;
    }

    /** The peer disconnected, or the connection failed, as RDMA-CM reported. */
    void markDisconnected()
    {
        connected = false;
    }

    private int onResult(final int result)
    {
        switch (result)
        {
            case DisniSendQueue.OK:
                return TransportResult.OK;
            case DisniSendQueue.AGAIN:
                return TransportResult.BACK_PRESSURED;
            case DisniSendQueue.TOO_LONG:
                return TransportResult.TOO_LONG;
            default:
                connected = false;
                return TransportResult.NOT_CONNECTED;
        }
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
        return onResult(sends.send(buffer, offset, length));
    }

    @Override
    public int poll(final ControlMessageHandler handler, final int limit)
    {
        if (!connected || closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (null != events)
        {
            checkEvents();
        }
        else if (null != server)
        {
            server.pump();
        }
        sends.reap();
        final int count = receives.poll(handler, limit);
        if (count > 0)
        {
            return count;
        }
        if (!connected || sends.isBroken() || receives.isBroken())
        {
            connected = false;
            return TransportResult.NOT_CONNECTED;
        }
        return 0;
    }

    private void checkEvents()
    {
        final long now = System.nanoTime();
        if (now - nextEventCheckNanos < 0)
        {
            return;
        }
        nextEventCheckNanos = now + EVENT_CHECK_NANOS;
        try
        {
            RdmaCmEvent event;
            while (null != (event = events.getCmEvent(0)))
            {
                if (ends(DisniSupport.type(event)))
                {
                    connected = false;
                }
            }
        }
        catch (final IOException ex)
        {
            connected = false;
        }
    }

    /** @return true for the events after which a connection carries nothing more. */
    static boolean ends(final RdmaCmEvent.EventType type)
    {
        switch (type)
        {
            case RDMA_CM_EVENT_DISCONNECTED:
            case RDMA_CM_EVENT_DEVICE_REMOVAL:
            case RDMA_CM_EVENT_TIMEWAIT_EXIT:
            case RDMA_CM_EVENT_CONNECT_ERROR:
            case RDMA_CM_EVENT_UNREACHABLE:
            case RDMA_CM_EVENT_REJECTED:
                return true;
            default:
                return false;
        }
    }

    /** An RDMA Write from registered memory; see {@link DisniRemoteRegion}. */
    int write(final RegisteredMemory source, final DirectBuffer bytes, final int sourceOffset, final int length,
        final long remoteAddress, final int rkey)
    {
        if (!connected || closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        return onResult(sends.write(bytes, sourceOffset, length, source.lkey(), remoteAddress, rkey));
    }

    /** An inline 8-byte RDMA Write of {@code value}. */
    int writeLong(final long value, final long remoteAddress, final int rkey)
    {
        if (!connected || closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        scratch.putLong(0, value);
        return onResult(sends.write(scratch, 0, 8, 0, remoteAddress, rkey));
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
        return new DisniRemoteRegion(this, key);
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
        if (closed)
        {
            return;
        }
        closed = true;
        if (connected)
        {
            quietly(id::disconnect);
        }
        connected = false;
        quietly(id::destroyQP);
        sends.close();
        receives.close();
        quietly(sendCq::destroyCQ);
        quietly(receiveCq::destroyCQ);
        if (null != onClose)
        {
            onClose.run();
        }
        DisniSupport.quietly(id, events);
    }

    private static String describe(final SocketAddress address)
    {
        if (address instanceof InetSocketAddress)
        {
            final InetSocketAddress in = (InetSocketAddress)address;
            return in.getAddress().getHostAddress() + ":" + in.getPort();
        }
        return "?";
    }

    /** A teardown call that may fail. */
    interface Teardown
    {
        int run() throws IOException;
    }

    static void quietly(final Teardown call)
    {
        try
        {
            call.run();
        }
        catch (final IOException | RuntimeException ignore)
        {
            // Best effort: what is left goes with the process.
        }
    }
}
