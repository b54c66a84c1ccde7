package io.mdgate.egress;

import io.mdgate.core.tick.TickHandler;

/**
 * Where the publisher finds ticks it has already sent, to answer recovery: the journal in the gateway, an in-memory
 * {@link TickArchive} in tests and demos. The egress module does not depend on the journal; the application wires
 * the journal in behind this interface.
 * <p>
 * Threading: called on the publisher's thread only, from its duty cycle, with ranges bounded by the publisher's
 * recovery budget; an implementation must return promptly (no waiting for ticks not yet written).
 */
@FunctionalInterface
public interface RecoverySource
{
    /**
     * Delivers the ticks with gateway sequences {@code fromSequence..toSequence} (both included) that the source
     * holds, in sequence order, to {@code handler}. A tick not (yet) held is skipped: a source that lags behind the
     * live stream delivers the prefix it has and returns its count.
     *
     * @param fromSequence first gateway sequence wanted.
     * @param toSequence   last gateway sequence wanted, at least {@code fromSequence}.
     * @param handler      receives each 64-byte tick, valid only during the call.
     * @return ticks delivered, 0 when none of the range is held.
     */
    long replay(long fromSequence, long toSequence, TickHandler handler);
}
