package io.mdgate.journal;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.PacketHandler;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the raw packet queue: finds packets by receive time with a binary search over the queue's index, and
 * replays a range to a {@link PacketHandler} (wrap it in a {@link PacedPacketHandler} for the recorded pace). To
 * replay the packets behind a range of ticks, look the ticks' receive times up with {@link TickReplay} (the
 * {@code replay} command does). Receive times are taken to never go backwards through the queue, as they do not
 * when packets are journaled in arrival order.
 * <p>
 * Every record is checked (header length, line); a damaged one stops the replay with a
 * {@link JournalDamagedException} naming the file.
 * <p>
 * Allocation-free per packet. Threading: an instance belongs to the thread that first uses it.
 */
public final class PacketReplay implements AutoCloseable
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int RECORD_CAPACITY = 1 << 17;

    private final QueueCursor cursor;
    private final UnsafeBuffer record = new UnsafeBuffer(
        BufferUtil.allocateDirectAligned(RECORD_CAPACITY, 64), 0,
        PacketRecordDescriptor.MAX_RECORD_LENGTH);

    /** @param queue the packet queue, or null when the journal holds none. */
    PacketReplay(final SingleChronicleQueue queue)
    {
        this.cursor = queue == null ? null : new QueueCursor(queue);
    }

    /** @return packets in the journal. */
    public long count()
    {
        return cursor == null ? 0 : cursor.refresh();
    }

    /**
     * @return packets received in the range, inclusive.
     */
    public long countByReceiveTime(final long fromEpochNanos, final long toEpochNanos)
    {
        if (cursor == null || fromEpochNanos > toEpochNanos)
        {
            return 0;
        }
        final long total = cursor.refresh();
        final long first = lowerBound(fromEpochNanos, total);
        final long end = toEpochNanos == Long.MAX_VALUE ? total : lowerBound(toEpochNanos + 1, total);
        return Math.max(0, end - first);
    }

    /**
     * Delivers, in journal order, the packets received in the range: from the first one at or after
     * {@code fromEpochNanos} up to the last one at or before {@code toEpochNanos}.
     *
     * @param fromEpochNanos earliest receive time, inclusive.
     * @param toEpochNanos   latest receive time, inclusive.
     * @param handler        receives each packet with its line and receive time.
     * @return packets delivered.
     * @throws JournalDamagedException when a record in the range is damaged or cannot be read.
     */
    public long replayByReceiveTime(final long fromEpochNanos, final long toEpochNanos, final PacketHandler handler)
    {
        if (cursor == null || fromEpochNanos > toEpochNanos)
        {
            return 0;
        }
        final long total = cursor.refresh();
        final long first = lowerBound(fromEpochNanos, total);
        final long end = toEpochNanos == Long.MAX_VALUE ? total : lowerBound(toEpochNanos + 1, total);
        if (first >= end)
        {
            return 0;
        }
        cursor.moveTo(cursor.index(first));
        for (long ordinal = first; ordinal < end; ordinal++)
        {
            final int length = cursor.next(record);
            if (length == QueueCursor.NO_RECORD)
            {
                throw new JournalDamagedException(cursor.currentFile(), "reading stops after packet " + ordinal +
                    " of " + total + " although the index holds more");
            }
            check(length);
            handler.onPacket(
                record.getInt(PacketRecordDescriptor.LINE_OFFSET, ORDER),
                record,
                PacketRecordDescriptor.HEADER_LENGTH,
                length - PacketRecordDescriptor.HEADER_LENGTH,
                record.getLong(PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, ORDER));
        }
        return end - first;
    }

    /**
     * Checks each cycle's first and last packet record and summarises it.
     *
     * @return the cycles, oldest first.
     */
    public List<CycleSummary> cycles()
    {
        final List<CycleSummary> result = new ArrayList<>();
        if (cursor == null)
        {
            return result;
        }
        cursor.refresh();
        final int[] cycles = cursor.cycles();
        for (int i = 0; i < cycles.length; i++)
        {
            final long records = cursor.recordsInCycle(i);
            final Path file = cursor.cycleFile(cycles[i]);
            long firstTime = 0;
            long lastTime = 0;
            if (records > 0)
            {
                firstTime = receiveTimeAt(cursor.firstOrdinalOfCycle(i));
                lastTime = receiveTimeAt(cursor.firstOrdinalOfCycle(i) + records - 1);
            }
            result.add(new CycleSummary(cycles[i], file, file.toFile().length(), records, TickReplay.NO_SEQUENCE,
                TickReplay.NO_SEQUENCE, firstTime, lastTime));
        }
        return result;
    }

    @Override
    public void close()
    {
        if (cursor != null)
        {
            cursor.close();
        }
    }

    private long receiveTimeAt(final long ordinal)
    {
        final int length = cursor.readAt(ordinal, record);
        if (length == QueueCursor.NO_RECORD)
        {
            throw new JournalDamagedException(cursor.cycleFile(cursor.cycleOfOrdinal(ordinal)), "packet " +
                cursor.positionInCycle(ordinal) + " of the cycle is in its index but cannot be read");
        }
        check(length);
        return record.getLong(PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, ORDER);
    }

    private void check(final int length)
    {
        final int payload = length - PacketRecordDescriptor.HEADER_LENGTH;
        if (payload < 0 || record.getInt(PacketRecordDescriptor.LENGTH_OFFSET, ORDER) != payload)
        {
            throw new JournalDamagedException(cursor.currentFile(), "packet " + cursor.lastReadDescription() + " is " + length + " bytes long, which its header " +
                "does not match");
        }
        final int line = record.getInt(PacketRecordDescriptor.LINE_OFFSET, ORDER);
        if (line < FeedLines.A || line > FeedLines.RECOVERY)
        {
            throw new JournalDamagedException(cursor.currentFile(), "packet " + cursor.lastReadDescription() + " names line " + line + ", which does not exist");
        }
    }

    /** @return the smallest ordinal whose receive time is at least the target, or total. */
    private long lowerBound(final long target, final long total)
    {
        long low = 0;
        long high = total;
        while (low < high)
        {
            final long middle = (low + high) >>> 1;
            if (receiveTimeAt(middle) < target)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low;
    }
}
