package io.mdgate.ingress;

import io.mdgate.core.capture.PcapWriter;
import io.mdgate.core.feed.FeedLines;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.mdgate.ingress.DpdkTests.LINE_A;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The checks the kernel's IPv4 and UDP receive paths make, made by the DPDK ingress: a capture of feed datagrams,
 * good ones mixed with ones the kernel would drop (bad IPv4 header checksum, bad UDP checksum, lengths that
 * disagree with the frame, fragments, an impossible header length), replayed through {@code net_pcap}, which
 * reports no checksum verdict, so the receive path sums them itself. Exactly the good datagrams come out, in
 * order, and each reason's counter equals what was injected.
 */
@Tag("dpdk")
class DpdkChecksumIngressTest
{
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final int IP = TestFrames.ETHERNET;
    private static final int UDP = TestFrames.ETHERNET + TestFrames.IPV4;
    private static final int ROUNDS = 20;

    /** The kinds of frame of one round, in capture order. */
    private enum Kind
    {
        GOOD, ZERO_UDP_CHECKSUM, PARTIAL_UDP_CHECKSUM, PADDED, UDP_SHORTER_THAN_IP_PAYLOAD, LARGE_GOOD,
        BAD_IP_CHECKSUM, BAD_UDP_CHECKSUM, LARGE_BAD_UDP_CHECKSUM, FRAME_SHORTER_THAN_IP_LENGTH,
        IP_LENGTH_SHORTER_THAN_HEADER, UDP_LENGTH_PAST_IP_PAYLOAD, UDP_LENGTH_SHORTER_THAN_HEADER, FIRST_FRAGMENT,
        LATER_FRAGMENT, HEADER_LENGTH_UNDER_20
    }

