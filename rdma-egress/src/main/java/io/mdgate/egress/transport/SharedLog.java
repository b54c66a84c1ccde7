package io.mdgate.egress.transport;

import org.agrona.concurrent.AtomicBuffer;

/**
 * Memory one publisher writes and any number of consumers on the same host map and read directly: the shared tick
 * log ({@link io.mdgate.egress.protocol.SharedLogDescriptor}) that consumers subscribed to every instrument read
 * instead of a ring of their own. Only transports whose consumers share the publisher's memory have one
 * ({@code shm}); under verbs each consumer keeps its ring, written by RDMA Writes.
 * <p>
 * Threading: the buffer's contract is the layout's (one writer, readers on their own threads); close on the thread
 * that opened it.
 */
public interface SharedLog extends AutoCloseable
{
    /** @return the whole log, laid out as {@link io.mdgate.egress.protocol.SharedLogDescriptor} says. */
    AtomicBuffer buffer();

    /** Unmaps the log (and removes it when this is the publisher's end). Idempotent. */
    @Override
    void close();
}
