package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A writer laps a 16-slot ring as fast as it can while a reader chases it; every slot the reader accepts must be
 * exactly what the writer wrote at that position. Run with each legal placement of one-sided writes, including
 * words placed backwards and stamps landing before their slots.
 */
class TornSlotStressTest
{
    private static final int SLOTS = 16;
    private static final long READ_ATTEMPTS = 2_000_000;
    private static final long ACCEPTED_READS = 50_000;
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(20);

    @ParameterizedTest
    @EnumSource(LocalRemoteRegion.Placement.class)
    void shouldNeverAcceptATornOrStaleSlotWhileTheWriterLapsTheReader(final LocalRemoteRegion.Placement placement)
        throws InterruptedException
    {
        final MemoryRegion consumer = TestRegions.local(ConsumerRegionDescriptor.length(SLOTS, 0));
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong written = new AtomicLong();
        final Thread writerThread = new Thread(() -> writeUntilStopped(consumer, placement, running, written));
        writerThread.setDaemon(true);
        writerThread.start();

        final RingSlotReader reader = new RingSlotReader(consumer.buffer(), SLOTS);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[64]);
        long position = 0;
        long accepted = 0;
        long torn = 0;
        long behind = 0;
        long badAccepts = 0;
        long attempts = 0;
        final long deadline = System.nanoTime() + MAX_NANOS;
        try
        {
            while ((attempts < READ_ATTEMPTS || accepted < ACCEPTED_READS) && System.nanoTime() < deadline)
            {
                attempts++;
                final int result = reader.read(position, copy, 0);
                if (result == RingSlotReader.READ)
                {
                    if (!holdsPosition(copy, position))
                    {
                        badAccepts++;
                    }
                    accepted++;
                    position++;
                }
                else if (result == RingSlotReader.TORN)
                {
                    torn++;
                }
                else if (result == RingSlotReader.AHEAD)
                {
                    behind++;
                    position = consumer.buffer().getLongVolatile(
                        ConsumerRegionDescriptor.stampOffset(position, SLOTS)) - 1;
                }
            }
        }
        finally
        {
            running.set(false);
            writerThread.join(10_000);
        }

        System.out.printf("TornSlotStressTest %s: %d attempts, %d accepted, %d torn, %d lapped, %d written%n",
            placement, attempts, accepted, torn, behind, written.get());
        assertEquals(0, badAccepts, "slots accepted that did not hold what was written at their position");
        assertTrue(accepted > 1000, "the reader kept up at least some of the time: " + accepted);
        assertTrue(attempts >= READ_ATTEMPTS, "millions of iterations: " + attempts);
    }

    private static void writeUntilStopped(final MemoryRegion consumer, final LocalRemoteRegion.Placement placement,
        final AtomicBoolean running, final AtomicLong written)
    {
        final RingWriter writer = new RingWriter(TestRegions.local(ConsumerRegionDescriptor.ringLength(SLOTS)));
        writer.attach(new LocalRemoteRegion(consumer.buffer(), placement), SLOTS);
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        long position = 0;
        int batch = 1;
        while (running.get())
        {
            for (int i = 0; i < batch; i++)
            {
                fill(tick, position++);
                writer.stage(tick, 0, (short)0);
            }
            writer.flush();
            batch = batch % 7 + 1;
            written.lazySet(position);
            if ((position & 1023) < 512)
            {
                for (int spin = 0; spin < 200; spin++)
                {
                    Thread.onSpinWait(); // half the time slower than the reader, half the time lapping it
                }
            }
        }
    }

    private static void fill(final UnsafeBuffer tick, final long position)
    {
        for (int i = 0; i < 64; i += 8)
        {
            tick.putLong(i, position * 0x9E3779B97F4A7C15L + i);
        }
    }

    private static boolean holdsPosition(final UnsafeBuffer copy, final long position)
    {
        for (int i = 0; i < 64; i += 8)
        {
            if (copy.getLong(i) != position * 0x9E3779B97F4A7C15L + i)
            {
                return false;
            }
        }
        return true;
    }
}
