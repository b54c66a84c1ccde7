package io.mdgate.ingress;

import io.mdgate.core.feed.PacketHandler;

/**
 * A source of feed-line packets: takes UDP payloads off the wire (a DPDK port, or kernel sockets) and hands each
 * one, with its line and receive timestamp, to a {@link PacketHandler}.
 * <p>
 * Lifecycle: construct, {@link #start()}, then {@link #poll(PacketHandler)} in a duty cycle, then {@link #close()}.
 * Implementations are confined to one thread, the receive thread, which must call {@link #start()},
 * {@link #poll(PacketHandler)} and {@link #close()}; only {@link #stats()} may be called from any thread.
 */
public interface Ingress extends AutoCloseable
{
    /**
     * Opens the source: after it returns, packets for the configured lines are being received.
     *
     * @throws IllegalStateException when the source cannot be opened, with a message naming what is missing
     *                               (library, permission, device, interface) and what would fix it.
     */
    void start();

    /**
     * Receives one burst and hands each packet of a configured line to the handler before returning.
     * Never allocates, blocks or throws on bad input: packets that belong to no line are counted and dropped.
     *
     * @param handler receives each packet, valid only during its call.
     * @return packets handed over, 0 when nothing arrived, negative (a {@code -errno}) on a fatal error of the
     * source after which polling again is pointless.
     */
    int poll(PacketHandler handler);

    /**
     * A snapshot of the counters. Callable from any thread; counters read while the receive thread runs may lag
     * by a burst.
     *
     * @return a new snapshot (allocates: not for the hot path).
     */
    IngressStats stats();

    /**
     * Copies the counts of packets dropped per reason, without allocating: {@code counts[i]} for
     * {@link IngressStats#REASONS}{@code .get(i)}. Callable from any thread, like {@link #stats()}; meant for a
     * periodic refresh of counters from the receive thread. The default says nothing was dropped, right for an
     * ingress whose bad packets the kernel drops before it sees them (the socket ingress).
     *
     * @param counts at least {@link IngressStats#REASONS}{@code .size()} long.
     */
    default void readDropped(final long[] counts)
    {
        java.util.Arrays.fill(counts, 0, IngressStats.REASONS.size(), 0L);
    }

    /**
     * Stops receiving and releases the source (leaving multicast groups). Idempotent.
     */
    @Override
    void close();
}
