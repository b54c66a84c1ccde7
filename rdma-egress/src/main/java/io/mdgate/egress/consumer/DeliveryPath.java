package io.mdgate.egress.consumer;

/**
 * Which of the publisher's outputs a consumer takes its ticks from. Either way ticks arrive in gateway sequence
 * order, each once, with gaps recovered; the top-of-book table is there in both.
 */
public enum DeliveryPath
{
    /** The consumer's own ring, written by the gateway with only its subscribed instruments (the default). */
    RING,
    /** The multicast stream of every tick, filtered by the SDK to the subscribed instruments. */
    STREAM
}
