package io.mdgate.journal;

import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.tick.TickHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

/**
 * The core's side of the journal: hands every tick and raw packet to the {@link JournalAgent} through a
 * one-to-one ring, copying the bytes once. A tick goes as its 64 bytes; a packet as a
 * {@link PacketRecordDescriptor} record.
 * <p>
 * Back-pressure: when the ring is full (the journal's disk is slower than the feed for longer than the ring covers)
 * the publisher waits for space rather than lose a tick, counting each wait in {@link #backPressured()}; the
 * feed's own buffers then absorb the delay. The agent must therefore run on another thread, or, where one thread
 * drives both (tests, offline tools), be drained until idle before the ring can fill. A packet longer than {@link PacketRecordDescriptor#MAX_PAYLOAD_LENGTH}
 * is not journaled and counted in {@link #oversizedPackets()}.
 * <p>
 * Allocation-free. Threading: one producer thread (the core's), the only writer of its two counters
 * ({@code journal.back_pressured}, {@code journal.oversized_packets}), which may be read from any thread.
 */
public final class JournalPublisher implements TickHandler, PacketHandler
{
    static final int TICK_MESSAGE = 1;
    static final int PACKET_MESSAGE = 2;

    private final RingBuffer ring;
    private final boolean recordPackets;
    private final AtomicCounter backPressured;
    private final AtomicCounter oversizedPackets;

    /** @param counters the journal's counters ({@link JournalCounterDescriptor}); the producer updates its two. */
    JournalPublisher(final RingBuffer ring, final boolean recordPackets, final AtomicCounter[] counters)
    {
        this.ring = ring;
        this.recordPackets = recordPackets;
        this.backPressured = counters[JournalCounterDescriptor.BACK_PRESSURED.ordinal()];
        this.oversizedPackets = counters[JournalCounterDescriptor.OVERSIZED_PACKETS.ordinal()];
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        if (!ring.write(TICK_MESSAGE, buffer, offset, TickReplay.TICK_LENGTH))
        {
            waitToWrite(buffer, offset);
        }
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        if (!recordPackets)
        {
            return;
        }
        if (length > PacketRecordDescriptor.MAX_PAYLOAD_LENGTH || length < 0)
        {
            oversizedPackets.incrementRelease();
            return;
        }
        final int recordLength = PacketRecordDescriptor.HEADER_LENGTH + length;
        int index = ring.tryClaim(PACKET_MESSAGE, recordLength);
        if (index < 0)
        {
            backPressured.incrementRelease();
            do
            {
                Thread.onSpinWait();
                index = ring.tryClaim(PACKET_MESSAGE, recordLength);
            }
            while (index < 0);
        }
        final AtomicBuffer record = ring.buffer();
        record.putLong(index + PacketRecordDescriptor.RECEIVE_TIMESTAMP_OFFSET, receiveTimestampNanos,
            ByteOrder.LITTLE_ENDIAN);
        record.putInt(index + PacketRecordDescriptor.LINE_OFFSET, line, ByteOrder.LITTLE_ENDIAN);
        record.putInt(index + PacketRecordDescriptor.LENGTH_OFFSET, length, ByteOrder.LITTLE_ENDIAN);
        record.putBytes(index + PacketRecordDescriptor.HEADER_LENGTH, buffer, offset, length);
        ring.commit(index);
    }

    /**
     * Whether a packet of this length can be journaled now without waiting: the ring has room for its record even
     * if the record must first pad to the ring's end. Producer thread.
     *
     * @param length the UDP payload's length.
     * @return true when {@link #onPacket} would not wait (always, when packets are not recorded).
     */
    public boolean hasRoomForPacket(final int length)
    {
        if (!recordPackets)
        {
            return true;
        }
        final int record = org.agrona.BitUtil.align(
            RecordDescriptor.HEADER_LENGTH + PacketRecordDescriptor.HEADER_LENGTH + Math.max(0, length),
            RecordDescriptor.ALIGNMENT);
        return ring.capacity() - ring.size() >= 2 * record;
    }

    /** @return times a tick or packet had to wait for space in the ring. */
    public long backPressured()
    {
        return backPressured.get();
    }

    /** @return packets too long to journal. */
    public long oversizedPackets()
    {
        return oversizedPackets.get();
    }

    private void waitToWrite(final DirectBuffer buffer, final int offset)
    {
        backPressured.incrementRelease();
        do
        {
            Thread.onSpinWait();
        }
        while (!ring.write(TICK_MESSAGE, buffer, offset, TickReplay.TICK_LENGTH));
    }
}
