package io.mdgate.ingress;

import io.mdgate.core.capture.PcapWriter;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.time.MonotonicEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.mdgate.ingress.DpdkTests.LINE_A;
import static io.mdgate.ingress.DpdkTests.LINE_B;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DPDK ingress over {@code net_pcap}: a capture written here is replayed through the PMD. All DPDK tests of
 * this module share the one EAL of the test JVM (it starts once per process): each test hot-plugs its own device
 * and detaches it at close, and starts, polls and closes on its own thread.
 */
@Tag("dpdk")
class DpdkPcapIngressTest
{
    private static final long FIRST_NANOS = 1_735_828_195_000_000_000L;
    private static final int SEQUENCES = 300;

    @TempDir
    Path dir;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[4096]);

    @BeforeEach
    void requireDpdk()
    {
        DpdkTests.assumeDpdk();
    }

    @Test
    void shouldDeliverEveryPayloadOfBothLinesWithItsLineAndCaptureTimeAndCountTheRestByReason()
    {
        final List<byte[]> payloads = DpdkTests.moldPackets(SEQUENCES, 7);
        final List<Long> times = new ArrayList<>();
        final Path capture = dir.resolve("lines.pcap");
        try (PcapWriter pcap = new PcapWriter(capture))
        {
            long nanos = FIRST_NANOS;
            for (int i = 0; i < SEQUENCES; i++)
            {
                final UnsafeBuffer payload = new UnsafeBuffer(payloads.get(i));
                times.add(nanos);
                write(pcap, nanos, TestFrames.udp(frame, 0, LINE_A.address(), LINE_A.port(), payload, 0,
                    payload.capacity()));
                write(pcap, nanos + 1234, TestFrames.udp(frame, i % 3, LINE_B.address(), LINE_B.port(), payload, 0,
                    payload.capacity()));
                if (i % 10 == 0)
                {
                    writeNoise(pcap, nanos + 2000, payload);
                }
                nanos += 7_777;
            }
        }

        final RecordedPackets recorded = new RecordedPackets();
        final IngressStats stats;
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture)))
        {
            ingress.start();
            assertTrue(ingress.hardwareTimestamps(), "net_pcap stamps packets with their capture time");
            assertEquals("net_pcap", ingress.driver());
            assertEquals(2L * SEQUENCES, DpdkTests.drain(ingress, recorded, 200, 60_000));
            stats = ingress.stats();
        }

        for (final int line : new int[] { FeedLines.A, FeedLines.B })
        {
            final List<RecordedPackets.Packet> onLine = recorded.onLine(line);
            assertEquals(SEQUENCES, onLine.size());
            for (int i = 0; i < SEQUENCES; i++)
            {
                assertArrayEquals(payloads.get(i), onLine.get(i).payload(), "line " + line + " packet " + i);
                final long captured = times.get(i) + (line == FeedLines.B ? 1234 : 0);
                assertEquals(captured / 1000 * 1000, onLine.get(i).timestampNanos(), "microseconds of the capture");
            }
        }
        final long noise = SEQUENCES / 10;
        assertEquals(SEQUENCES, stats.linePackets(FeedLines.A));
        assertEquals(SEQUENCES, stats.linePackets(FeedLines.B));
        assertEquals(payloads.stream().mapToLong(p -> p.length).sum(), stats.lineBytes(FeedLines.A));
        assertEquals(noise, stats.dropped(IngressStats.ARP));
        assertEquals(noise, stats.dropped(IngressStats.NOT_IPV4));
        assertEquals(noise, stats.dropped(IngressStats.NOT_UDP));
        assertEquals(noise, stats.dropped(IngressStats.FRAGMENT));
        assertEquals(noise, stats.dropped(IngressStats.IGMP));
        assertEquals(noise, stats.port("igmpQueries"));
        assertEquals(2 * noise, stats.dropped(IngressStats.OTHER_DESTINATION));
        assertEquals(noise, stats.dropped(IngressStats.LENGTH), "IPv4 total length past the frame");
        assertEquals(0, stats.dropped(IngressStats.MALFORMED));
        assertEquals(0, stats.dropped(IngressStats.OVERSIZED));
        assertEquals(2L * SEQUENCES + 8 * noise, stats.port("frames"));
        assertEquals(2L * SEQUENCES + 8 * noise, stats.port("ipackets"));
        assertEquals(0, stats.port("imissed"));
        assertEquals(0, stats.port("rx_nombuf"));
    }

    private void writeNoise(final PcapWriter pcap, final long nanos, final UnsafeBuffer payload)
    {
        write(pcap, nanos, TestFrames.arp(frame));
        write(pcap, nanos, TestFrames.ipv6(frame));
        write(pcap, nanos, TestFrames.tcp(frame, LINE_A.address(), LINE_A.port()));
        write(pcap, nanos, TestFrames.fragment(frame, LINE_A.address(), LINE_A.port(), payload, 20));
        write(pcap, nanos, TestFrames.igmpQuery(frame, 0));
        write(pcap, nanos, TestFrames.udp(frame, 1, LINE_A.address(), LINE_A.port() + 1, payload, 0, 20));
        write(pcap, nanos, TestFrames.udp(frame, 0, LINE_B.address() + 1, LINE_B.port(), payload, 0, 20));
        write(pcap, nanos, TestFrames.truncated(frame, LINE_A.address(), LINE_A.port(), payload, 20));
    }

    @Test
    void shouldStampEachBurstOnTheGivenClockWhenHardwareTimestampsAreOff()
    {
        final Path capture = writeLineA(dir.resolve("clock.pcap"), DpdkTests.moldPackets(50, 3));
        // A time base far from the wall clock: a stamp taken on any other clock (the wall clock, a TSC calibrated
        // against it) is days away from this one.
        final MonotonicEpochClock clock = new MonotonicEpochClock(3_000_000_000_000_000_000L - System.nanoTime());
        final RecordedPackets recorded = new RecordedPackets();
        final List<long[]> polls = new ArrayList<>();
        try (DpdkIngress ingress = new DpdkIngress(
            DpdkTests.context("net_pcap0,rx_pcap=" + capture).hardwareTimestamps(false).clock(clock)))
        {
            ingress.start();
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (recorded.packets.size() < 50 && System.nanoTime() < deadline)
            {
                final int first = recorded.packets.size();
                final long before = clock.nanoTime();
                ingress.poll(recorded);
                final long after = clock.nanoTime();
                polls.add(new long[] { first, recorded.packets.size(), before, after });
            }
            assertEquals(false, ingress.hardwareTimestamps());
        }

        assertEquals(50, recorded.packets.size());
        for (final long[] poll : polls)
        {
            for (int i = (int)poll[0]; i < poll[1]; i++)
            {
                // Exactly within the poll that handed the packet over: the same clock, read in C and in Java.
                final long stamp = recorded.packets.get(i).timestampNanos();
                assertTrue(stamp >= poll[2] && stamp <= poll[3], poll[2] + " <= " + stamp + " <= " + poll[3]);
            }
        }
    }

    @Test
    void shouldHandOverABurstThatDoesNotFitTheRegionOverSeveralPollsInOrder()
    {
        final List<byte[]> payloads = DpdkTests.moldPackets(200, 11);
        final Path capture = writeLineA(dir.resolve("small.pcap"), payloads);
        final RecordedPackets recorded = new RecordedPackets();
        int mostInOnePoll = 0;
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture)
            .handOverCapacity(DpdkIngress.Context.MIN_HAND_OVER_CAPACITY)))
        {
            ingress.start();
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (recorded.packets.size() < payloads.size() && System.nanoTime() < deadline)
            {
                mostInOnePoll = Math.max(mostInOnePoll, ingress.poll(recorded));
            }
            assertEquals(0, ingress.stats().dropped(IngressStats.OVERSIZED));
        }

        assertEquals(payloads.size(), recorded.packets.size());
        for (int i = 0; i < payloads.size(); i++)
        {
            assertArrayEquals(payloads.get(i), recorded.packets.get(i).payload(), "packet " + i);
        }
        assertTrue(mostInOnePoll < RxBurstDescriptor.MAX_PACKETS, "a 2 KiB payload area holds a few packets only");
    }

    @Test
    void shouldDeliverAPayloadSpanningSeveralMbufsAndDropOneLargerThanTheRegion()
    {
        final byte[] large = new byte[3000];
        for (int i = 0; i < large.length; i++)
        {
            large[i] = (byte)(i * 31);
        }
        final Path capture = writeLineA(dir.resolve("large.pcap"), List.of(large, new byte[] { 1, 2, 3 }));

        final RecordedPackets whole = new RecordedPackets();
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture)))
        {
            ingress.start();
            DpdkTests.drain(ingress, whole, 200, 30_000);
        }
        assertEquals(2, whole.packets.size());
        assertArrayEquals(large, whole.packets.get(0).payload());

        final RecordedPackets small = new RecordedPackets();
        final IngressStats stats;
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture)
            .handOverCapacity(DpdkIngress.Context.MIN_HAND_OVER_CAPACITY)))
        {
            ingress.start();
            DpdkTests.drain(ingress, small, 200, 30_000);
            stats = ingress.stats();
        }
        assertEquals(1, small.packets.size());
        assertArrayEquals(new byte[] { 1, 2, 3 }, small.packets.get(0).payload());
        assertEquals(1, stats.dropped(IngressStats.OVERSIZED));
    }

    @Test
    void shouldPinTheReceiveThreadToItsCpuAndGiveItAnLcore()
    {
        final Path capture = writeLineA(dir.resolve("pin.pcap"), DpdkTests.moldPackets(5, 1));
        final DpdkIngress.Context context = DpdkTests.context("net_pcap0,rx_pcap=" + capture);
        try (DpdkIngress ingress = new DpdkIngress(context))
        {
            ingress.start();
            assertTrue(ingress.lcore() >= 0, "an lcore id");
            for (int i = 0; i < 100; i++)
            {
                assertEquals(context.receiveCpu(), DpdkNative.currentCpu0());
                Thread.yield();
            }
        }
    }

    @Test
    void shouldReturnNotStartedBeforeStartAndAfterCloseAndKeepTheLastCounters()
    {
        final Path capture = writeLineA(dir.resolve("life.pcap"), DpdkTests.moldPackets(20, 5));
        final DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture));
        final RecordedPackets recorded = new RecordedPackets();
        assertEquals(DpdkIngress.NOT_STARTED, ingress.poll(recorded));
        ingress.start();
        DpdkTests.drain(ingress, recorded, 200, 30_000);
        ingress.close();
        ingress.close();

        assertEquals(DpdkIngress.NOT_STARTED, ingress.poll(recorded));
        assertEquals(20, ingress.stats().linePackets(FeedLines.A));
        assertThrows(IllegalStateException.class, ingress::start);
    }

    @Test
    void shouldRefuseACaptureThatDoesNotExistQuotingDpdk()
    {
        final Path missing = dir.resolve("missing.pcap");
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + missing)))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class, ingress::start);
            assertTrue(ex.getMessage().contains("DPDK port 'net_pcap0' did not open"), ex.getMessage());
            assertTrue(ex.getMessage().contains(missing.toString()), ex.getMessage());
        }
    }

    @Test
    void shouldRefuseASecondIngressOnAPortThatIsOpen()
    {
        final Path capture = writeLineA(dir.resolve("busy.pcap"), DpdkTests.moldPackets(5, 5));
        try (DpdkIngress first = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture));
            DpdkIngress second = new DpdkIngress(DpdkTests.context("net_pcap0,rx_pcap=" + capture)))
        {
            first.start();
            final IllegalStateException ex = assertThrows(IllegalStateException.class, second::start);
            assertTrue(ex.getMessage().contains("already open"), ex.getMessage());
        }
    }

    private Path writeLineA(final Path file, final List<byte[]> payloads)
    {
        try (PcapWriter pcap = new PcapWriter(file))
        {
            long nanos = FIRST_NANOS;
            for (final byte[] bytes : payloads)
            {
                final UnsafeBuffer payload = new UnsafeBuffer(bytes);
                pcap.writeUdp(nanos, TestFrames.SOURCE_IP, TestFrames.SOURCE_PORT, LINE_A.address(), LINE_A.port(),
                    payload, 0, bytes.length);
                nanos += 1000;
            }
        }
        return file;
    }

    private void write(final PcapWriter pcap, final long nanos, final int length)
    {
        pcap.writeFrame(nanos, frame, 0, length);
    }
}
