package io.mdgate.core.tick;

import org.agrona.DirectBuffer;

/**
 * Receives normalized ticks, one 64-byte little-endian block at a time (decode with
 * {@link io.mdgate.core.tick.sbe.TickDecoder#wrap(DirectBuffer, int, int, int)}). The bytes are valid only during
 * the call: copy them to keep them. Called on the normalizer's thread; must not block.
 */
@FunctionalInterface
public interface TickHandler
{
    /**
     * @param buffer holding the tick.
     * @param offset of its first byte.
     */
    void onTick(DirectBuffer buffer, int offset);
}
