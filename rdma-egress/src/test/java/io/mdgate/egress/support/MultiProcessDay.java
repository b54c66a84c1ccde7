package io.mdgate.egress.support;

import org.agrona.concurrent.SystemEpochNanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The ticks the multi-process tests publish (the Java consumers' and the C consumers'): sequence 1 names instrument 7
 * MSFT, sequence 2 instrument 4 AAPL, the final sequence of a test is a market-wide event every consumer receives,
 * and every other sequence is an ADD on instrument {@code sequence mod 10 + 1}, stamped with its receive time.
 */
public final class MultiProcessDay
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();

    private MultiProcessDay()
    {
    }

    public static int instrumentOf(final long sequence)
    {
        return sequence == 1 ? 7 : sequence == 2 ? 4 : (int)(sequence % 10) + 1;
    }

    /** Publishes {@code from..to} at about {@code rate} ticks per second; {@code finalSequence} is market-wide. */
    public static void publish(final PublisherHarness harness, final long from, final long to, final long finalSequence,
        final int rate)
    {
        final long start = System.nanoTime();
        for (long sequence = from; sequence <= to; sequence++)
        {
            if (sequence == 1)
            {
                harness.publish(Ticks.instrument(1, 7, "MSFT"));
            }
            else if (sequence == 2)
            {
                harness.publish(Ticks.instrument(2, 4, "AAPL"));
            }
            else if (sequence == finalSequence)
            {
                harness.publish(Ticks.systemEvent(sequence, 'C'));
            }
            else
            {
                harness.publish(Ticks.add(sequence, instrumentOf(sequence), CLOCK.nanoTime()));
            }
            if ((sequence - from) % 100 == 99)
            {
                final long wait = start + (sequence - from + 1) * 1_000_000_000L / rate - System.nanoTime();
                if (wait > 0)
                {
                    LockSupport.parkNanos(wait);
                }
            }
        }
    }

    /** @return the sequences of {@code from..to} a consumer of {@code instruments} (null: all) receives. */
    public static List<Long> expected(final long from, final long to, final long finalSequence,
        final Set<Integer> instruments)
    {
        final List<Long> expected = new ArrayList<>();
        for (long sequence = from; sequence <= to; sequence++)
        {
            if (sequence == finalSequence || null == instruments || instruments.contains(instrumentOf(sequence)))
            {
                expected.add(sequence);
            }
        }
        return expected;
    }
}
