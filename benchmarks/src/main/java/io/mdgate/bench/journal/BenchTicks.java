package io.mdgate.bench.journal;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One 64-byte tick in a cache-aligned buffer, rewritten in place for each sequence: the same bytes go to the journal
 * and to the bare queue. Exchange times spread the ticks evenly over a trading day (09:30 to 16:00 New York on
 * 2025-01-02), so a journal cycled by record time gets the hourly files a real day would. Not thread-safe.
 */
final class BenchTicks
{
    static final long OPEN_NANOS = 1_735_828_200_000_000_000L;
    static final long DAY_NANOS = 23_400_000_000_000L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    private final long nanosPerTick;

    /** @param ticksPerDay how many ticks the day holds, for their exchange times. */
    BenchTicks(final long ticksPerDay)
    {
        this.nanosPerTick = Math.max(1, DAY_NANOS / Math.max(1, ticksPerDay));
        final TickEncoder encoder = new TickEncoder().wrap(buffer, 0)
            .exchangeSequence(0).orderReference(0).matchOrNewReference(0).quantity(100).instrumentId(7).sessionId(1)
            .eventType(EventType.ADD).side(Side.BUY);
        encoder.price().mantissa(1_234_500);
    }

    /** @return the buffer holding the tick for this sequence. */
    UnsafeBuffer tick(final long sequence)
    {
        final long time = timeOf(sequence);
        buffer.putLong(0, sequence, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(8, sequence, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(16, time, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(24, time + 2_000, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(32, sequence * 3, ByteOrder.LITTLE_ENDIAN);
        return buffer;
    }

    /** @return the exchange time of the tick with this sequence. */
    long timeOf(final long sequence)
    {
        return OPEN_NANOS + (sequence - 1) * nanosPerTick;
    }
}
