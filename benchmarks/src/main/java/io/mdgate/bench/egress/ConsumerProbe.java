package io.mdgate.bench.egress;

import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;

import java.util.concurrent.TimeUnit;

/**
 * What one consumer measured: every tick after the warm-up is counted and its one-way latency recorded (no sample is
 * dropped, the tail is never trimmed); first and last receipt times give its rate. Written by its consumer thread,
 * read by the harness after that thread has finished.
 */
final class ConsumerProbe
{
    private final EpochNanoClock clock;
    private final long warmUpSequence;
    private final long lastSequence;
    final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
    long received;
    long measured;
    long outOfOrder;
    long firstNanos;
    long lastNanos;
    long highestSequence;

    ConsumerProbe(final EpochNanoClock clock, final long warmUpSequence, final long lastSequence)
    {
        this.clock = clock;
        this.warmUpSequence = warmUpSequence;
        this.lastSequence = lastSequence;
    }

    void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = BenchTicks.sequence(buffer, offset);
        final long now = clock.nanoTime();
        if (sequence != highestSequence + 1)
        {
            outOfOrder++;
        }
        highestSequence = Math.max(highestSequence, sequence);
        received++;
        if (sequence > warmUpSequence)
        {
            if (measured == 0)
            {
                firstNanos = now;
            }
            lastNanos = now;
            measured++;
            latency.recordValue(Math.min(latency.getHighestTrackableValue(),
                Math.max(0, now - BenchTicks.sendTime(buffer, offset))));
        }
    }

    boolean done()
    {
        return highestSequence >= lastSequence;
    }

    double ratePerSecond()
    {
        return lastNanos > firstNanos ? (measured - 1) * 1e9 / (lastNanos - firstNanos) : 0;
    }
}
