package io.mdgate.core.tick;

import org.agrona.DirectBuffer;

/**
 * Receives normalized ticks as a {@link TickHandler} does, and may refuse one: a reader then stops before it and
 * leaves it unread, to be offered again (e.g. the journal, when its filesystem has no room for the tick). The bytes
 * are valid only during the call. Called on the reader's thread; must not block.
 */
@FunctionalInterface
public interface ControlledTickHandler
{
    /**
     * @param buffer holding the tick.
     * @param offset of its first byte.
     * @return true when the tick was taken; false to stop before it, leaving it and every later tick unread.
     */
    boolean onTick(DirectBuffer buffer, int offset);
}
