package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Test support: a whole simulated session framed into MoldUDP64 packets, generated up front into one buffer so
 * that replaying it costs nothing but reads. Packets are stored back to back, each after a u16 length.
 */
final class PregeneratedPackets
{
    static final int MAX_PACKET = 1400;

    private final UnsafeBuffer buffer;
    private final int limit;
    private final int packets;
    private final long messages;
    private final ItchSessionGenerator generator;

    private PregeneratedPackets(final UnsafeBuffer buffer, final int limit, final int packets,
        final ItchSessionGenerator generator)
    {
        this.buffer = buffer;
        this.limit = limit;
        this.packets = packets;
        this.messages = generator.messagesGenerated();
        this.generator = generator;
    }

    /** Runs the generator to the end of its session. */
    static PregeneratedPackets generate(final SimulationConfig config)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config);
        final long capacity = config.messages() * (ItchSessionGenerator.MAX_MESSAGE_LENGTH + 2) + MAX_PACKET * 2L;
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Math.toIntExact(capacity)));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        final byte[] session = MoldUdp64Session.of("SIM0000001");

        int position = 0;
        int packets = 0;
        long sequence = 1;
        encoder.wrap(buffer, position + 2, MAX_PACKET).session(session).sequenceNumber(sequence);
        int length;
        while ((length = generator.next(message, 0)) > 0)
        {
            if (!encoder.tryAppend(message, 0, length))
            {
                sequence = encoder.nextSequenceNumber();
                position = close(buffer, position, encoder);
                packets++;
                encoder.wrap(buffer, position + 2, MAX_PACKET).session(session).sequenceNumber(sequence);
                encoder.tryAppend(message, 0, length);
            }
        }
        position = close(buffer, position, encoder);
        packets++;
        return new PregeneratedPackets(buffer, position, packets, generator);
    }

    private static int close(final UnsafeBuffer buffer, final int position, final MoldUdp64PacketEncoder encoder)
    {
        buffer.putShort(position, (short)encoder.length(), ByteOrder.BIG_ENDIAN);
        return position + 2 + encoder.length();
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return the end of the last packet. */
    int limit()
    {
        return limit;
    }

    int packets()
    {
        return packets;
    }

    long messages()
    {
        return messages;
    }

    ItchSessionGenerator generator()
    {
        return generator;
    }

    static int packetLength(final UnsafeBuffer buffer, final int position)
    {
        return buffer.getShort(position, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }
}