    @TempDir
    Path dir;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[4096]);

    @BeforeEach
    void requireDpdk()
    {
        DpdkTests.assumeDpdk();
    }

    @Test
    void shouldDeliverExactlyTheDatagramsTheKernelWouldAcceptAndCountEveryOtherByReason()
    {
        final List<byte[]> payloads = DpdkTests.moldPackets(ROUNDS * Kind.values().length, 17);
        final List<byte[]> expected = new ArrayList<>();
        final Path capture = dir.resolve("checks.pcap");
        long frames = 0;
        try (PcapWriter pcap = new PcapWriter(capture))
        {
            long nanos = 1_735_828_195_000_000_000L;
            int next = 0;
            for (int round = 0; round < ROUNDS; round++)
            {
                for (final Kind kind : Kind.values())
                {
                    final byte[] payload = kind == Kind.LARGE_GOOD || kind == Kind.LARGE_BAD_UDP_CHECKSUM ?
                        large(round) : payloads.get(next++);
                    final int length = build(kind, payload, expected);
                    pcap.writeFrame(nanos, frame, 0, length);
                    frames++;
                    nanos += 1000;
                }
            }
        }

        final RecordedPackets recorded = new RecordedPackets();
        final IngressStats stats;
        final long[] counts = new long[IngressStats.REASONS.size()];
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture)))
        {
            ingress.start();
            DpdkTests.drain(ingress, recorded, 300, 60_000);
            stats = ingress.stats();
            ingress.readDropped(counts);
        }

        assertEquals(expected.size(), recorded.packets.size(), "datagrams handed over; ingress said " + stats);
        for (int i = 0; i < expected.size(); i++)
        {
            assertEquals(FeedLines.A, recorded.packets.get(i).line());
            assertArrayEquals(expected.get(i), recorded.packets.get(i).payload(), "datagram " + i);
        }
        assertEquals(ROUNDS, stats.dropped(IngressStats.IP_CHECKSUM), stats.toJson());
        assertEquals(2 * ROUNDS, stats.dropped(IngressStats.UDP_CHECKSUM), stats.toJson());
        assertEquals(4 * ROUNDS, stats.dropped(IngressStats.LENGTH), stats.toJson());
        assertEquals(2 * ROUNDS, stats.dropped(IngressStats.FRAGMENT), stats.toJson());
        assertEquals(ROUNDS, stats.dropped(IngressStats.MALFORMED), stats.toJson());
        assertEquals(ROUNDS, stats.port(IngressStats.UDP_CHECKSUM_PARTIAL), stats.toJson());
        assertEquals(frames - expected.size(), stats.droppedTotal(), "nothing dropped for another reason");
        assertEquals(expected.size(), stats.linePackets(FeedLines.A));
        assertEquals(frames, stats.port("frames"));
        for (int i = 0; i < counts.length; i++)
        {
            assertEquals(stats.dropped(IngressStats.REASONS.get(i)), counts[i],
                "the allocation-free copy of " + IngressStats.REASONS.get(i) + " (the counters file's)");
        }
        assertEquals(ROUNDS, counts[IngressStats.REASONS.indexOf(IngressStats.IP_CHECKSUM)]);
    }

    /** Writes one frame of the kind carrying payload at 0, adding what must come out of it to expected. */
    private int build(final Kind kind, final byte[] payload, final List<byte[]> expected)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(payload);
        final int length = TestFrames.udp(frame, 0, LINE_A.address(), LINE_A.port(), bytes, 0, payload.length);
        switch (kind)
        {
            case GOOD, LARGE_GOOD ->
            {
                TestFrames.udpChecksum(frame);
                expected.add(payload);
                return length;
            }
            case ZERO_UDP_CHECKSUM ->
            {
                expected.add(payload);
                return length;
            }
            case PARTIAL_UDP_CHECKSUM ->
            {
                TestFrames.partialUdpChecksum(frame);
                expected.add(payload);
                return length;
            }
            case PADDED ->
            {
                TestFrames.udpChecksum(frame);
                frame.setMemory(length, 18, (byte)0);
                expected.add(payload);
                return length + 18;
            }
            case UDP_SHORTER_THAN_IP_PAYLOAD ->
            {
                frame.putShort(UDP + 4, (short)(TestFrames.UDP + payload.length - 5), BE);
                TestFrames.udpChecksum(frame);
                expected.add(Arrays.copyOf(payload, payload.length - 5));
                return length;
            }
            case BAD_IP_CHECKSUM ->
            {
                TestFrames.udpChecksum(frame);
                frame.putShort(IP + 10, (short)(frame.getShort(IP + 10, BE) ^ 0x0100), BE);
                return length;
            }
            case BAD_UDP_CHECKSUM, LARGE_BAD_UDP_CHECKSUM ->
            {
                TestFrames.udpChecksum(frame);
                final int last = length - 1;
                frame.putByte(last, (byte)(frame.getByte(last) ^ 0x40));
                return length;
            }
            case FRAME_SHORTER_THAN_IP_LENGTH ->
            {
                TestFrames.udpChecksum(frame);
                return length - 3;
            }
            case IP_LENGTH_SHORTER_THAN_HEADER ->
            {
                frame.putShort(IP + 2, (short)16, BE);
                TestFrames.ipChecksum(frame, IP);
                return length;
            }
            case UDP_LENGTH_PAST_IP_PAYLOAD ->
            {
                frame.putShort(UDP + 4, (short)(TestFrames.UDP + payload.length + 4), BE);
                return length;
            }
            case UDP_LENGTH_SHORTER_THAN_HEADER ->
            {
                frame.putShort(UDP + 4, (short)7, BE);
                return length;
            }
            case FIRST_FRAGMENT ->
            {
                frame.putShort(IP + 6, (short)0x2000, BE);
                TestFrames.ipChecksum(frame, IP);
                return length;
            }
            case LATER_FRAGMENT ->
            {
                frame.putShort(IP + 6, (short)0x00B9, BE);
                TestFrames.ipChecksum(frame, IP);
                return length;
            }
            case HEADER_LENGTH_UNDER_20 ->
            {
                frame.putByte(IP, (byte)0x44);
                frame.putShort(IP + 10, (short)0, BE);
                frame.putShort(IP + 10, (short)TestFrames.checksum(frame, IP, 16), BE);
                return length;
            }
            default -> throw new IllegalArgumentException(kind.toString());
        }
    }

    /** @return a payload that spans several mbufs (net_pcap chains mbufs of 2 KiB). */
    private static byte[] large(final int round)
    {
        final byte[] payload = new byte[3001];
        for (int i = 0; i < payload.length; i++)
        {
            payload[i] = (byte)(i * 7 + round);
        }
        return payload;
    }
}
