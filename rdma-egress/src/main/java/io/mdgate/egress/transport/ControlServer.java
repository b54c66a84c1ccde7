package io.mdgate.egress.transport;

/**
 * The publisher's listening end of the control channel (verbs: an RDMA-CM listener). A transport may screen
 * connections before handing them over (shm: a connection is handed over only once its first message has arrived,
 * within a timeout, and only so many may wait), counting those it closed; such a connection holds only small
 * buffers until {@link ControlChannel#establish()}. Threading: one thread, except the counters (any thread).
 */
public interface ControlServer extends AutoCloseable
{
    /**
     * @return a newly connected channel, or null when none is waiting. Never blocks.
     */
    ControlChannel accept();

    /**
     * Sets aside, before the duty cycle starts, what {@code sessions} established connections need, so that
     * {@link ControlChannel#establish()} never allocates. Transports whose connections need nothing more do nothing.
     */
    default void reserve(final int sessions)
    {
    }

    /** @return connections the transport closed because their first message did not arrive in time. */
    default long connectionsTimedOut()
    {
        return 0;
    }

    /** @return connections the transport closed at once because too many were waiting for their first message. */
    default long connectionsOverLimit()
    {
        return 0;
    }

    /** @return connections the transport closed because their first message broke the framing. */
    default long connectionsMalformed()
    {
        return 0;
    }

    /**
     * @return connection requests dropped because their requester had given up before they were taken (verbs: a
     * stale RDMA-CM request, after a stall or a link that was down); the next waiting one is taken at once.
     */
    default long connectionsStale()
    {
        return 0;
    }

    /** @return where consumers connect, for logs. */
    String endpoint();

    @Override
    void close();
}
