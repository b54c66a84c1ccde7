package io.mdgate.egress.transport;

/**
 * The one interface the publisher and the consumer SDK run over. It expresses RDMA's semantics, so that each
 * operation is one verbs call:
 * <table>
 *   <caption>Mapping onto verbs</caption>
 *   <tr><th>here</th><th>verbs</th><th>{@code shm}</th></tr>
 *   <tr><td>{@link #registerRegion}</td><td>{@code ibv_reg_mr} (rkey, address)</td>
 *       <td>a file under the transport's directory, mapped and pre-faulted, key in its header</td></tr>
 *   <tr><td>{@link RemoteRegion#write}</td><td>{@code IBV_WR_RDMA_WRITE} on the RC QP</td>
 *       <td>ordered stores into the peer's mapped file</td></tr>
 *   <tr><td>{@link MulticastPublication} / {@link MulticastSubscription}</td>
 *       <td>UD QP, sends to the group's AH / receives after {@code rdma_join_multicast}</td>
 *       <td>a broadcast log file: one writer, many readers, a lapped reader skips ahead</td></tr>
 *   <tr><td>{@link ControlServer} / {@link ControlChannel}</td><td>RDMA-CM listen/connect, RC send/recv</td>
 *       <td>a Unix domain socket, length-prefixed messages</td></tr>
 * </table>
 * <p>
 * Threading: set-up calls ({@code register}, {@code add}, {@code bind}, {@code connect}) on one thread before
 * the duty cycle starts; the objects they return have their own contracts.
 */
public interface EgressTransport extends AutoCloseable
{
    /** @return the transport's name as on the command line: {@code shm} or {@code verbs}. */
    String name();

    /** @return the multicast channel's MTU: the largest datagram. */
    int mtu();

    /**
     * Registers memory for sends and one-sided writes, or for a peer to write into.
     *
     * @param length bytes, at least 1.
     * @param access what the region allows.
     * @throws TransportException when it cannot be registered.
     */
    MemoryRegion registerRegion(int length, RegionAccess access);

    /** Opens the sending end of multicast stream {@code streamId} (the publisher's). */
    MulticastPublication addPublication(int streamId);

    /** Joins multicast stream {@code streamId}; receives what is sent from now on. */
    MulticastSubscription addSubscription(int streamId);

    /**
     * Creates the shared tick log of stream {@code streamId} (the publisher's end), zeroed, replacing one a crashed
     * publisher left.
     *
     * @param length bytes ({@link io.mdgate.egress.protocol.SharedLogDescriptor#length(int)}).
     * @return the log, or null when this transport has none (its consumers read rings only).
     * @throws TransportException when it cannot be created.
     */
    default SharedLog createSharedLog(final int streamId, final int length)
    {
        return null;
    }

    /**
     * Maps the publisher's shared tick log of stream {@code streamId} (a consumer's end).
     *
     * @return the log, or null when this transport has none.
     * @throws TransportException when the log cannot be mapped (not there, no permission).
     */
    default SharedLog openSharedLog(final int streamId)
    {
        return null;
    }

    /** Starts listening for consumers' control connections (the publisher). */
    ControlServer bindControl();

    /**
     * Connects to the publisher's control endpoint, waiting at most {@code timeoutNanos}.
     *
     * @throws TransportException when no publisher answers in time.
     */
    ControlChannel connectControl(long timeoutNanos);

    /** Releases everything this transport made that is still open. */
    @Override
    void close();
}
