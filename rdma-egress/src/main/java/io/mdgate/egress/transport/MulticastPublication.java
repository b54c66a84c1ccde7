package io.mdgate.egress.transport;

/**
 * The sending end of an unreliable multicast datagram channel (verbs: a UD queue pair posting sends to a
 * multicast group's address handle). A datagram reaches every subscription that keeps up, whole or not at all;
 * nothing is retransmitted and a receiver that falls behind loses datagrams without the sender knowing.
 * <p>
 * Threading: one sending thread. Allocation-free.
 */
public interface MulticastPublication extends AutoCloseable
{
    int streamId();

    /** @return the largest datagram, in bytes (the channel's MTU). */
    int maxDatagramLength();

    /**
     * Sends one datagram taken from a registered region. The source may be reused on return for {@code shm}; for
     * verbs when the send's completion is polled.
     *
     * @return {@link TransportResult#OK}, {@link TransportResult#TOO_LONG} or {@link TransportResult#BACK_PRESSURED}
     *         (the send queue is full; nothing was sent).
     */
    int offer(MemoryRegion source, int offset, int length);

    @Override
    void close();
}
