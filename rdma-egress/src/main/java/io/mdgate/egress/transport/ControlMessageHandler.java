package io.mdgate.egress.transport;

import org.agrona.DirectBuffer;

/**
 * Receives one control message. The bytes are valid only during the call. Called on the polling thread.
 */
@FunctionalInterface
public interface ControlMessageHandler
{
    void onMessage(DirectBuffer buffer, int offset, int length);
}
