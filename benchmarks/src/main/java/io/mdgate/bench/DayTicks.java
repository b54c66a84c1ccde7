package io.mdgate.bench;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.egress.RecoverySource;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Every tick of a benchmark day by sequence, in off-heap chunks: the late-join benchmarks' recovery source.
 * Publisher thread only.
 */
final class DayTicks implements RecoverySource, TickHandler, AutoCloseable
{
    private static final int CHUNK_TICKS = 1 << 22;

    private final List<UnsafeBuffer> chunks = new ArrayList<>();
    private long last;

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
        final int chunk = (int)((sequence - 1) / CHUNK_TICKS);
        while (chunks.size() <= chunk)
        {
            chunks.add(new UnsafeBuffer(BufferUtil.allocateDirectAligned(CHUNK_TICKS * 64, 64)));
        }
        chunks.get(chunk).putBytes((int)((sequence - 1) % CHUNK_TICKS) * 64, buffer, offset, 64);
        last = Math.max(last, sequence);
    }

    @Override
    public long replay(final long fromSequence, final long toSequence, final TickHandler handler)
    {
        final long to = Math.min(toSequence, last);
        long count = 0;
        for (long sequence = Math.max(1, fromSequence); sequence <= to; sequence++)
        {
            handler.onTick(chunks.get((int)((sequence - 1) / CHUNK_TICKS)),
                (int)((sequence - 1) % CHUNK_TICKS) * 64);
            count++;
        }
        return count;
    }

    @Override
    public void close()
    {
        chunks.clear(); // aligned slices: the collector frees them
    }
}
