package io.mdgate.egress.transport;

import org.agrona.DirectBuffer;

/**
 * A reliable, connected, message-oriented channel between the publisher and one consumer (verbs: an RC queue pair
 * with send/receive, set up by RDMA-CM). Messages arrive whole, once, in order. The same connection carries the
 * one-sided writes into the peer's regions it opened ({@link #openRemoteRegion(RemoteKey)}), and writes and sends
 * posted through it are placed at the peer in posting order.
 * <p>
 * Threading: one thread posts and polls. {@link #offer} and {@link #poll} never block; opening a remote region is
 * session set-up and may.
 */
public interface ControlChannel extends AutoCloseable
{
    /** @return the largest message, in bytes. */
    int maxMessageLength();

    /**
     * @return {@link TransportResult#OK}, {@link TransportResult#BACK_PRESSURED} (no room to queue it; try again),
     *         {@link TransportResult#NOT_CONNECTED} or {@link TransportResult#TOO_LONG}.
     */
    int offer(DirectBuffer buffer, int offset, int length);

    /**
     * Receives what has arrived and sends what was queued.
     *
     * @return messages delivered, or {@link TransportResult#NOT_CONNECTED} once the peer is gone.
     */
    int poll(ControlMessageHandler handler, int limit);

    boolean isConnected();

    /**
     * Opens a peer's registered region for one-sided writes over this connection.
     *
     * @throws TransportException when the region does not exist, the key is wrong or it is shorter than the key says.
     */
    RemoteRegion openRemoteRegion(RemoteKey key);

    /**
     * Gives an accepted connection whose peer was authenticated its full-size queues, from what
     * {@link ControlServer#reserve(int)} set aside; until then it carries only a message or so each way. Never
     * allocates; calling it again does nothing.
     *
     * @return false when nothing is left to give it (the session cannot start).
     */
    default boolean establish()
    {
        return true;
    }

    /** @return who is at the other end, for logs. */
    String peer();

    @Override
    void close();
}
