package io.mdgate.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.PointerBytesStore;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

/**
 * Appends records to the journal's queues: a tick as one 64-byte record in the tick queue, a packet as one
 * {@link PacketRecordDescriptor} record in the packet queue. Each record is the raw bytes of one Chronicle document;
 * it becomes visible to readers, and survives a crash of the process, when the document closes.
 * <p>
 * Only a tick whose gateway sequence follows the last one journaled is appended (the journal's first tick may have
 * any sequence); any other is refused and counted, so the queue never holds a gap, a duplicate or a step back that
 * a reader would have to report as damage.
 * <p>
 * An append whose bytes the filesystem could not hold is refused with {@link #NO_SPACE} before anything of it is
 * written ({@link CycleFileSpace}): the queues never get a partial record from a full disk, and never write into an
 * unbacked page of their mapped files.
 * <p>
 * Threading: the appenders are created by {@link #start()} and used only on the thread that called it.
 */
final class JournalWriter implements AutoCloseable
{
    static final int OK = 0;
    static final int OUT_OF_SEQUENCE = -1;
    static final int MALFORMED = -2;
    static final int NO_SPACE = -3;

    private static final int TICK_LENGTH = TickReplay.TICK_LENGTH;
    /** A Chronicle document's header. */
    private static final int DOCUMENT_HEADER = 4;

    private final SingleChronicleQueue ticks;
    private final SingleChronicleQueue packets;
    private final CycleTimeProvider tickTime;
    private final CycleTimeProvider packetTime;
    private ExcerptAppender tickAppender;
    private ExcerptAppender packetAppender;
    private final AtomicCounter ticksAppended;
    private final AtomicCounter packetsAppended;
    private final AtomicCounter outOfSequence;
    private final AtomicCounter malformedPackets;
    private final PointerBytesStore source = new PointerBytesStore();
    private final CycleFileSpace tickSpace;
    private final CycleFileSpace packetSpace;
    private long lastSequence;

    /**
     * @param ticks        the tick queue, open for writing.
     * @param packets      the packet queue, or null when packets are not recorded.
     * @param tickTime     the tick queue's cycle clock.
     * @param packetTime   the packet queue's cycle clock.
     * @param lastSequence the last tick already journaled, {@link TickReplay#NO_SEQUENCE} for an empty journal.
     * @param counters     the journal's counters ({@link JournalCounterDescriptor}); the writer's thread updates its
     *                     own four.
     * @param tickSpace    keeps the tick queue's cycle file allocated ahead of its appender.
     * @param packetSpace  the same for the packet queue, or null when packets are not recorded.
     */
    JournalWriter(
        final SingleChronicleQueue ticks,
        final SingleChronicleQueue packets,
        final CycleTimeProvider tickTime,
        final CycleTimeProvider packetTime,
        final long lastSequence,
        final AtomicCounter[] counters,
        final CycleFileSpace tickSpace,
        final CycleFileSpace packetSpace)
    {
        this.tickSpace = tickSpace;
        this.packetSpace = packetSpace;
        this.ticksAppended = counters[JournalCounterDescriptor.TICKS.ordinal()];
        this.packetsAppended = counters[JournalCounterDescriptor.PACKETS.ordinal()];
        this.outOfSequence = counters[JournalCounterDescriptor.TICKS_OUT_OF_SEQUENCE.ordinal()];
        this.malformedPackets = counters[JournalCounterDescriptor.MALFORMED_PACKETS.ordinal()];
        this.ticks = ticks;
        this.packets = packets;
        this.tickTime = tickTime;
        this.packetTime = packetTime;
        this.lastSequence = lastSequence;
    }

    /** Creates the appenders on the calling thread, which becomes the writer thread. */
    void start()
    {
        if (tickAppender == null)
        {
            tickAppender = ticks.createAppender();
            packetAppender = packets == null ? null : packets.createAppender();
        }
    }

