package io.mdgate.core.feed;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The packets a {@link FeedSession} holds because they arrived after a gap: copied, in arrival order, into one
 * preallocated byte ring, and indexed by sequence so they leave lowest sequence first.
 * <pre>
 *   ring:   | free | held (oldest ... newest) | free |      or, once the writer wrapped round,
 *           | newest ... | free | oldest ... | unused tail |
 *   index:  entry ids sorted by first sequence (ties in arrival order)
 * </pre>
 * A packet is stored whole, never split across the end of the ring: when it does not fit before the end, it goes
 * to the start and the tail is left unused until the oldest packets leave. Space is given back oldest first, so a
 * packet released out of arrival order keeps its bytes (and its entry) until every older one has left too; the
 * hold is bounded by bytes and by entries, whichever runs out first. Sorted insertion costs nothing for packets
 * arriving in sequence order (they go at the end) and a short array shift otherwise.
 * <p>
 * Allocation-free after construction. Not thread-safe: owned by one session.
 */
final class PacketHold
{
    private final UnsafeBuffer ring;
    private final int capacity;
    private final int maxPackets;

    private final long[] sequences;
    private final int[] counts;
    private final int[] offsets;
    private final int[] lengths;
    private final int[] lines;
    private final long[] timestamps;
    private final int[] tags;
    private final boolean[] released;
    private int oldestEntry;
    private int entriesInUse;

    private final int[] order;
    private int orderStart;
    private int orderEnd;

    private int ringHead;
    private int ringTail;
    private boolean wrapped;
    private long messages;

    /**
     * @param capacityBytes bytes of the ring; a packet longer than this can never be held.
     * @param maxPackets    packets held at most.
     */
    PacketHold(final int capacityBytes, final int maxPackets)
    {
        if (capacityBytes < 1 || maxPackets < 1)
        {
            throw new IllegalArgumentException(
                "a packet hold needs at least 1 byte and 1 packet, got " + capacityBytes + " bytes and " + maxPackets +
                " packets");
        }
        this.capacity = capacityBytes;
        this.maxPackets = maxPackets;
        this.ring = new UnsafeBuffer(ByteBuffer.allocateDirect(capacityBytes));
        this.sequences = new long[maxPackets];
        this.counts = new int[maxPackets];
        this.offsets = new int[maxPackets];
        this.lengths = new int[maxPackets];
        this.lines = new int[maxPackets];
        this.timestamps = new long[maxPackets];
        this.tags = new int[maxPackets];
        this.released = new boolean[maxPackets];
        this.order = new int[maxPackets];
    }

    /** @return messages in the packets held (each packet's MoldUDP64 count). */
    long messages()
    {
        return messages;
    }

    /** @return packets held. */
    int size()
    {
        return orderEnd - orderStart;
    }

    boolean isEmpty()
    {
        return orderEnd == orderStart;
    }

    int capacityBytes()
    {
        return capacity;
    }

    int maxPackets()
    {
        return maxPackets;
    }

    /**
     * @return how full the hold is, 0 to 100: the larger of the share of its entries and of its bytes taken
     * (entries and bytes are given back oldest first, so a packet released out of order still counts).
     */
    int fillPercent()
    {
        if (entriesInUse == 0)
        {
            return 0;
        }
        final long bytes = wrapped ? capacity - (ringHead - ringTail) : ringTail - ringHead;
        return (int)Math.max(entriesInUse * 100L / maxPackets, bytes * 100L / capacity);
    }

    /** @return true when a packet of this length can be added now. */
    boolean canHold(final int length)
    {
        return entriesInUse < maxPackets && placeFor(length) >= 0;
    }

    /**
     * Copies a packet in. Check {@link #canHold(int)} first.
     *
     * @return false, holding nothing, when there is no room.
     */
    boolean add(
        final DirectBuffer source,
        final int offset,
        final int length,
        final long sequence,
        final int count,
        final int line,
        final long timestamp)
    {
        return add(source, offset, length, sequence, count, line, timestamp, 0);
    }

