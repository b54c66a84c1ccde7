package io.mdgate.bench;

import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A day in daily-file framing re-framed as the MoldUDP64 datagrams a feed line would carry: consecutive messages
 * in packets of up to {@code messagesPerPacket}, each datagram preceded by its length (u16, little-endian) in one
 * off-heap buffer, so a benchmark can hand each datagram to the real packet decoder as the ingress would.
 */
final class MoldPacketDay
{
    private final UnsafeBuffer packets;
    private final int length;
    private final int packetCount;

    private MoldPacketDay(final UnsafeBuffer packets, final int length, final int packetCount)
    {
        this.packets = packets;
        this.length = length;
        this.packetCount = packetCount;
    }

    /**
     * @param day               messages, each preceded by its u16 big-endian length (Nasdaq's daily file).
     * @param messages          how many of them to frame.
     * @param messagesPerPacket the most messages a datagram carries.
     */
    static MoldPacketDay frame(final UnsafeBuffer day, final int messages, final int messagesPerPacket)
    {
        final long bound = (long)day.capacity() + (long)(messages / messagesPerPacket + 1) * (2 + 20);
        final UnsafeBuffer out = new UnsafeBuffer(BufferUtil.allocateDirectAligned((int)bound, 64));
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        final byte[] session = MoldUdp64Session.of("BENCH0001");
        int in = 0;
        int at = 0;
        int framed = 0;
        int packets = 0;
        while (framed < messages && in < day.capacity())
        {
            encoder.wrap(out, at + 2, out.capacity() - at - 2).session(session).sequenceNumber(framed + 1L);
            while (encoder.messageCount() < messagesPerPacket && framed < messages && in < day.capacity())
            {
                final int length = day.getShort(in, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                if (!encoder.tryAppend(day, in + 2, length))
                {
                    break;
                }
                in += 2 + length;
                framed++;
            }
            out.putShort(at, (short)encoder.length(), ByteOrder.LITTLE_ENDIAN);
            at += 2 + encoder.length();
            packets++;
        }
        return new MoldPacketDay(out, at, packets);
    }

    UnsafeBuffer packets()
    {
        return packets;
    }

    /** @return bytes of {@link #packets()} in use. */
    int length()
    {
        return length;
    }

    int packetCount()
    {
        return packetCount;
    }
}
