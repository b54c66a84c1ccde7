package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class RingSlotReaderTest
{
    private static final int SLOTS = 16;
    private final UnsafeBuffer copy = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
    private MemoryRegion consumer;
    private RingWriter writer;
    private RingSlotReader reader;

    @BeforeEach
    void setUp()
    {
        consumer = TestRegions.local(ConsumerRegionDescriptor.length(SLOTS, 0));
        writer = new RingWriter(TestRegions.local(ConsumerRegionDescriptor.ringLength(SLOTS)));
        writer.attach(new LocalRemoteRegion(consumer.buffer(), LocalRemoteRegion.Placement.IN_ORDER), SLOTS);
        reader = new RingSlotReader(consumer.buffer(), SLOTS);
    }

    private void write(final long value)
    {
        for (int i = 0; i < 64; i += 8)
        {
            tick.putLong(i, value * 1000 + i);
        }
        writer.stage(tick, 0, (short)0);
        writer.flush();
    }

    @Test
    void shouldReadAnIntactSlotAtItsPosition()
    {
        write(7);

        assertEquals(RingSlotReader.READ, reader.read(0, copy, 0));
        assertEquals(7000 + 8, copy.getLong(8));
    }

    @Test
    void shouldSeeNothingAtAPositionNotWrittenYet()
    {
        write(7);

        assertEquals(RingSlotReader.EMPTY, reader.read(1, copy, 0));
    }

    @Test
    void shouldSeeThatALaterLapOverwroteTheSlot()
    {
        for (int i = 0; i <= SLOTS; i++)
        {
            write(i);
        }

        assertEquals(RingSlotReader.AHEAD, reader.read(0, copy, 0));
        assertEquals(RingSlotReader.READ, reader.read(SLOTS, copy, 0));
    }

    @Test
    void shouldRefuseASlotHalfOverwrittenByTheNextLap()
    {
        write(1);
        final int slot = ConsumerRegionDescriptor.slotOffset(0, SLOTS);
        consumer.buffer().putLong(slot + 32, 424242);

        assertEquals(RingSlotReader.TORN, reader.read(0, copy, 0));
    }

    @Test
    void shouldRefuseAStampWhoseSlotBytesHaveNotLandedYet()
    {
        write(1);
        final int slot = ConsumerRegionDescriptor.slotOffset(0, SLOTS);
        consumer.buffer().setMemory(slot, 64, (byte)0);

        assertEquals(RingSlotReader.TORN, reader.read(0, copy, 0));
    }

    @Test
    void shouldRefuseAStampHalfWritten()
    {
        write(1);
        final int stamp = ConsumerRegionDescriptor.stampOffset(0, SLOTS);
        consumer.buffer().putLong(stamp + ConsumerRegionDescriptor.STAMP_CHECK_OFFSET, 99);

        assertEquals(RingSlotReader.TORN, reader.read(0, copy, 0));
    }

    @Test
    void shouldWriteAroundTheEndOfTheRingInOneFlush()
    {
        for (int i = 0; i < SLOTS - 2; i++)
        {
            write(i);
        }
        for (int i = 0; i < 5; i++)
        {
            tick.putLong(0, 5000 + i);
            writer.stage(tick, 0, (short)0);
        }
        writer.flush();

        for (int i = 0; i < 5; i++)
        {
            assertEquals(RingSlotReader.READ, reader.read(SLOTS - 2 + i, copy, 0));
            assertEquals(5000 + i, copy.getLong(0));
        }
    }

    @Test
    void shouldOrTheReplayedFlagIntoTheStagedTick()
    {
        tick.setMemory(0, 64, (byte)0);
        writer.stage(tick, 0, TickLayout.REPLAYED_FLAG);
        writer.flush();

        assertEquals(RingSlotReader.READ, reader.read(0, copy, 0));
        assertEquals(TickLayout.REPLAYED_FLAG, copy.getShort(TickLayout.FLAGS_OFFSET));
    }
}
