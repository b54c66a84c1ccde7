package io.mdgate.ingress;

import io.mdgate.core.feed.FeedLines;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static io.mdgate.ingress.DpdkTests.LINE_A;
import static io.mdgate.ingress.DpdkTests.LINE_B;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DPDK ingress over {@code net_ring}: a ring device's TX and RX queues share one {@code rte_ring}, so frames the
 * test transmits through the port come back on its RX queue, IGMP joins included. Shares the test JVM's EAL (see
 * {@link DpdkPcapIngressTest}).
 */
@Tag("dpdk")
class DpdkRingIngressTest
{
    private static final int SEQUENCES = 500;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[2048]);

    @BeforeEach
    void requireDpdk()
    {
        DpdkTests.assumeDpdk();
    }

    @Test
    void shouldDeliverFramesLoopedThroughTheRingWithTheirLinesAndCountTheOwnJoinAsIgmp()
    {
        final List<byte[]> payloads = DpdkTests.moldPackets(SEQUENCES, 21);
        final RecordedPackets recorded = new RecordedPackets();
        final IngressStats stats;
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_ring0")))
        {
            ingress.start();
            assertEquals("net_ring", ingress.driver());
            assertFalse(ingress.hardwareTimestamps(), "a ring has no clock: the TSC stamps its packets");
            final long before = System.currentTimeMillis() * 1_000_000L;
            for (int i = 0; i < SEQUENCES; i++)
            {
                final UnsafeBuffer payload = new UnsafeBuffer(payloads.get(i));
                send(ingress, TestFrames.udp(frame, 0, LINE_A.address(), LINE_A.port(), payload, 0,
                    payload.capacity()), recorded);
                send(ingress, TestFrames.udp(frame, 1, LINE_B.address(), LINE_B.port(), payload, 0,
                    payload.capacity()), recorded);
                if (i % 50 == 0)
                {
                    send(ingress, TestFrames.arp(frame), recorded);
                    send(ingress, TestFrames.udp(frame, 0, LINE_B.address(), 9, payload, 0, 10), recorded);
                }
            }
            DpdkTests.drain(ingress, recorded, 200, 30_000);
            stats = ingress.stats();
            assertTrue(recorded.packets.get(0).timestampNanos() >= before - 1_000_000L, "wall-clock nanoseconds");
        }

        for (final int line : new int[] { FeedLines.A, FeedLines.B })
        {
            final List<RecordedPackets.Packet> onLine = recorded.onLine(line);
            assertEquals(SEQUENCES, onLine.size());
            for (int i = 0; i < SEQUENCES; i++)
            {
                assertArrayEquals(payloads.get(i), onLine.get(i).payload(), "line " + line + " packet " + i);
            }
        }
        assertEquals(SEQUENCES / 50, stats.dropped(IngressStats.ARP));
        assertEquals(SEQUENCES / 50, stats.dropped(IngressStats.OTHER_DESTINATION));
        assertTrue(stats.port("igmpReportsSent") >= 1, "the join at start");
        assertEquals(stats.port("igmpReportsSent"), stats.dropped(IngressStats.IGMP), "our own reports come back");
        assertEquals(0, stats.port("rx_nombuf"));
    }

    @Test
    void shouldBuildIgmpReportsWithEveryDistinctGroupAndValidChecksums()
    {
        final UnsafeBuffer report = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final IngressLines lines = IngressLines.parse(
            "A=233.54.12.111:26477,B=233.49.196.111:26477,B=233.49.196.111:26478,RECOVERY=10.0.0.1:26400");
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_ring1").lines(lines).igmp(false)))
        {
            ingress.start();
            final int length = ingress.igmpReport(4, report);

            assertEquals(14 + 24 + 8 + 2 * 8, length, "two distinct multicast groups, the unicast one left out");
            assertEquals(0x01005E00, report.getInt(0, ByteOrder.BIG_ENDIAN));
            assertEquals(0x46, report.getByte(14) & 0xFF, "IPv4 with a 24-byte header");
            assertEquals(0x94040000, report.getInt(14 + 20, ByteOrder.BIG_ENDIAN), "Router Alert");
            assertEquals(0, TestFrames.checksum(report, 14, 24), "IPv4 header checksum");
            assertEquals(0, TestFrames.checksum(report, 38, 8 + 2 * 8), "IGMP checksum");
            assertEquals(0x22, report.getByte(38) & 0xFF, "IGMPv3 membership report");
            assertEquals(2, report.getShort(38 + 6, ByteOrder.BIG_ENDIAN));
            assertEquals(4, report.getByte(46), "CHANGE_TO_EXCLUDE_MODE");
            assertEquals(LINE_A.address(), report.getInt(50, ByteOrder.BIG_ENDIAN));
            assertEquals(LINE_B.address(), report.getInt(58, ByteOrder.BIG_ENDIAN));
            assertEquals(0, ingress.stats().port("igmpReportsSent"), "igmp(false) sends none");
        }
    }

    /** Transmits one frame, polling the ring empty while it is full. */
    private void send(final DpdkIngress ingress, final int length, final RecordedPackets recorded)
    {
        for (int attempt = 0; attempt < 1000; attempt++)
        {
            final int sent = ingress.transmit(frame, 0, length);
            if (sent == 1)
            {
                return;
            }
            assertEquals(0, sent, "transmit failed");
            ingress.poll(recorded);
        }
        throw new AssertionError("the ring stayed full");
    }
}
