package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldHeartbeat;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class LineArbiterAllocationTest
{
    private static final int PACKETS = 64;

    /** Both lines, with line B one packet late and every eighth packet on A lost, plus heartbeats. */
    private static void feed(final LineArbiter arbiter, final UnsafeBuffer[] packets, final UnsafeBuffer heartbeat)
    {
        for (int i = 0; i < PACKETS; i++)
        {
            if (i % 8 != 3)
            {
                arbiter.onPacket(LineArbiter.LINE_A, packets[i], 0, packets[i].capacity());
            }
            if (i > 0)
            {
                arbiter.onPacket(LineArbiter.LINE_B, packets[i - 1], 0, packets[i - 1].capacity());
            }
        }
        arbiter.onPacket(LineArbiter.LINE_B, packets[PACKETS - 1], 0, packets[PACKETS - 1].capacity());
        arbiter.onPacket(LineArbiter.LINE_A, heartbeat, 0, heartbeat.capacity());
    }

    @Test
    void shouldNotAllocateWhileArbitratingReorderedAndDuplicatedPackets()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter unavailable");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;

        final long[] sum = new long[1];
        final MoldUdp64MessageHandler handler = (buffer, offset, length, sequence) -> sum[0] += sequence;
        final LineArbiter arbiter = new LineArbiter(16, handler);
        final int rounds = 2_000;
        final UnsafeBuffer[][] packets = new UnsafeBuffer[rounds][PACKETS];
        final UnsafeBuffer[] heartbeats = new UnsafeBuffer[rounds];
        long sequence = 1;
        for (int r = 0; r < rounds; r++)
        {
            for (int i = 0; i < PACKETS; i++)
            {
                packets[r][i] = new UnsafeBuffer(moldPacketOfAdds(SESSION, sequence, 3));
                sequence += 3;
            }
            heartbeats[r] = new UnsafeBuffer(moldHeartbeat(SESSION, sequence));
        }

        for (int r = 0; r < rounds / 2; r++)
        {
            feed(arbiter, packets[r], heartbeats[r]);
        }
        final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int r = rounds / 2; r < rounds; r++)
        {
            feed(arbiter, packets[r], heartbeats[r]);
        }
        final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;

        assertEquals(0, allocated, "bytes allocated in steady state");
        assertEquals(rounds * PACKETS * 3L, arbiter.messages());
        assertEquals(0, arbiter.gaps());
    }
}
