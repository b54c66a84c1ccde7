package io.mdgate.app.sim;

import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: keeps copies of packets (as a {@link PacketListener} or a {@link PacketOutput}) and decodes
 * them back with the MoldUDP64 and ITCH decoders.
 */
final class RecordedPackets implements PacketListener, PacketOutput
{
    record Packet(int line, long timestamp, byte[] bytes)
    {
    }

    /** Everything a decode of some packets found. */
    static final class Decoded
    {
        final List<Long> sequences = new ArrayList<>();
        final List<byte[]> messages = new ArrayList<>();
        final long[] counts = new long[256];
        long malformedPackets;
        long malformedMessages;
        long heartbeats;
        long endOfSession;
        long endOfSessionNextSequence;
    }

    final List<Packet> packets = new ArrayList<>();

    @Override
    public void onPacket(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        send(PacketOutput.LINE_A, timestamp, buffer, offset, length);
    }

    @Override
    public void send(final int line, final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        packets.add(new Packet(line, timestamp, bytes));
    }

    List<Packet> line(final int line)
    {
        return packets.stream().filter(p -> p.line() == line).toList();
    }

    @Override
    public String describe()
    {
        return "recorded";
    }

    @Override
    public void close()
    {
    }

    static Decoded decode(final List<byte[]> datagrams)
    {
        final Decoded decoded = new Decoded();
        final MoldUdp64PacketDecoder mold = new MoldUdp64PacketDecoder();
        final ItchMessageDecoder itch = new ItchMessageDecoder();
        final ItchMessageHandler ignore = new ItchMessageHandler()
        {
        };
        for (final byte[] datagram : datagrams)
        {
            final int result = mold.decode(new UnsafeBuffer(datagram), 0, datagram.length,
                (buffer, offset, length, sequence) ->
                {
                    if (itch.decode(buffer, offset, length, ignore) == ItchMessageDecoder.OK)
                    {
                        decoded.counts[buffer.getByte(offset) & 0xFF]++;
                    }
                    else
                    {
                        decoded.malformedMessages++;
                    }
                    final byte[] message = new byte[length];
                    buffer.getBytes(offset, message);
                    decoded.messages.add(message);
                    decoded.sequences.add(sequence);
                });
            if (result < 0)
            {
                decoded.malformedPackets++;
            }
            else if (mold.isHeartbeat())
            {
                decoded.heartbeats++;
            }
            else if (mold.isEndOfSession())
            {
                decoded.endOfSession++;
                decoded.endOfSessionNextSequence = mold.sequenceNumber();
            }
        }
        return decoded;
    }

    static Decoded decodePackets(final List<Packet> packets)
    {
        return decode(packets.stream().map(Packet::bytes).toList());
    }
}