    /**
     * Copies a packet in with a tag the holder gives it (e.g. which candidate session it belongs to).
     *
     * @return false, holding nothing, when there is no room.
     */
    boolean add(
        final DirectBuffer source,
        final int offset,
        final int length,
        final long sequence,
        final int count,
        final int line,
        final long timestamp,
        final int tag)
    {
        final int at = entriesInUse < maxPackets ? placeFor(length) : -1;
        if (at < 0)
        {
            return false;
        }
        if (at < ringTail)
        {
            wrapped = true;
        }
        ring.putBytes(at, source, offset, length);
        ringTail = at + length;
        messages += count;

        final int entry = (oldestEntry + entriesInUse) % maxPackets;
        entriesInUse++;
        sequences[entry] = sequence;
        counts[entry] = count;
        offsets[entry] = at;
        lengths[entry] = length;
        lines[entry] = line;
        timestamps[entry] = timestamp;
        tags[entry] = tag;
        released[entry] = false;
        insertInOrder(entry, sequence);
        return true;
    }

    /** @return the entry with the lowest sequence, or -1 when empty. */
    int lowestEntry()
    {
        return orderEnd == orderStart ? -1 : order[orderStart];
    }

    /** @return the lowest sequence held; only when not empty. */
    long lowestSequence()
    {
        return sequences[order[orderStart]];
    }

    /** Releases the lowest entry; its bytes are reused once every older packet has been released too. */
    void removeLowest()
    {
        final int entry = order[orderStart++];
        messages -= counts[entry];
        if (orderStart == orderEnd)
        {
            orderStart = 0;
            orderEnd = 0;
        }
        released[entry] = true;
        reclaim();
    }

    /** Drops everything held. */
    void clear()
    {
        messages = 0;
        orderStart = 0;
        orderEnd = 0;
        entriesInUse = 0;
        oldestEntry = 0;
        ringHead = 0;
        ringTail = 0;
        wrapped = false;
    }

    DirectBuffer buffer()
    {
        return ring;
    }

    long sequence(final int entry)
    {
        return sequences[entry];
    }

    int count(final int entry)
    {
        return counts[entry];
    }

    int offset(final int entry)
    {
        return offsets[entry];
    }

    int length(final int entry)
    {
        return lengths[entry];
    }

    int line(final int entry)
    {
        return lines[entry];
    }

    long timestamp(final int entry)
    {
        return timestamps[entry];
    }

    int tag(final int entry)
    {
        return tags[entry];
    }

    /** @return where a packet of this length would go, or -1 when it does not fit now. */
    private int placeFor(final int length)
    {
        if (entriesInUse == 0)
        {
            ringHead = 0;
            ringTail = 0;
            wrapped = false;
        }
        if (wrapped)
        {
            return ringHead - ringTail >= length ? ringTail : -1;
        }
        if (capacity - ringTail >= length)
        {
            return ringTail;
        }
        return ringHead >= length ? 0 : -1;
    }

    private void reclaim()
    {
        while (entriesInUse > 0 && released[oldestEntry])
        {
            oldestEntry = (oldestEntry + 1) % maxPackets;
            entriesInUse--;
            if (entriesInUse > 0)
            {
                final int nextHead = offsets[oldestEntry];
                if (nextHead < ringHead)
                {
                    wrapped = false;
                }
                ringHead = nextHead;
            }
        }
    }

    private void insertInOrder(final int entry, final long sequence)
    {
        if (orderEnd == maxPackets)
        {
            final int size = orderEnd - orderStart;
            System.arraycopy(order, orderStart, order, 0, size);
            orderStart = 0;
            orderEnd = size;
        }
        int low = orderStart;
        int high = orderEnd;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (sequences[order[mid]] <= sequence)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        if (low < orderEnd)
        {
            System.arraycopy(order, low, order, low + 1, orderEnd - low);
        }
        order[low] = entry;
        orderEnd++;
    }
}
