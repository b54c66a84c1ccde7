package io.mdgate.core.tick;

import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: keeps a copy of every tick it receives and hands out decoders over the copies.
 */
public final class RecordingTickHandler implements TickHandler
{
    private final List<byte[]> ticks = new ArrayList<>();

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final byte[] copy = new byte[TickEncoder.BLOCK_LENGTH];
        buffer.getBytes(offset, copy);
        ticks.add(copy);
    }

    public int size()
    {
        return ticks.size();
    }

    /** @return a decoder over the i-th tick received. */
    public TickDecoder tick(final int index)
    {
        return new TickDecoder().wrap(
            new UnsafeBuffer(ticks.get(index)), 0, TickEncoder.BLOCK_LENGTH, TickEncoder.SCHEMA_VERSION);
    }

    /** @return a decoder over the last tick received. */
    public TickDecoder last()
    {
        return tick(ticks.size() - 1);
    }

    public void clear()
    {
        ticks.clear();
    }
}
