package io.mdgate.ingress;

import io.mdgate.core.feed.FeedLines;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

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
