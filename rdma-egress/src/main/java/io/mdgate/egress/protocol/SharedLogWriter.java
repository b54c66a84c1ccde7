package io.mdgate.egress.protocol;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

import static io.mdgate.egress.protocol.SharedLogDescriptor.*;

/**
 * The writing end of a shared tick log ({@link SharedLogDescriptor}): each tick is copied once into the next slot
 * between two stamp writes. It never looks at readers, so it never waits for one; a slow reader is lapped.
 * <p>
 * Threading: one writing thread (the publisher's). Allocation-free.
 */
public final class SharedLogWriter
{
    private final AtomicBuffer log;
    private final int slots;
    private final int slotMask;
    private long position;

    /**
     * Writes the header of a new log over {@code log} and starts at position 0.
     *
     * @param log      memory of at least {@link SharedLogDescriptor#length(int)} bytes, zeroed.
     * @param slots    N, a power of two from {@value SharedLogDescriptor#MIN_SLOTS}.
     * @param streamId stream the log belongs to.
     * @param epoch    the publisher's epoch, so a reader can tell a restarted publisher's log.
     */
    public SharedLogWriter(final AtomicBuffer log, final int slots, final int streamId, final long epoch)
    {
        if (!isValidSlots(slots) || log.capacity() < length(slots))
        {
            throw new IllegalArgumentException("a shared log of " + slots + " slots needs a power of two from " +
                MIN_SLOTS + " and " + length(slots) + " bytes, had " + log.capacity());
        }
        this.log = log;
        this.slots = slots;
        this.slotMask = slots - 1;
        log.putInt(VERSION_OFFSET, VERSION);
        log.putInt(STREAM_ID_OFFSET, streamId);
        log.putInt(SLOTS_OFFSET, slots);
        log.putLong(PUBLISHER_EPOCH_OFFSET, epoch);
        log.putLongRelease(TAIL_OFFSET, 0);
        log.putLongRelease(MAGIC_OFFSET, MAGIC);
    }

    /** Appends one 64-byte tick at the next position. */
    public void append(final DirectBuffer tick, final int offset)
    {
        final long p = position;
        final int stamp = stampOffset(p, slots);
        log.putLong(stamp, (p + 1) | WRITING);
        VarHandle.storeStoreFence();
        log.putBytes(slotOffset(p, slotMask), tick, offset, SLOT_LENGTH);
        log.putLongRelease(stamp, p + 1);
        position = p + 1;
        log.putLongRelease(TAIL_OFFSET, p + 1);
    }

    /** @return the position the next tick will take (ticks written so far). */
    public long position()
    {
        return position;
    }

    public int slots()
    {
        return slots;
    }
}
