package io.mdgate.egress.transport;

/**
 * The receiving end of a multicast datagram channel (verbs: a UD queue pair attached to the group, with receive
 * buffers posted from a registered region). Receives datagrams sent after it joined, in sending order, and skips
 * ahead when it falls too far behind; {@link #lossCount()} counts the datagrams the transport itself knows it
 * skipped, but the protocol above must detect loss from its own sequence numbers.
 * <p>
 * Threading: one polling thread. Allocation-free.
 */
public interface MulticastSubscription extends AutoCloseable
{
    int streamId();

    int maxDatagramLength();

    /**
     * @param handler receives each datagram.
     * @param limit   most datagrams to deliver.
     * @return datagrams delivered.
     */
    int poll(DatagramHandler handler, int limit);

    /** @return datagrams skipped because this subscription fell behind, as far as the transport knows. */
    long lossCount();

    @Override
    void close();
}
