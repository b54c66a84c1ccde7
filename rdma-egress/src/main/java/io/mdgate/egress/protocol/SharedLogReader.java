package io.mdgate.egress.protocol;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

import static io.mdgate.egress.protocol.SharedLogDescriptor.*;

/**
 * Reads one position of a shared tick log ({@link SharedLogDescriptor}): copies the slot and trusts the copy only
 * if the slot's stamp said that position before and after the copy, so a torn or overwritten tick is never
 * returned as read.
 * <p>
 * Threading: one reading thread per instance. Allocation-free.
 */
public final class SharedLogReader
{
    /** The slot held the position: the copy is good. */
    public static final int READ = 0;
    /** The position is not written yet (or is being written). */
    public static final int EMPTY = 1;
    /** The writer has overwritten the position (before or during the copy): the reader was lapped. */
    public static final int LAPPED = 2;

    private final AtomicBuffer log;
    private final int slots;
    private final int slotMask;

    /**
     * @param log the mapped log, its header checked by {@link #check}.
     */
    public SharedLogReader(final AtomicBuffer log)
    {
        this.log = log;
        this.slots = log.getInt(SLOTS_OFFSET);
        this.slotMask = slots - 1;
    }

    /**
     * @return null when {@code log} is a complete shared log of stream {@code streamId}, else what is wrong with it.
     */
    public static String check(final AtomicBuffer log, final int streamId)
    {
        if (log.capacity() < HEADER_LENGTH || log.getLongVolatile(MAGIC_OFFSET) != MAGIC)
        {
            return "not a shared tick log";
        }
        if (log.getInt(VERSION_OFFSET) != VERSION)
        {
            return "shared log version " + log.getInt(VERSION_OFFSET) + ", expected " + VERSION;
        }
        if (log.getInt(STREAM_ID_OFFSET) != streamId)
        {
            return "shared log of stream " + log.getInt(STREAM_ID_OFFSET) + ", expected " + streamId;
        }
        final int slots = log.getInt(SLOTS_OFFSET);
        if (!isValidSlots(slots) || log.capacity() < length(slots))
        {
            return "shared log header says " + slots + " slots, which the " + log.capacity() + " bytes do not hold";
        }
        return null;
    }

    /**
     * Copies position {@code position} into {@code destination} if it is there and intact.
     *
     * @return {@link #READ}, {@link #EMPTY} or {@link #LAPPED}.
     */
    public int read(final long position, final MutableDirectBuffer destination, final int destinationOffset)
    {
        final int stamp = stampOffset(position, slots);
        final long expected = position + 1;
        final long before = log.getLongAcquire(stamp);
        if (before != expected)
        {
            return (before & ~WRITING) > expected ? LAPPED : EMPTY;
        }
        log.getBytes(slotOffset(position, slotMask), destination, destinationOffset, SLOT_LENGTH);
        VarHandle.loadLoadFence();
        return log.getLongVolatile(stamp) == expected ? READ : LAPPED;
    }

    /**
     * Copies up to {@code maxTicks} consecutive complete positions from {@code position} on (not across the log's
     * end) into {@code destination} with one copy, then checks only the first one's stamp again: the writer
     * overwrites slots in position order, with W set before any byte changes, so if the first slot of the run was
     * not overwritten during the copy, no later one was. Before the copy, when the last slot of the longest run
     * allowed already holds its position, the slots between are not looked at: the writer completes positions in
     * order and releases each stamp after its bytes, so every earlier position of the run was complete by then (and
     * a slot since overwritten with a later position means the first slot was overwritten first, which the check
     * after the copy sees); otherwise the stamps are read one by one up to the first position not complete.
     *
     * @return ticks copied (1 or more), 0 when {@code position} is not written yet, or -1 when the reader was lapped.
     */
    public int readRun(final long position, final int maxTicks, final MutableDirectBuffer destination,
        final int destinationOffset)
    {
        final long expected = position + 1;
        final int firstStamp = stampOffset(position, slots);
        final long first = log.getLongAcquire(firstStamp);
        if (first != expected)
        {
            return (first & ~WRITING) > expected ? -1 : 0;
        }
        final int run = Math.min(maxTicks, slots - (int)(position & slotMask));
        int count = run;
        if (run > 1 && log.getLongAcquire(firstStamp + (run - 1) * STAMP_LENGTH) != expected + run - 1)
        {
            count = 1;
            while (count < run && log.getLongAcquire(firstStamp + count * STAMP_LENGTH) == expected + count)
            {
                count++;
            }
        }
        log.getBytes(slotOffset(position, slotMask), destination, destinationOffset, count * SLOT_LENGTH);
        VarHandle.loadLoadFence();
        return log.getLongVolatile(firstStamp) == expected ? count : -1;
    }

    /** @return positions written so far (the position of the next tick). */
    public long tail()
    {
        return log.getLongVolatile(TAIL_OFFSET);
    }

    public int slots()
    {
        return slots;
    }

    public long publisherEpoch()
    {
        return log.getLong(PUBLISHER_EPOCH_OFFSET);
    }
}
