package io.mdgate.core.ticklog;

import io.mdgate.core.tick.TickHandler;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.mdgate.core.ticklog.TickLogDescriptor.PUBLISHED_OFFSET;
import static io.mdgate.core.ticklog.TickLogDescriptor.TICK_LENGTH;

/**
 * The one copy of the tick stream inside the gateway: a single writer (the session's normalizer, through
 * {@link #onTick}) appends each tick once; a fixed set of {@link TickLogReader}s (the journal, the egress) read it at
 * their own positions, and every reader gates the writer, so no reader ever misses a tick.
 * <p>
 * Back-pressure is the writer's to respect: before it takes input that may produce up to {@code n} ticks it asks
 * {@link #hasRoom(int) hasRoom(n)} and, on false, takes nothing this duty cycle. {@link #onTick} itself never waits;
 * a tick that finds no slot is counted in {@link #overruns()} and not written, which only a writer that skipped the
 * check can cause.
 * <p>
 * Allocation-free after construction. Threading: one writer thread calls {@link #onTick}, {@link #hasRoom} and
 * {@link #remaining()}; each reader is polled by one thread (any, the writer's included); {@link #published()} and the
 * readers' positions may be read from any thread.
 */
public final class TickLog implements TickHandler
{
    private final int capacity;
    private final int mask;
    private final UnsafeBuffer ticks;
    private final UnsafeBuffer positions;
    private final TickLogReader[] readers;
    private long writePosition;
    private long gatePosition;
    private long overruns;

    /**
     * @param capacity    slots, a power of two from {@link TickLogDescriptor#MIN_CAPACITY} to
     *                    {@link TickLogDescriptor#MAX_CAPACITY}.
     * @param readerNames one name per reader, e.g. {@code journal}, {@code egress}; at least one.
     * @throws IllegalArgumentException for a capacity out of range or not a power of two, or no reader.
     */
    public TickLog(final int capacity, final String... readerNames)
    {
        if (capacity < TickLogDescriptor.MIN_CAPACITY || capacity > TickLogDescriptor.MAX_CAPACITY ||
            !BitUtil.isPowerOfTwo(capacity))
        {
            throw new IllegalArgumentException("tick log capacity must be a power of two from " +
                TickLogDescriptor.MIN_CAPACITY + " to " + TickLogDescriptor.MAX_CAPACITY + " slots, was " + capacity);
        }
        if (readerNames.length == 0)
        {
            throw new IllegalArgumentException("a tick log needs at least one reader");
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        ticks = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity * TICK_LENGTH, TICK_LENGTH * 2));
        positions = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            TickLogDescriptor.positionsLength(readerNames.length), TickLogDescriptor.POSITION_STRIDE));
        readers = new TickLogReader[readerNames.length];
        for (int i = 0; i < readers.length; i++)
        {
            readers[i] = new TickLogReader(readerNames[i], this, positions,
                TickLogDescriptor.readerPositionOffset(i));
        }
    }

    /**
     * @param index the reader's index, in the order of the names given at construction.
     * @return the reader.
     */
    public TickLogReader reader(final int index)
    {
        return readers[index];
    }

    /** @return how many readers the log has. */
    public int readerCount()
    {
        return readers.length;
    }

    /** @return the number of slots. */
    public int capacity()
    {
        return capacity;
    }

    /**
     * Whether the next {@code count} ticks can be written now. Reads the readers' positions only when the last
     * reading does not already answer yes. Writer thread.
     *
     * @param count ticks the writer is about to produce at most.
     * @return true when every one of them has a slot.
     */
    public boolean hasRoom(final int count)
    {
        final long needed = writePosition + count - capacity;
        if (gatePosition >= needed)
        {
            return true;
        }
        gatePosition = slowestReader();
        return gatePosition >= needed;
    }

    /** @return slots free for the writer now (reads every reader's position). Writer thread. */
    public int remaining()
    {
        gatePosition = slowestReader();
        return (int)(capacity - (writePosition - gatePosition));
    }

    /**
     * Appends one tick: copies its 64 bytes into the next slot and publishes it. Never waits: without a free slot the
     * tick is counted in {@link #overruns()} and dropped (see the class comment). Writer thread.
     */
    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        if (writePosition - capacity >= gatePosition && !hasRoom(1))
        {
            overruns++;
            return;
        }
        ticks.putBytes(TickLogDescriptor.slotOffset(writePosition, mask), buffer, offset, TICK_LENGTH);
        writePosition++;
        positions.putLongRelease(PUBLISHED_OFFSET, writePosition);
    }

    /** @return ticks written and visible to readers. Any thread. */
    public long published()
    {
        return positions.getLongVolatile(PUBLISHED_OFFSET);
    }

    /** @return ticks refused for want of a slot: non-zero only when the writer skipped {@link #hasRoom(int)}. */
    public long overruns()
    {
        return overruns;
    }

    UnsafeBuffer ticks()
    {
        return ticks;
    }

    int mask()
    {
        return mask;
    }

    private long slowestReader()
    {
        long slowest = Long.MAX_VALUE;
        for (final TickLogReader reader : readers)
        {
            slowest = Math.min(slowest, reader.position());
        }
        return slowest;
    }
}
