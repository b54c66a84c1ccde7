package io.mdgate.app.sim;

import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64RequestFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * The MoldUDP64 re-request server: a non-blocking UDP socket that answers each request for one of its sessions
 * (the first given at construction, more with {@link #addSession}: after a session change the old one is still
 * served) with one downstream packet of that session, unicast to the requester, holding the retained messages from
 * the requested sequence on: at most the requested count, at most the answer limit, at most what fits the datagram
 * (the client asks again for the rest). Requests that are not 20 bytes, ask for nothing, name a session not served
 * or ask for messages not retained (or not yet sent) are dropped and counted. {@link #poll()} is the duty cycle:
 * call it from the simulator's thread. Receiving allocates a socket address per request. Not thread-safe.
 */
public final class RetransmitServer implements AutoCloseable
{
    private static final int POLL_LIMIT = 16;
    /** Most sessions one server answers for. */
    public static final int MAX_SESSIONS = 4;

    private final DatagramChannel channel;
    private final byte[][] sessions = new byte[MAX_SESSIONS][];
    private final RetransmitStore[] stores = new RetransmitStore[MAX_SESSIONS];
    private int sessionCount;
    private final int answerLimit;
    private final ByteBuffer receive = ByteBuffer.allocateDirect(65_536);
    private final UnsafeBuffer receiveView = new UnsafeBuffer(receive);
    private final ByteBuffer answer;
    private final UnsafeBuffer answerView;
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[65_536]);
    private final MoldUdp64RequestFlyweight request = new MoldUdp64RequestFlyweight();
    private final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
    private long requests;
    private long answered;
    private long messagesResent;
    private long limited;
    private long malformed;
    private long wrongSession;
    private long unavailable;
    private long sendFailures;

    /**
     * @param bind        address and port to listen on (port 0 picks a free one, see {@link #port()}).
     * @param session     the 10-byte session served.
     * @param store       the session's messages.
     * @param answerLimit most messages in one answer, 1 to 65534.
     * @param maxPayload  largest answer datagram.
     * @throws UncheckedIOException when the socket cannot be bound.
     */
    public RetransmitServer(
        final InetSocketAddress bind,
        final byte[] session,
        final RetransmitStore store,
        final int answerLimit,
        final int maxPayload)
    {
        if (answerLimit < 1 || answerLimit > 65_534)
        {
            throw new IllegalArgumentException("answer limit must be 1 to 65534 messages, was " + answerLimit);
        }
        this.answerLimit = answerLimit;
        this.answer = ByteBuffer.allocateDirect(maxPayload);
        this.answerView = new UnsafeBuffer(answer);
        encoder.wrap(answerView, 0, maxPayload);
        addSession(session, store);
        try
        {
            channel = DatagramChannel.open();
            channel.configureBlocking(false);
            channel.bind(bind);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot listen for re-requests on " + bind + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Answers re-requests for one more session too, e.g. the next one after a session change.
     *
     * @param session the 10-byte session, not one already served.
     * @param store   its messages.
     * @throws IllegalArgumentException when the session is already served or {@link #MAX_SESSIONS} are.
     */
    public void addSession(final byte[] session, final RetransmitStore store)
    {
        if (sessionCount == MAX_SESSIONS || indexOf(session) >= 0)
        {
            throw new IllegalArgumentException("a re-request server answers for up to " + MAX_SESSIONS +
                " distinct sessions");
        }
        sessions[sessionCount] = session.clone();
        stores[sessionCount++] = store;
    }

    private int indexOf(final byte[] session)
    {
        for (int i = 0; i < sessionCount; i++)
        {
            if (java.util.Arrays.equals(sessions[i], session))
            {
                return i;
            }
        }
        return -1;
    }

    private int indexOfRequested()
    {
        for (int i = 0; i < sessionCount; i++)
        {
            if (request.sessionEquals(sessions[i]))
            {
                return i;
            }
        }
        return -1;
    }

    /** @return the UDP port the server listens on. */
    public int port()
    {
        try
        {
            return ((InetSocketAddress)channel.getLocalAddress()).getPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Answers the requests waiting, up to a small limit per call.
     *
     * @return the number of datagrams handled.
     */
    public int poll()
    {
        int handled = 0;
        while (handled < POLL_LIMIT)
        {
            receive.clear();
            final SocketAddress from;
            try
            {
                from = channel.receive(receive);
            }
            catch (final IOException ex)
            {
                malformed++;
                return handled;
            }
            if (null == from)
            {
                break;
            }
            handled++;
            requests++;
            handle(receive.position(), from);
        }
        return handled;
    }

    private void handle(final int length, final SocketAddress from)
    {
        if (!MoldUdp64RequestFlyweight.isRequestLength(length))
        {
            malformed++;
            return;
        }
        request.wrap(receiveView, 0);
        final int index = indexOfRequested();
        if (index < 0)
        {
            wrongSession++;
            return;
        }
        final RetransmitStore store = stores[index];
        final long first = request.sequenceNumber();
        final int count = request.requestedCount();
        if (count == 0)
        {
            malformed++;
            return;
        }
        if (!store.contains(first))
        {
            unavailable++;
            return;
        }
        if (count > answerLimit)
        {
            limited++;
        }
        final int wanted = Math.min(count, answerLimit);
        encoder.session(sessions[index]).reset(first);
        for (int i = 0; i < wanted; i++)
        {
            final int messageLength = store.copy(first + i, message, 0);
            if (messageLength < 0 || !encoder.tryAppend(message, 0, messageLength))
            {
                break;
            }
        }
        answer.clear().limit(encoder.length());
        try
        {
            if (channel.send(answer, from) == encoder.length())
            {
                answered++;
                messagesResent += encoder.messageCount();
            }
            else
            {
                sendFailures++;
            }
        }
        catch (final IOException ex)
        {
            sendFailures++;
        }
    }

    /** @return datagrams received. */
    public long requests()
    {
        return requests;
    }

    /** @return requests answered with a packet. */
    public long answered()
    {
        return answered;
    }

    public long messagesResent()
    {
        return messagesResent;
    }

    /** @return requests for more than the answer limit (answered with the limit). */
    public long limited()
    {
        return limited;
    }

    /** @return datagrams that are not a valid re-request. */
    public long malformed()
    {
        return malformed;
    }

    public long wrongSession()
    {
        return wrongSession;
    }

    /** @return requests for messages not retained or not yet sent. */
    public long unavailable()
    {
        return unavailable;
    }

    public long sendFailures()
    {
        return sendFailures;
    }

    public int answerLimit()
    {
        return answerLimit;
    }

    @Override
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
