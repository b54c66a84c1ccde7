package io.mdgate.app.sim;

import org.agrona.DirectBuffer;

/**
 * Sends packets nowhere, counting their bytes: a dry run that still reports packets and faults. Not thread-safe.
 */
public final class DiscardPacketOutput implements PacketOutput
{
    private long bytes;

    @Override
    public void send(final int line, final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        bytes += length;
    }

    public long bytes()
    {
        return bytes;
    }

    @Override
    public String describe()
    {
        return "none (dry run)";
    }

    @Override
    public void close()
    {
    }
}
