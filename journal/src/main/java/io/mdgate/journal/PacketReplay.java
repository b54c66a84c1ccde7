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

    private final UnsafeBuffer record = new UnsafeBuffer(
        BufferUtil.allocateDirectAligned(RECORD_CAPACITY, 64), 0,
        PacketRecordDescriptor.MAX_RECORD_LENGTH);
    private final QueueCursor cursor;

    /** @param queue the packet queue, or null when the journal holds none. */
    PacketReplay(final SingleChronicleQueue queue)
    {
        this.cursor = new QueueCursor(queue, record, PacketReplay::problem);
    }

    /** @return packets in the journal. */
    public long count()
    {
        return cursor.refresh();
    }

    /**
     * @return packets received in the range, inclusive.
     */
    public long countByReceiveTime(final long fromEpochNanos, final long toEpochNanos)
    {
        if (fromEpochNanos > toEpochNanos)
        {
            return 0;
        }
        final long total = cursor.refresh();
        final long first = cursor.lowerBound(PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, fromEpochNanos);
        final long end = toEpochNanos == Long.MAX_VALUE ? total :
            cursor.lowerBound(PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, toEpochNanos + 1);
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
        if (fromEpochNanos > toEpochNanos)
        {
            return 0;
        }
        final long total = cursor.refresh();
        final long first = cursor.lowerBound(PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, fromEpochNanos);
        final long end = toEpochNanos == Long.MAX_VALUE ? total :
            cursor.lowerBound(PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, toEpochNanos + 1);
        if (first >= end)
        {
            return 0;
        }
        cursor.moveTo(first);
        for (long ordinal = first; ordinal < end; ordinal++)
        {
            if (cursor.next() == QueueCursor.NO_RECORD)
            {
                throw new JournalDamagedException(cursor.currentFile(), "reading stops after packet " + ordinal +
                    " of " + total + " although the index holds more");
            }
            final int length = record.getInt(PacketRecordDescriptor.LENGTH_OFFSET, ORDER);
            handler.onPacket(
                record.getInt(PacketRecordDescriptor.LINE_OFFSET, ORDER),
                record,
                PacketRecordDescriptor.HEADER_LENGTH,
                length,
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
        cursor.refresh();
        final List<CycleSummary> result = new ArrayList<>();
        for (int i = 0; i < cursor.cycleCount(); i++)
        {
            final long records = cursor.recordsInCycle(i);
            final Path file = cursor.file(i);
            final int at = PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET;
            result.add(new CycleSummary(cursor.cycle(i), file, file.toFile().length(), records,
                TickReplay.NO_SEQUENCE, TickReplay.NO_SEQUENCE, records > 0 ? cursor.firstKey(i, at) : 0,
                records > 0 ? cursor.lastKey(i, at) : 0));
        }
        return result;
    }

    @Override
    public void close()
    {
        cursor.close();
    }

    private static String problem(final UnsafeBuffer record, final int length)
    {
        final int payload = length - PacketRecordDescriptor.HEADER_LENGTH;
        if (payload < 0 || record.getInt(PacketRecordDescriptor.LENGTH_OFFSET, ORDER) != payload)
        {
            return "is " + length + " bytes long, which its packet header does not match";
        }
        final int line = record.getInt(PacketRecordDescriptor.LINE_OFFSET, ORDER);
        if (line < FeedLines.A || line > FeedLines.RECOVERY)
        {
            return "names line " + line + ", which does not exist";
        }
        return null;
    }
}
