package io.mdgate.ingress;

import io.mdgate.core.feed.PacketHandler;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link PacketHandler} for tests that keeps a copy of every packet handed over. Not thread-safe.
 */
final class RecordedPackets implements PacketHandler
{
    /** One packet as handed over. */
    record Packet(int line, byte[] payload, long timestampNanos)
    {
    }

    final List<Packet> packets = new ArrayList<>();

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        final byte[] payload = new byte[length];
        buffer.getBytes(offset, payload);
        packets.add(new Packet(line, payload, receiveTimestampNanos));
    }

    List<Packet> onLine(final int line)
    {
        return packets.stream().filter(p -> p.line() == line).toList();
    }
}
