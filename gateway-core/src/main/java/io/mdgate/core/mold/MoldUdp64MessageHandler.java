package io.mdgate.core.mold;

import org.agrona.DirectBuffer;

/**
 * Receives the messages of a MoldUDP64 packet from {@link MoldUdp64PacketDecoder}, one call per block, in
 * sequence order. Called on the decoding thread; the region is valid only during the call and must not be
 * written to.
 */
@FunctionalInterface
public interface MoldUdp64MessageHandler
{
    /**
     * @param buffer   holding the packet.
     * @param offset   of the message's first byte (after its block length field).
     * @param length   of the message as given by its block length; may be 0.
     * @param sequence of this message in the session.
     */
    void onMessage(DirectBuffer buffer, int offset, int length, long sequence);

    /**
     * Called for each message of a packet, in order, while the decoder checks the packet's framing and before the
     * first {@link #onMessage} of that packet: a chance to start loading what the messages will touch (e.g. order
     * records) so the cache misses overlap. Only blocks that lie inside the datagram are offered; a packet found
     * malformed afterwards dispatches nothing. Must not change anything {@link #onMessage} depends on. Does nothing
     * by default.
     *
     * @param buffer holding the packet.
     * @param offset of the message's first byte.
     * @param length of the message.
     */
    default void prefetch(DirectBuffer buffer, int offset, int length)
    {
    }
}
