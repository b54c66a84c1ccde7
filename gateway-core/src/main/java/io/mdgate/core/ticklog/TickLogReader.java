package io.mdgate.core.ticklog;

import io.mdgate.core.tick.ControlledTickHandler;
import io.mdgate.core.tick.TickHandler;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One reader of a {@link TickLog}: hands the ticks it has not read yet to a {@link TickHandler}, straight from the
 * log's slots (no copy), and then moves its position on, which frees the slots for the writer. A reader may
 * {@link #follow} another, reading only what that one has finished with: the egress follows the journal so that no
 * consumer ever sees a tick the journal does not hold (a tick published and then lost in a crash would come back
 * under its gateway sequence with other content).
 * <p>
 * Threading: {@link #poll} on one thread at a time; {@link #position()} from any thread.
 */
public final class TickLogReader
{
    private final String name;
    private final TickLog log;
    private final UnsafeBuffer positions;
    private final int positionOffset;
    private TickLogReader upstream;
    private long position;

    TickLogReader(final String name, final TickLog log, final UnsafeBuffer positions, final int positionOffset)
    {
        this.name = name;
        this.log = log;
        this.positions = positions;
        this.positionOffset = positionOffset;
    }

    /**
     * Makes this reader read only ticks the other has finished with. Call before any tick is written.
     *
     * @param other a reader of the same log, not this one.
     * @return this reader.
     */
    public TickLogReader follow(final TickLogReader other)
    {
        if (other == this || other.log != log)
        {
            throw new IllegalArgumentException("reader " + name + " can follow only another reader of its own log");
        }
        upstream = other;
        return this;
    }

    /**
     * Hands up to {@code limit} unread ticks to the handler, in order, then releases their slots.
     *
     * @param handler gets each tick, valid only during its call.
     * @param limit   most ticks this call.
     * @return ticks handed over.
     */
    public int poll(final TickHandler handler, final int limit)
    {
        final long available = upstream == null ? log.published() : upstream.position();
        final long end = Math.min(available, position + limit);
        if (end <= position)
        {
            return 0;
        }
        final UnsafeBuffer ticks = log.ticks();
        final int mask = log.mask();
        for (long p = position; p < end; p++)
        {
            handler.onTick(ticks, TickLogDescriptor.slotOffset(p, mask));
        }
        final int count = (int)(end - position);
        position = end;
        positions.putLongRelease(positionOffset, end);
        return count;
    }

    /**
     * As {@link #poll}, but the handler may refuse a tick: the poll stops before it, and the ticks taken so far are
     * released. A refused tick stays unread, and so does every later one, for this reader and for any reader that
     * follows it.
     *
     * @param handler gets each tick, valid only during its call; false leaves it unread.
     * @param limit   most ticks this call.
     * @return ticks taken.
     */
    public int controlledPoll(final ControlledTickHandler handler, final int limit)
    {
        final long available = upstream == null ? log.published() : upstream.position();
        final long end = Math.min(available, position + limit);
        final UnsafeBuffer ticks = log.ticks();
        final int mask = log.mask();
        long p = position;
        while (p < end && handler.onTick(ticks, TickLogDescriptor.slotOffset(p, mask)))
        {
            p++;
        }
        final int count = (int)(p - position);
        if (count > 0)
        {
            position = p;
            positions.putLongRelease(positionOffset, p);
        }
        return count;
    }

    /** @return ticks this reader has finished with. Any thread. */
    public long position()
    {
        return positions.getLongVolatile(positionOffset);
    }

    /** @return ticks written and not yet read by this reader. Any thread. */
    public long lag()
    {
        return log.published() - position();
    }

    /** @return the name given at construction. */
    public String name()
    {
        return name;
    }
}
