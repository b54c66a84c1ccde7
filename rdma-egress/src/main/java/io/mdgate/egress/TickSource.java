package io.mdgate.egress;

import io.mdgate.core.tick.TickHandler;

/**
 * Where the publisher's duty cycle takes live ticks from when they are produced on another thread (for example an
 * Agrona ring buffer filled by the normalizer's agent). Threading: polled on the publisher's thread only.
 */
@FunctionalInterface
public interface TickSource
{
    /**
     * @param handler receives each tick, valid only during the call.
     * @param limit   most ticks to hand over.
     * @return ticks handed over, 0 when none are waiting.
     */
    int poll(TickHandler handler, int limit);
}
