package io.mdgate.journal;

import io.mdgate.core.feed.PacketHandler;
import org.agrona.DirectBuffer;

/**
 * Passes packets on at their recorded pace (by receive time) times a speed factor. Not thread-safe.
 */
public final class PacedPacketHandler implements PacketHandler
{
    private final PacketHandler delegate;
    private final ReplayPacer pacer;

    public PacedPacketHandler(final PacketHandler delegate, final ReplayPacer pacer)
    {
        this.delegate = delegate;
        this.pacer = pacer;
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        pacer.await(receiveTimestampNanos);
        delegate.onPacket(line, buffer, offset, length, receiveTimestampNanos);
    }
}
