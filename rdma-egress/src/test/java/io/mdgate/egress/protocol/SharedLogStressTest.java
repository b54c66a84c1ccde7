package io.mdgate.egress.protocol;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A writer laps a 16-slot shared log as fast as it can while a reader chases it; every tick the reader accepts must
 * be exactly what the writer wrote at that position, however often the slot was rewritten under the copy.
 */
class SharedLogStressTest
{
    private static final int SLOTS = 16;
    private static final long READ_ATTEMPTS = 2_000_000;
    private static final long ACCEPTED_READS = 50_000;
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(20);

    @ParameterizedTest(name = "runs of {0}")
    @ValueSource(ints = {1, 8})
    void shouldNeverAcceptATornOrOverwrittenTickWhileTheWriterLapsTheReader(final int runLength)
        throws InterruptedException
    {
        final UnsafeBuffer log = new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(SharedLogDescriptor.length(SLOTS), 64));
        final SharedLogWriter writer = new SharedLogWriter(log, SLOTS, 7, 1);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong written = new AtomicLong();
        final Thread writerThread = new Thread(() -> writeUntilStopped(writer, running, written));
        writerThread.setDaemon(true);
        writerThread.start();

        final SharedLogReader reader = new SharedLogReader(log);
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[64 * runLength]);
        long position = 0;
        long accepted = 0;
        long empty = 0;
        long lapped = 0;
        long badAccepts = 0;
        long attempts = 0;
        long multiTickRuns = 0;
        final long deadline = System.nanoTime() + MAX_NANOS;
        try
        {
            while ((attempts < READ_ATTEMPTS || accepted < ACCEPTED_READS) && System.nanoTime() < deadline)
            {
                attempts++;
                if ((attempts & 255) == 0)
                {
                    for (int spin = 0; spin < 300; spin++)
                    {
                        Thread.onSpinWait(); // fall behind now and then, so runs are long and laps land mid-copy
                    }
                }
                final int result = runLength == 1 ? readOne(reader, position, copy) :
                    reader.readRun(position, runLength, copy, 0);
                if (result > 0)
                {
                    for (int i = 0; i < result; i++)
                    {
                        if (!holdsPosition(copy, i * 64, position + i))
                        {
                            badAccepts++;
                        }
                    }
                    accepted += result;
                    multiTickRuns += result > 1 ? 1 : 0;
                    position += result;
                }
                else if (result < 0)
                {
                    lapped++;
                    position = Math.max(position + 1, reader.tail() - SLOTS / 2);
                }
                else
                {
                    empty++;
                }
            }
        }
        finally
        {
            running.set(false);
            writerThread.join(10_000);
        }

        System.out.printf("SharedLogStressTest runs of %d: %d attempts, %d accepted, %d not yet written, " +
            "%d lapped, %d written, %d runs of several%n",
            runLength, attempts, accepted, empty, lapped, written.get(), multiTickRuns);
        assertEquals(0, badAccepts, "ticks accepted that were not what was written at their position");
        assertTrue(accepted > 1000, "the reader kept up at least some of the time: " + accepted);
        assertTrue(lapped > 0, "the writer lapped the reader: " + lapped);
        assertTrue(attempts >= READ_ATTEMPTS, "millions of iterations: " + attempts);
        if (runLength > 1)
        {
            assertTrue(multiTickRuns > 0, "runs of several ticks were read: " + multiTickRuns);
        }
    }

    /** @return 1, 0 or -1 as {@link SharedLogReader#readRun} says, through the single-tick read. */
    private static int readOne(final SharedLogReader reader, final long position, final UnsafeBuffer copy)
    {
        final int result = reader.read(position, copy, 0);
        return result == SharedLogReader.READ ? 1 : result == SharedLogReader.EMPTY ? 0 : -1;
    }

    private static void writeUntilStopped(final SharedLogWriter writer, final AtomicBoolean running,
        final AtomicLong written)
    {
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        long position = 0;
        while (running.get())
        {
            fill(tick, position++);
            writer.append(tick, 0);
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

    private static boolean holdsPosition(final UnsafeBuffer copy, final int offset, final long position)
    {
        for (int i = 0; i < 64; i += 8)
        {
            if (copy.getLong(offset + i) != position * 0x9E3779B97F4A7C15L + i)
            {
                return false;
            }
        }
        return true;
    }
}
