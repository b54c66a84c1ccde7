package io.mdgate.core.mold;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class MoldUdp64AllocationTest
{
    private static final int CYCLES = 50_000;

    private final UnsafeBuffer packet = new UnsafeBuffer(new byte[1500]);
    private final UnsafeBuffer request = new UnsafeBuffer(new byte[MoldUdp64RequestFlyweight.LENGTH]);
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
    private final byte[] session = MoldUdp64Session.of("ALLOC");
    private final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
    private final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
    private final MoldUdp64RequestFlyweight flyweight = new MoldUdp64RequestFlyweight();
    private final MoldUdp64MessageHandler handler = this::onMessage;
    private long checksum;

    @Test
    void shouldEncodeAndDecodePacketsWithoutAllocating()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "the JVM cannot measure thread allocation");
        threads.setThreadAllocatedMemoryEnabled(true);
        encoder.wrap(packet, 0, 1400).session(session);
        final long thread = Thread.currentThread().getId();

        runCycles();
        final long before = threads.getThreadAllocatedBytes(thread);
        runCycles();
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;

        assertEquals(0, allocated, "bytes allocated by " + CYCLES + " encode/decode cycles");
        assertNotEquals(0, checksum);
        assertEquals(0, decoder.malformedCount());
        assertEquals(2L * CYCLES * 6, decoder.messagesDispatched());
    }

    private void runCycles()
    {
        long sequence = 1;
        for (int i = 0; i < CYCLES; i++)
        {
            encoder.reset(sequence);
            for (int length = 1; length < 40; length += 7)
            {
                message.putByte(0, (byte)length);
                encoder.tryAppend(message, 0, length);
            }
            sequence = encoder.nextSequenceNumber();
            decoder.decode(packet, 0, encoder.length(), handler);
            checksum += decoder.sequenceNumber() + (decoder.sessionEquals(session) ? 1 : 0);

            encoder.heartbeat(sequence);
            decoder.decode(packet, 0, encoder.length(), handler);

            flyweight.wrap(request, 0).session(session).sequenceNumber(sequence).requestedCount(i & 0xFFFF);
            checksum += flyweight.sequenceNumber() + flyweight.requestedCount();
        }
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        checksum += buffer.getByte(offset) + length + sequence;
    }
}
