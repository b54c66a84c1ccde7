package io.mdgate.core.feed;

import org.agrona.DirectBuffer;

/**
 * Receives one UDP payload (a MoldUDP64 packet) of a feed line from an ingress. Called on the receiving
 * thread; the region is valid only during the call and must not be written to or retained.
 */
@FunctionalInterface
public interface PacketHandler
{
    /**
     * @param line                   the line the packet arrived on, one of {@link FeedLines}.
     * @param buffer                 holding the payload.
     * @param offset                 of the payload's first byte.
     * @param length                 of the payload in bytes.
     * @param receiveTimestampNanos  when the packet was received, in nanoseconds of the ingress's clock.
     */
    void onPacket(int line, DirectBuffer buffer, int offset, int length, long receiveTimestampNanos);
}
