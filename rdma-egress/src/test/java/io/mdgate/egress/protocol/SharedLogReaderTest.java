package io.mdgate.egress.protocol;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedLogReaderTest
{
    private static final int SLOTS = 16;
    private final UnsafeBuffer log = new UnsafeBuffer(
        BufferUtil.allocateDirectAligned(SharedLogDescriptor.length(SLOTS), 64));
    private final SharedLogWriter writer = new SharedLogWriter(log, SLOTS, 3, 42);
    private final SharedLogReader reader = new SharedLogReader(log);
    private final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer copy = new UnsafeBuffer(new byte[64]);

    private void append(final long value)
    {
        tick.setMemory(0, 64, (byte)value);
        writer.append(tick, 0);
    }

    @Test
    void shouldReadEachWrittenPositionAndNothingBeyondTheTail()
    {
        append(1);
        append(2);
        assertEquals(SharedLogReader.READ, reader.read(1, copy, 0));
        assertEquals((byte)2, copy.getByte(63));
        assertEquals(SharedLogReader.EMPTY, reader.read(2, copy, 0));
        assertEquals(2, reader.tail());
        assertNull(SharedLogReader.check(log, 3));
        assertEquals(42, reader.publisherEpoch());
    }

    @Test
    void shouldCallAPositionTheWriterIsWritingNotYetWritten()
    {
        append(1);
        log.putLong(SharedLogDescriptor.stampOffset(1, SLOTS), 2 | SharedLogDescriptor.WRITING);
        assertEquals(SharedLogReader.EMPTY, reader.read(1, copy, 0));
    }

    @Test
    void shouldReportALapWhenTheSlotHoldsALaterPositionOrIsBeingRewrittenForOne()
    {
        for (int i = 0; i < SLOTS + 1; i++)
        {
            append(i);
        }
        assertEquals(SharedLogReader.LAPPED, reader.read(0, copy, 0), "slot 0 now holds position 16");
        log.putLong(SharedLogDescriptor.stampOffset(1, SLOTS), (SLOTS + 2) | SharedLogDescriptor.WRITING);
        assertEquals(SharedLogReader.LAPPED, reader.read(1, copy, 0), "slot 1 being rewritten for position 17");
        assertEquals(SharedLogReader.READ, reader.read(SLOTS, copy, 0));
    }

    @Test
    void shouldRefuseALogOfAnotherStreamOrWithABrokenHeader()
    {
        assertTrue(SharedLogReader.check(log, 4).contains("stream 3"));
        log.putInt(SharedLogDescriptor.SLOTS_OFFSET, 1 << 20);
        assertTrue(SharedLogReader.check(log, 3).contains("slots"));
        log.putLong(SharedLogDescriptor.MAGIC_OFFSET, 0);
        assertTrue(SharedLogReader.check(log, 3).contains("not a shared tick log"));
    }
}
