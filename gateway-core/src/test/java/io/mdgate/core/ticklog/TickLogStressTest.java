package io.mdgate.core.ticklog;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The writer and two readers (the second following the first) on three threads over a small log, so the writer is
 * gated thousands of times: every reader must see every tick once, in order, and never a slot the writer is
 * rewriting (each tick's eight longs all carry its sequence).
 */
@org.junit.jupiter.api.Timeout(120)
class TickLogStressTest
{
    private static final long TICKS = 1_000_000;

    @Test
    void shouldNeverLetAReaderSeeAMissingDuplicateOrTornTickUnderContention() throws Exception
    {
        final TickLog log = new TickLog(256, "journal", "egress");
        log.reader(1).follow(log.reader(0));
        final AtomicReference<String> failure = new AtomicReference<>();
        final Thread journal = reader(log.reader(0), failure);
        final Thread egress = reader(log.reader(1), failure);
        journal.start();
        egress.start();
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[TickLogDescriptor.TICK_LENGTH]);
        long gated = 0;
        for (long s = 1; s <= TICKS && failure.get() == null; s++)
        {
            while (!log.hasRoom(1))
            {
                gated++;
                Thread.yield();
            }
            for (int i = 0; i < TickLogDescriptor.TICK_LENGTH; i += 8)
            {
                tick.putLong(i, s, ByteOrder.LITTLE_ENDIAN);
            }
            log.onTick(tick, 0);
        }
        journal.join(60_000);
        egress.join(60_000);
        assertNull(failure.get());
        assertEquals(0, log.overruns());
        assertEquals(TICKS, log.reader(1).position());
        System.out.println("tick log stress: " + TICKS + " ticks, writer gated " + gated + " times");
    }

    private static Thread reader(final TickLogReader reader, final AtomicReference<String> failure)
    {
        return new Thread(() ->
        {
            final long[] expected = {1};
            while (expected[0] <= TICKS && failure.get() == null)
            {
                final int read = reader.poll((DirectBuffer buffer, int offset) ->
                {
                    for (int i = 0; i < TickLogDescriptor.TICK_LENGTH; i += 8)
                    {
                        final long value = buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN);
                        if (value != expected[0])
                        {
                            failure.compareAndSet(null, reader.name() + " expected " + expected[0] + " at byte " + i +
                                ", saw " + value);
                        }
                    }
                    expected[0]++;
                }, 64);
                if (read == 0)
                {
                    // Three threads on a host that may have two CPUs: let the others run rather than spin.
                    Thread.yield();
                }
            }
        }, "tick-log-" + reader.name());
    }
}