    /**
     * @param buffer holding a 64-byte tick.
     * @param offset of its first byte.
     * @return {@link #OK}, {@link #OUT_OF_SEQUENCE} when its sequence does not follow the last one, or
     * {@link #NO_SPACE} when the filesystem has no room for it (neither written).
     */
    int appendTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset + TickReplay.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (lastSequence != TickReplay.NO_SEQUENCE && sequence != lastSequence + 1)
        {
            outOfSequence.incrementRelease();
            return OUT_OF_SEQUENCE;
        }
        if (tickTime.isRecordTime())
        {
            tickTime.advanceTo(recordTime(buffer, offset));
        }
        if (!tickSpace.ensure(ticks.cycle(), DOCUMENT_HEADER + TICK_LENGTH))
        {
            return NO_SPACE;
        }
        try (DocumentContext document = tickAppender.writingDocument())
        {
            copy(buffer, offset, TICK_LENGTH, document.wire().bytes());
        }
        tickSpace.appended(tickAppender);
        lastSequence = sequence;
        ticksAppended.incrementRelease();
        return OK;
    }

    /**
     * @param buffer holding a packet record laid out as in {@link PacketRecordDescriptor}.
     * @param offset of the record's first byte.
     * @param length of the whole record.
     * @return {@link #OK}, {@link #MALFORMED} when the record's length field disagrees with its length, or
     * {@link #NO_SPACE} when the filesystem has no room for it (neither written).
     */
    int appendPacket(final DirectBuffer buffer, final int offset, final int length)
    {
        if (packetAppender == null)
        {
            return OK;
        }
        if (length < PacketRecordDescriptor.HEADER_LENGTH ||
            buffer.getInt(offset + PacketRecordDescriptor.LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN) !=
            length - PacketRecordDescriptor.HEADER_LENGTH)
        {
            malformedPackets.incrementRelease();
            return MALFORMED;
        }
        if (packetTime.isRecordTime())
        {
            packetTime.advanceTo(buffer.getLong(
                offset + PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN));
        }
        if (!packetSpace.ensure(packets.cycle(), DOCUMENT_HEADER + length))
        {
            return NO_SPACE;
        }
        try (DocumentContext document = packetAppender.writingDocument())
        {
            copy(buffer, offset, length, document.wire().bytes());
        }
        packetSpace.appended(packetAppender);
        packetsAppended.incrementRelease();
        return OK;
    }

    /** @return the tick queue's current cycle, or -1 before the first append. */
    int tickCycle()
    {
        return tickAppender == null ? -1 : tickAppender.cycle();
    }

    long lastSequence()
    {
        return lastSequence;
    }

    long ticksAppended()
    {
        return ticksAppended.get();
    }

    long packetsAppended()
    {
        return packetsAppended.get();
    }

    long outOfSequence()
    {
        return outOfSequence.get();
    }

    long malformedPackets()
    {
        return malformedPackets.get();
    }

    @Override
    public void close()
    {
        if (tickAppender != null)
        {
            tickAppender.close();
            tickAppender = null;
        }
        if (packetAppender != null)
        {
            packetAppender.close();
            packetAppender = null;
        }
        tickSpace.close();
        if (null != packetSpace)
        {
            packetSpace.close();
        }
    }

    /**
     * @return the time that chooses a tick's cycle with record time: its exchange time, or its receive time when it
     * has none (0: the SESSION tick of a journal's first session, which has no tick before it), so it does not fall
     * back to the wall clock and land in a cycle after the ones its successors go to.
     */
    private static long recordTime(final DirectBuffer buffer, final int offset)
    {
        final long exchangeTime = buffer.getLong(offset + TickReplay.EXCHANGE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
        return exchangeTime != 0 ? exchangeTime :
            buffer.getLong(offset + TickReplay.RECEIVE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /** Copies bytes in native order both sides, so the record holds exactly the source bytes. */
    /**
     * Copies a record into the document: one bulk copy from off-heap memory (the tick log's slots, the packet ring),
     * through a reused pointer store, else eight bytes at a time.
     */
    private void copy(final DirectBuffer buffer, final int offset, final int length, final Bytes<?> bytes)
    {
        if (null == buffer.byteArray())
        {
            source.set(buffer.addressOffset() + offset, length);
            bytes.write(source, 0L, length);
            return;
        }
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            bytes.writeLong(buffer.getLong(offset + i, ByteOrder.nativeOrder()));
        }
        for (; i < length; i++)
        {
            bytes.writeByte(buffer.getByte(offset + i));
        }
    }
}
