package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlMessageHandler;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/**
 * A control channel over a non-blocking Unix domain stream socket: each message is a little-endian 4-byte length
 * and the message. Sends are queued in a direct buffer and written at once; what the socket does not take stays
 * queued and goes out at the next offer or poll. A full queue means {@link TransportResult#BACK_PRESSURED}.
 * <p>
 * A connection the publisher accepted starts with heap queues of one message each way (its HELLO has arrived in the
 * receive queue; a REJECT fits the send queue) and gets its full-size queues from the server's
 * {@link ControlQueuePool} when {@link #establish()} is called for an authenticated consumer; it gives them back on
 * close. A consumer's connection has its full-size queues from the start.
 * <p>
 * Threading: one thread offers, polls, establishes and closes. Offer and poll make syscalls (the socket) but do not
 * allocate or block.
 */
final class UnixControlChannel implements ControlChannel, ShmResource
{
    static final int FRAME_HEADER_LENGTH = 4;
    private static final ByteBuffer CLOSED = ByteBuffer.allocate(0);

    private final SocketChannel channel;
    private final ShmNames names;
    private final ShmPlacement placement;
    private final int maxMessageLength;
    private final ControlQueuePool pool;
    private final UnsafeBuffer inView;
    private final String peer;
    private ByteBuffer out;
    private ByteBuffer in;
    private ControlQueuePool.Queues lent;
    private boolean connected = true;

    private UnixControlChannel(final SocketChannel channel, final ShmPlacement placement, final int maxMessageLength,
        final ByteBuffer in, final ByteBuffer out, final ControlQueuePool pool)
    {
        this.channel = channel;
        this.placement = placement;
        this.names = placement.names();
        this.maxMessageLength = maxMessageLength;
        this.in = in;
        this.out = out;
        this.pool = pool;
        this.inView = new UnsafeBuffer(in);
        this.peer = describePeer(channel, names);
    }

    /** A consumer's connection to the publisher, with full-size queues. */
    static UnixControlChannel connected(final SocketChannel channel, final ShmPlacement placement,
        final int maxMessageLength, final int queueLength) throws IOException
    {
        channel.configureBlocking(false);
        return new UnixControlChannel(channel, placement, maxMessageLength,
            ByteBuffer.allocateDirect(queueLength).order(ByteOrder.LITTLE_ENDIAN),
            ByteBuffer.allocateDirect(queueLength).order(ByteOrder.LITTLE_ENDIAN), null);
    }

    /**
     * A connection the publisher's server screened: non-blocking already, {@code received} holds what arrived (at
     * least its first message) in a little-endian buffer of one frame, in write mode.
     */
    static UnixControlChannel screened(final SocketChannel channel, final ShmPlacement placement,
        final int maxMessageLength, final ByteBuffer received, final ControlQueuePool pool)
    {
        return new UnixControlChannel(channel, placement, maxMessageLength, received,
            ByteBuffer.allocate(FRAME_HEADER_LENGTH + maxMessageLength).order(ByteOrder.LITTLE_ENDIAN), pool);
    }

    /** @return the length of a frame, for a receive queue of one frame. */
    static int frameLength(final int maxMessageLength)
    {
        return FRAME_HEADER_LENGTH + maxMessageLength;
    }

    @Override
    public boolean establish()
    {
        if (null == pool || null != lent)
        {
            return true;
        }
        if (!connected)
        {
            return false;
        }
        final ControlQueuePool.Queues queues = pool.take();
        if (null == queues)
        {
            return false;
        }
        // The bytes keep their offsets, so this may run inside poll's handler for the message being delivered.
        in.flip();
        queues.in.put(in);
        out.flip();
        queues.out.put(out);
        in = queues.in;
        out = queues.out;
        inView.wrap(in);
        lent = queues;
        return true;
    }

    private static String describePeer(final SocketChannel channel, final ShmNames names)
    {
        try
        {
            final UnixDomainPrincipal principal = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return "uds:" + names.controlSocket() + " user=" + principal.user().getName();
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return "uds:" + names.controlSocket();
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
        if (!connected)
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (length > maxMessageLength || length < 0)
        {
            return TransportResult.TOO_LONG;
        }
        if (out.remaining() < FRAME_HEADER_LENGTH + length)
        {
            flush();
            if (out.remaining() < FRAME_HEADER_LENGTH + length)
            {
                return connected ? TransportResult.BACK_PRESSURED : TransportResult.NOT_CONNECTED;
            }
        }
        out.putInt(length);
        buffer.getBytes(offset, out, length);
        flush();
        return connected ? TransportResult.OK : TransportResult.NOT_CONNECTED;
    }

    @Override
    public int poll(final ControlMessageHandler handler, final int limit)
    {
        if (!connected)
        {
            return TransportResult.NOT_CONNECTED;
        }
        flush();
        try
        {
            if (in.hasRemaining() && channel.read(in) < 0)
            {
                connected = false;
            }
        }
        catch (final IOException ex)
        {
            connected = false;
        }
        final int delivered = dispatch(handler, limit);
        return connected || delivered > 0 ? delivered : TransportResult.NOT_CONNECTED;
    }

    private int dispatch(final ControlMessageHandler handler, final int limit)
    {
        final int end = in.position();
        int position = 0;
        int delivered = 0;
        while (delivered < limit && end - position >= FRAME_HEADER_LENGTH)
        {
            final int length = inView.getInt(position, ByteOrder.LITTLE_ENDIAN);
            if (length < 0 || length > maxMessageLength)
            {
                connected = false; // a peer that breaks framing cannot be resynchronised
                break;
            }
            if (end - position < FRAME_HEADER_LENGTH + length)
            {
                break;
            }
            handler.onMessage(inView, position + FRAME_HEADER_LENGTH, length);
            position += FRAME_HEADER_LENGTH + length;
            delivered++;
        }
        if (position > 0)
        {
            in.flip().position(position);
            in.compact();
        }
        return delivered;
    }

    private void flush()
    {
        if (out.position() == 0 || !connected)
        {
            return;
        }
        out.flip();
        try
        {
            channel.write(out);
        }
        catch (final IOException ex)
        {
            connected = false;
        }
        out.compact();
    }

    @Override
    public boolean isConnected()
    {
        return connected;
    }

    @Override
    public RemoteRegion openRemoteRegion(final RemoteKey key)
    {
        return ShmRemoteRegion.open(placement.find(names.regionFile(key.address())), key);
    }

    @Override
    public String peer()
    {
        return peer;
    }

    @Override
    public boolean isClosed()
    {
        return !channel.isOpen();
    }

    @Override
    public void close()
    {
        if (channel.isOpen())
        {
            flush();
            connected = false;
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // Closing a socket whose peer is gone: nothing more to release.
            }
        }
        if (null != lent)
        {
            in = CLOSED;
            out = CLOSED;
            inView.wrap(CLOSED);
            pool.giveBack(lent);
            lent = null;
        }
    }
}
