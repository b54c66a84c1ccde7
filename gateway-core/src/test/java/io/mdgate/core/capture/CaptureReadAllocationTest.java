package io.mdgate.core.capture;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static io.mdgate.core.capture.CaptureFixtures.GROUP_A;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_B;
import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CaptureReadAllocationTest
{
    private static final int PACKETS = 20_000;
    private static final int PER_PACKET = 4;

    @TempDir
    Path dir;

    /** Both lines; line A loses every 50th packet and line B is one packet late, so holes are filled by B. */
    private static byte[] capture()
    {
        final CaptureFixtures.Pcap pcap = new CaptureFixtures.Pcap();
        byte[] late = null;
        for (int i = 0; i < PACKETS; i++)
        {
            final byte[] packet = moldPacketOfAdds(SESSION, 1 + (long)i * PER_PACKET, PER_PACKET);
            if (i % 50 != 7)
            {
                pcap.udp(GROUP_A, packet);
            }
            if (late != null)
            {
                pcap.udp(GROUP_B, late);
            }
            late = packet;
        }
        return pcap.udp(GROUP_B, late).toBytes();
    }

    @ParameterizedTest(name = "gzip: {0}")
    @ValueSource(booleans = { false, true })
    void shouldNotAllocatePerRecordWhileReadingAndArbitratingACapture(final boolean gzip) throws IOException
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter unavailable");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        final byte[] content = capture();
        final Path file = CaptureFixtures.write(dir, "c.pcap", gzip ? CaptureFixtures.gzip(content) : content);

        long allocated = -1;
        for (int pass = 0; pass < 4; pass++)
        {
            final MessageTally tally = new MessageTally();
            final CaptureFeed feed = new CaptureFeed(new FeedSession.Context()
                .messageHandler(tally).gapHandler((first, count) -> {}).gapWaitNanos(2_000_000L));
            final MoldUdp64LineSelector selector = new MoldUdp64LineSelector(feed,
                new UdpEndpoint(GROUP_A, CaptureFixtures.PORT), new UdpEndpoint(GROUP_B, CaptureFixtures.PORT), null, 0);
            final UdpFrameDissector dissector = new UdpFrameDissector();
            final PcapReader reader = new PcapReader();
            try (CaptureInput input = CaptureInput.open(file, CaptureInput.MIN_CAPACITY))
            {
                final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                reader.read(input, dissector, selector);
                feed.finish();
                allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            }
            assertEquals((long)PACKETS * PER_PACKET, tally.messages());
            assertEquals(0, feed.gaps());
            assertEquals(PACKETS / 50, feed.session().gapsFilledByOtherLine(FeedLines.A));
        }
        if (gzip)
        {
            // GZIPInputStream allocates a few objects once, at the end of the stream, to look for another member.
            assertTrue(allocated < 1024, allocated + " bytes allocated while reading " + PACKETS * 2 + " records");
        }
        else
        {
            assertEquals(0, allocated, "bytes allocated while reading " + PACKETS * 2 + " records");
        }
    }
}
