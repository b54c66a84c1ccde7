package io.mdgate.core.feed;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A bounded set of MoldUDP64 packets that arrived ahead of a missing sequence, copied into slots of one
 * preallocated direct buffer so the hole can still be filled by the other line. The window is counted in packets;
 * each slot holds a packet of up to {@link #slotLength()} bytes. The lowest packet is found by a scan, which costs
 * little for the tens of slots a window holds and nothing while packets arrive in order (the window is then empty).
 * <p>
 * Allocation-free after construction. Not thread-safe: owned by one {@link LineArbiter}.
 */
public final class ReorderWindow
{
    private final int capacity;
    private final int slotLength;
    private final UnsafeBuffer buffer;
    private final long[] sequences;
    private final int[] counts;
    private final int[] lengths;
    private final boolean[] used;
    private int size;

    /**
     * @param capacity   packets the window holds; 0 holds none (every hole is a gap at once).
     * @param slotLength bytes of the largest packet held.
     */
    public ReorderWindow(final int capacity, final int slotLength)
    {
        if (capacity < 0 || slotLength < 1 || (long)capacity * slotLength > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException(
                "reorder window of " + capacity + " packets of " + slotLength + " bytes is not possible");
        }
        this.capacity = capacity;
        this.slotLength = slotLength;
        this.buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.max(1, capacity * slotLength)));
        this.sequences = new long[capacity];
        this.counts = new int[capacity];
        this.lengths = new int[capacity];
        this.used = new boolean[capacity];
    }

    public int capacity()
    {
        return capacity;
    }

    public int slotLength()
    {
        return slotLength;
    }

    public int size()
    {
        return size;
    }

    public boolean isEmpty()
    {
        return size == 0;
    }

    public boolean isFull()
    {
        return size == capacity;
    }

    /**
     * @param sequence of the packet's first message (for a heartbeat, the next expected sequence).
     * @param count    of messages in the packet.
     * @return true when a packet with the same sequence and count is held already.
     */
    public boolean contains(final long sequence, final int count)
    {
        for (int slot = 0; slot < capacity; slot++)
        {
            if (used[slot] && sequences[slot] == sequence && counts[slot] == count)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Copies a packet into a free slot.
     *
     * @param source   holding the packet.
     * @param offset   of the packet.
     * @param length   of the packet, at most {@link #slotLength()}.
     * @param sequence of its first message.
     * @param count    of its messages.
     * @return the slot, or -1 when the window is full or the packet is too long.
     */
    public int add(final DirectBuffer source, final int offset, final int length, final long sequence, final int count)
    {
        if (size == capacity || length > slotLength)
        {
            return -1;
        }
        for (int slot = 0; slot < capacity; slot++)
        {
            if (!used[slot])
            {
                buffer.putBytes(slot * slotLength, source, offset, length);
                sequences[slot] = sequence;
                counts[slot] = count;
                lengths[slot] = length;
                used[slot] = true;
                size++;
                return slot;
            }
        }
        return -1;
    }

    /** @return the slot holding the lowest sequence, or -1 when empty. */
    public int lowestSlot()
    {
        int lowest = -1;
        for (int slot = 0; slot < capacity; slot++)
        {
            if (used[slot] && (lowest < 0 || sequences[slot] < sequences[lowest]))
            {
                lowest = slot;
            }
        }
        return lowest;
    }

    public void remove(final int slot)
    {
        if (used[slot])
        {
            used[slot] = false;
            size--;
        }
    }

    /** @return the buffer all slots live in. */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    public int offset(final int slot)
    {
        return slot * slotLength;
    }

    public int length(final int slot)
    {
        return lengths[slot];
    }

    public long sequence(final int slot)
    {
        return sequences[slot];
    }

    public int count(final int slot)
    {
        return counts[slot];
    }
}
