package io.mdgate.bench;

import io.mdgate.core.capture.PcapWriter;
import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;

/**
 * A small capture for {@code net_pcap}'s {@code infinite_rx=1} (which keeps every packet of the file in mbufs, so
 * the file must be small): a simulated ITCH session in MoldUDP64 packets, each written to line A and then to line
 * B, without an end-of-session packet, so a replay can go round and round.
 */
final class LoopedCapture
{
    static final UdpEndpoint LINE_A = UdpEndpoint.parse("233.54.12.111:26477");
    static final UdpEndpoint LINE_B = UdpEndpoint.parse("233.49.196.111:26477");
    private static final int SOURCE_IP = 0x0A000001;
    private static final int SOURCE_PORT = 26400;

    final Path file;
    final int packetsPerLine;
    final long messages;

    private LoopedCapture(final Path file, final int packetsPerLine, final long messages)
    {
        this.file = file;
        this.packetsPerLine = packetsPerLine;
        this.messages = messages;
    }

    /**
     * @param file              to write.
     * @param messages          in the session.
     * @param messagesPerPacket most messages in a MoldUDP64 packet (also at most 1400 bytes).
     * @return the capture's shape.
     */
    static LoopedCapture write(final Path file, final long messages, final int messagesPerPacket)
    {
        final ItchSessionGenerator generator =
            new ItchSessionGenerator(new SimulationConfig().seed(1).messages(messages).conclude());
        final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[1400]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        final byte[] session = MoldUdp64Session.of("BENCH00001");
        int packets = 0;
        long timestamp = 1_735_828_195_000_000_000L;
        try (PcapWriter pcap = new PcapWriter(file))
        {
            encoder.wrap(packet, 0, packet.capacity()).session(session).sequenceNumber(1);
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                if (encoder.messageCount() == messagesPerPacket || !encoder.tryAppend(message, 0, length))
                {
                    writeBoth(pcap, timestamp += 1000, packet, encoder.length());
                    packets++;
                    encoder.reset(encoder.nextSequenceNumber());
                    encoder.tryAppend(message, 0, length);
                }
            }
            if (encoder.messageCount() > 0)
            {
                writeBoth(pcap, timestamp + 1000, packet, encoder.length());
                packets++;
            }
        }
        return new LoopedCapture(file, packets, generator.messagesGenerated());
    }

    private static void writeBoth(final PcapWriter pcap, final long timestamp, final UnsafeBuffer packet,
        final int length)
    {
        pcap.writeUdp(timestamp, SOURCE_IP, SOURCE_PORT, LINE_A.address(), LINE_A.port(), packet, 0, length);
        pcap.writeUdp(timestamp, SOURCE_IP, SOURCE_PORT, LINE_B.address(), LINE_B.port(), packet, 0, length);
    }
}
