package io.mdgate.egress;

import io.mdgate.core.tick.TickHandler;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * An in-memory {@link RecoverySource}: keeps the most recent {@code capacity} ticks it was given, indexed by gateway
 * sequence, in one off-heap buffer allocated at construction. For tests, demos and the {@code publish} command
 * until the journal serves recovery. A sequence it never saw, or that was overwritten, is skipped on replay.
 * <p>
 * Threading: not thread-safe; append ({@link #onTick}) and replay on the publisher's thread. Allocation-free after
 * construction.
 */
public final class TickArchive implements RecoverySource, TickHandler
{
    private static final int TICK_LENGTH = 64;
    private final UnsafeBuffer ticks;
    private final int mask;
    private long lastSequence;
    private long appended;

    /** @param capacity ticks kept, a power of two. */
    public TickArchive(final int capacity)
    {
        if (capacity < 1 || Integer.bitCount(capacity) != 1 || capacity > (1 << 25))
        {
            throw new IllegalArgumentException("capacity must be a power of two up to 33554432, was " + capacity);
        }
        this.ticks = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity * TICK_LENGTH, 64));
        this.mask = capacity - 1;
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
        ticks.putBytes((int)(sequence & mask) * TICK_LENGTH, buffer, offset, TICK_LENGTH);
        lastSequence = Math.max(lastSequence, sequence);
        appended++;
    }

    @Override
    public long replay(final long fromSequence, final long toSequence, final TickHandler handler)
    {
        final long from = Math.max(fromSequence, lastSequence - mask);
        final long to = Math.min(toSequence, lastSequence);
        long delivered = 0;
        for (long sequence = from; sequence <= to; sequence++)
        {
            final int offset = (int)(sequence & mask) * TICK_LENGTH;
            if (ticks.getLong(offset, ByteOrder.LITTLE_ENDIAN) == sequence)
            {
                handler.onTick(ticks, offset);
                delivered++;
            }
        }
        return delivered;
    }

    /** @return the highest gateway sequence held, 0 before the first tick. */
    public long lastSequence()
    {
        return lastSequence;
    }

    /** @return ticks appended since construction. */
    public long appended()
    {
        return appended;
    }

    public int capacity()
    {
        return mask + 1;
    }
}
