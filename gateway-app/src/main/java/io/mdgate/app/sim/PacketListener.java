package io.mdgate.app.sim;

import org.agrona.DirectBuffer;

/**
 * Receives complete MoldUDP64 packets (messages, heartbeat or end of session) from the
 * {@link MoldUdp64Framer}. The bytes are valid only during the call. Called on the framer's thread.
 */
@FunctionalInterface
public interface PacketListener
{
    /**
     * @param timestamp exchange time the packet goes out, nanoseconds since midnight.
     * @param buffer    holding the packet.
     * @param offset    of the packet's first byte.
     * @param length    of the packet.
     */
    void onPacket(long timestamp, DirectBuffer buffer, int offset, int length);
}
