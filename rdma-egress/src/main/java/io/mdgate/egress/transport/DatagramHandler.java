package io.mdgate.egress.transport;

import org.agrona.DirectBuffer;

/**
 * Receives one multicast datagram. The bytes are valid only during the call. Called on the polling thread.
 */
@FunctionalInterface
public interface DatagramHandler
{
    void onDatagram(DirectBuffer buffer, int offset, int length);
}
