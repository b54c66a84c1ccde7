package io.mdgate.app.run;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * When the session agent produced each recent tick, by gateway sequence, so the stages after it (journal, egress)
 * can measure their latency from the session without touching the tick. A table of {@code capacity} slots indexed
 * by sequence; a slot holds the sequence and the time, so a reader that lags more than the table's capacity finds
 * another sequence in the slot and records nothing.
 * <p>
 * Threading: {@link #stamp} on the session agent's thread only; {@link #stampOf} from any thread.
 */
final class TickStamps
{
    /** What {@link #stampOf} returns when the slot no longer (or not yet) holds the sequence asked for. */
    static final long UNKNOWN = Long.MIN_VALUE;

    private static final int SLOT_LENGTH = 16;
    private final UnsafeBuffer slots;
    private final int mask;

    /** @param capacity slots, a power of two. */
    TickStamps(final int capacity)
    {
        if (capacity < 2 || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity must be a power of two, was " + capacity);
        }
        slots = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity * SLOT_LENGTH, 64));
        mask = capacity - 1;
        for (int i = 0; i < capacity; i++)
        {
            slots.putLong(i * SLOT_LENGTH, -1);
        }
    }

    /** Records that tick {@code sequence} left the session at {@code epochNanos}. */
    void stamp(final long sequence, final long epochNanos)
    {
        final int offset = ((int)sequence & mask) * SLOT_LENGTH;
        slots.putLongRelease(offset, -1);
        slots.putLong(offset + 8, epochNanos);
        slots.putLongRelease(offset, sequence);
    }

    /** @return when tick {@code sequence} left the session, or {@link #UNKNOWN}. */
    long stampOf(final long sequence)
    {
        final int offset = ((int)sequence & mask) * SLOT_LENGTH;
        if (slots.getLongVolatile(offset) != sequence)
        {
            return UNKNOWN;
        }
        final long stamp = slots.getLongVolatile(offset + 8);
        return slots.getLongVolatile(offset) == sequence ? stamp : UNKNOWN;
    }
}
