package io.mdgate.core.capture;

import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PcapWriterTest
{
    private static final int SOURCE = 0x0A00_0001;
    private static final int GROUP_A = 0xE936_0C6F;
    private static final int PORT = 26477;

    @TempDir
    Path dir;

    @Test
    void shouldWriteNanosecondEthernetRecordsWithValidChecksumsAndMulticastMacs() throws Exception
    {
        final Path file = dir.resolve("a.pcap");
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[] { 1, 2, 3, 4, 5, 6, 7 });
        try (PcapWriter writer = new PcapWriter(file))
        {
            writer.writeUdp(1_735_828_200_123_456_789L, SOURCE, 40_000, GROUP_A, PORT, payload, 0, 7);
            writer.writeUdp(1_735_828_200_123_456_790L, SOURCE, 40_000, 0x7F00_0001, 9_000, payload, 2, 4);
            assertEquals(2, writer.packetsWritten());
        }

        final WrittenPcap pcap = WrittenPcap.read(file);
        assertEquals(PcapWriter.MAGIC_NANOSECONDS, pcap.magic);
        assertEquals(PcapWriter.LINK_TYPE_ETHERNET, pcap.linkType);
        assertEquals(2, pcap.datagrams.size());
        final WrittenPcap.Datagram first = pcap.datagrams.get(0);
        assertEquals(1_735_828_200_123_456_789L, first.timestampNanos());
        assertArrayEquals(new byte[] { 0x01, 0x00, 0x5E, 0x36, 0x0C, 0x6F }, first.destinationMac());
        assertEquals(SOURCE, first.srcIp());
        assertEquals(GROUP_A, first.dstIp());
        assertEquals(PORT, first.dstPort());
        assertArrayEquals(new byte[] { 1, 2, 3, 4, 5, 6, 7 }, first.payload());
        assertTrue(first.checksumsValid());
        final WrittenPcap.Datagram second = pcap.datagrams.get(1);
        assertArrayEquals(new byte[] { 0x02, 0x00, 0x7F, 0x00, 0x00, 0x01 }, second.destinationMac());
        assertArrayEquals(new byte[] { 3, 4, 5, 6 }, second.payload());
        assertTrue(second.checksumsValid(), "odd-length payload checksum");
    }

    @Test
    void shouldCompressWhenTheNameEndsInGzAndFlushAcrossTheStagingBuffer() throws Exception
    {
        final Path file = dir.resolve("b.pcap.gz");
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[9_000]);
        try (PcapWriter writer = new PcapWriter(file))
        {
            for (int i = 0; i < 300; i++)
            {
                payload.putInt(0, i);
                writer.writeUdp(i, SOURCE, 1, GROUP_A, PORT, payload, 0, 9_000);
            }
        }

        final WrittenPcap pcap = WrittenPcap.read(file);
        assertEquals(300, pcap.datagrams.size());
        for (int i = 0; i < 300; i++)
        {
            final WrittenPcap.Datagram datagram = pcap.datagrams.get(i);
            assertEquals(i, new UnsafeBuffer(datagram.payload()).getInt(0));
            assertTrue(datagram.checksumsValid());
        }
    }

    @Test
    void shouldRefuseAPayloadLargerThanOneIpv4Datagram()
    {
        try (PcapWriter writer = new PcapWriter(dir.resolve("c.pcap")))
        {
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[70_000]);
            assertThrows(IllegalArgumentException.class,
                () -> writer.writeUdp(0, SOURCE, 1, GROUP_A, PORT, payload, 0, PcapWriter.MAX_UDP_PAYLOAD + 1));
            assertEquals(0, writer.packetsWritten());
        }
    }

    @Test
    void shouldWriteMoldUdp64PacketsThatTsharkDissectsWithoutProblems() throws Exception
    {
        final Path tshark = Tshark.find();
        if (null == tshark)
        {
            System.out.println("SKIPPED PcapWriterTest tshark check: tshark is not installed (apt-get install tshark)");
        }
        Assumptions.assumeTrue(null != tshark, "tshark is not installed");

        final Path file = dir.resolve("mold.pcap");
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(3).instruments(20).messages(20_000));
        final long midnight = generator.config().midnightEpochNanos();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[1_500]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder().wrap(packet, 0, 1_400)
            .session(MoldUdp64Session.of("TEST000001"));
        encoder.reset(1);
        long packets = 0;
        try (PcapWriter writer = new PcapWriter(file))
        {
            int length;
            while ((length = generator.next(message, 0)) > 0)
            {
                if (!encoder.tryAppend(message, 0, length))
                {
                    writer.writeUdp(midnight + generator.timestamp(), SOURCE, 40_000, GROUP_A, PORT, packet, 0,
                        encoder.length());
                    packets++;
                    encoder.reset(encoder.nextSequenceNumber());
                    assertTrue(encoder.tryAppend(message, 0, length));
                }
            }
            writer.writeUdp(midnight + generator.timestamp(), SOURCE, 40_000, GROUP_A, PORT, packet, 0,
                encoder.length());
            final int end = encoder.endOfSession(encoder.nextSequenceNumber());
            writer.writeUdp(midnight + generator.timestamp(), SOURCE, 40_000, GROUP_A, PORT, packet, 0, end);
            packets += 2;
        }

        assertEquals(List.of(), Tshark.problems(file, PORT));
        final List<String> counts = Tshark.run(file, "-d", "udp.port==" + PORT + ",moldudp64",
            "-T", "fields", "-e", "moldudp64.count");
        assertEquals(packets, counts.size());
        long messages = 0;
        for (final String count : counts)
        {
            final int n = Integer.parseInt(count.trim());
            messages += n == MoldUdp64PacketDecoder.END_OF_SESSION_COUNT ? 0 : n;
        }
        assertEquals(20_000, messages);
    }

    @Test
    void shouldHaveTsharkReportAPacketWhoseBlocksOverrunIt() throws Exception
    {
        Assumptions.assumeTrue(null != Tshark.find(), "tshark is not installed");
        final Path file = dir.resolve("broken.pcap");
        final UnsafeBuffer packet = new UnsafeBuffer(new byte[64]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder().wrap(packet, 0, 64)
            .session(MoldUdp64Session.of("TEST000001"));
        encoder.reset(1);
        assertTrue(encoder.tryAppend(new UnsafeBuffer(new byte[19]), 0, 19));
        packet.putShort(20, (short)0x0100, java.nio.ByteOrder.BIG_ENDIAN);
        try (PcapWriter writer = new PcapWriter(file))
        {
            writer.writeUdp(0, SOURCE, 40_000, GROUP_A, PORT, packet, 0, encoder.length());
        }

        final List<String> problems = Tshark.problems(file, PORT);
        assertFalse(problems.isEmpty(), "tshark should flag a block overrunning the datagram");
    }
}
