package io.mdgate.journal;

import io.mdgate.core.tick.TickHandler;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Passes ticks on at their recorded pace (by exchange time) times a speed factor. Not thread-safe.
 */
public final class PacedTickHandler implements TickHandler
{
    private final TickHandler delegate;
    private final ReplayPacer pacer;

    public PacedTickHandler(final TickHandler delegate, final ReplayPacer pacer)
    {
        this.delegate = delegate;
        this.pacer = pacer;
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        pacer.await(buffer.getLong(offset + TickReplay.EXCHANGE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN));
        delegate.onTick(buffer, offset);
    }
}
