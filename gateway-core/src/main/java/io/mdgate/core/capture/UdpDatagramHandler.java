package io.mdgate.core.capture;

import org.agrona.DirectBuffer;

/**
 * Receives the UDP payloads found in a capture, with the addresses they travelled between. The payload is only valid
 * during the call. Called on the reader's thread.
 */
@FunctionalInterface
public interface UdpDatagramHandler
{
    /**
     * @param timestampNanos capture time in nanoseconds since the epoch (0 when the capture does not record it).
     * @param sourceAddress  IPv4 source address as a big-endian int (10.0.0.1 is 0x0A000001).
     * @param sourcePort     UDP source port.
     * @param destinationAddress IPv4 destination address (the multicast group for a feed line).
     * @param destinationPort    UDP destination port.
     * @param buffer         holding the payload.
     * @param offset         of the payload's first byte.
     * @param length         of the payload.
     */
    void onDatagram(
        long timestampNanos,
        int sourceAddress,
        int sourcePort,
        int destinationAddress,
        int destinationPort,
        DirectBuffer buffer,
        int offset,
        int length);
}
