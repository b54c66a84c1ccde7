package io.mdgate.ingress;

import io.mdgate.core.capture.PcapWriter;
import io.mdgate.core.capture.Tshark;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.mdgate.ingress.DpdkTests.LINE_A;
import static io.mdgate.ingress.DpdkTests.LINE_B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IGMPv3 membership reports, written by {@code net_pcap} to a TX capture and read back by tshark: joins at start
 * (repeated a second later), answers to queries for our groups, a leave at close; valid checksums, TTL 1, the
 * Router Alert option, sent to 224.0.0.22.
 */
@Tag("dpdk")
class DpdkIgmpTest
{
    private static final String GROUPS = LINE_A.toString().split(":")[0] + "," + LINE_B.toString().split(":")[0];
    private static final String TO_EXCLUDE = "4,4";
    private static final String IS_EXCLUDE = "2,2";
    private static final String TO_INCLUDE = "3,3";

    @TempDir
    Path dir;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[2048]);

    @BeforeEach
    void requireDpdkAndTshark()
    {
        DpdkTests.assumeDpdk();
        if (Tshark.find() == null)
        {
            System.out.println("SKIPPED: tshark is not installed (deploy/setup.sh installs it)");
            Assumptions.abort("tshark is not installed");
        }
    }

    @Test
    void shouldJoinAtStartAnswerQueriesRepeatTheJoinAndLeaveAtClose() throws Exception
    {
        final Path in = dir.resolve("in.pcap");
        try (PcapWriter pcap = new PcapWriter(in))
        {
            final UnsafeBuffer payload = new UnsafeBuffer(DpdkTests.moldPackets(1, 1).get(0));
            pcap.writeFrame(1_000, frame, 0, TestFrames.udp(frame, 0, LINE_A.address(), LINE_A.port(), payload, 0,
                payload.capacity()));
            pcap.writeFrame(2_000, frame, 0, TestFrames.igmpQuery(frame, 0));
            pcap.writeFrame(3_000, frame, 0, TestFrames.igmpQuery(frame, LINE_B.address()));
        }
        final Path out = dir.resolve("out.pcap");

        final IngressStats stats;
        try (DpdkIngress ingress = new DpdkIngress(
            DpdkTests.context("net_pcap0,rx_pcap=" + in + ",tx_pcap=" + out)))
        {
            ingress.start();
            final long repeatDue = System.nanoTime() + 1_200_000_000L;
            DpdkTests.drain(ingress, new RecordedPackets(), 200, 30_000);
            // The join is repeated a second after start, on a poll. Reading the clock before polling makes sure
            // one poll runs after that second, however long this thread is descheduled.
            boolean late = false;
            while (!late)
            {
                late = System.nanoTime() >= repeatDue;
                ingress.poll(new RecordedPackets());
            }
            stats = ingress.stats();
        }

        final List<String> reports = reports(out);
        assertTrue(reports.size() >= 4, reports.toString());
        assertEquals(report(TO_EXCLUDE), reports.get(0), "the join at start");
        assertEquals(report(IS_EXCLUDE), reports.get(1), "the answer to the queries");
        assertEquals(report(TO_EXCLUDE), reports.get(reports.size() - 2), "the join repeated a second later");
        assertEquals(report(TO_INCLUDE), reports.get(reports.size() - 1), "the leave at close");
        assertEquals(2, stats.port("igmpQueries"));
        assertEquals(reports.size() - 1, stats.port("igmpReportsSent"), "the leave is sent after the last snapshot");
        assertEquals(0, stats.port("txFailed"));
    }

    @Test
    void shouldIgnoreAQueryForAnotherGroup() throws Exception
    {
        final Path in = dir.resolve("foreign.pcap");
        try (PcapWriter pcap = new PcapWriter(in))
        {
            pcap.writeFrame(1_000, frame, 0, TestFrames.igmpQuery(frame, 0xEF010203));
        }
        final Path out = dir.resolve("foreign-out.pcap");
        try (DpdkIngress ingress = new DpdkIngress(
            DpdkTests.context("net_pcap0,rx_pcap=" + in + ",tx_pcap=" + out)))
        {
            ingress.start();
            DpdkTests.drain(ingress, new RecordedPackets(), 200, 30_000);
            assertEquals(1, ingress.stats().port("igmpQueries"));
        }

        assertEquals(List.of(report(TO_EXCLUDE), report(TO_INCLUDE)), reports(out));
    }

    @Test
    void shouldSendNoReportWhenIgmpIsOff() throws Exception
    {
        final Path in = dir.resolve("quiet.pcap");
        try (PcapWriter pcap = new PcapWriter(in))
        {
            pcap.writeFrame(1_000, frame, 0, TestFrames.igmpQuery(frame, 0));
        }
        final Path out = dir.resolve("quiet-out.pcap");
        try (DpdkIngress ingress = new DpdkIngress(
            DpdkTests.context("net_pcap0,rx_pcap=" + in + ",tx_pcap=" + out).igmp(false)))
        {
            ingress.start();
            DpdkTests.drain(ingress, new RecordedPackets(), 200, 30_000);
        }

        assertEquals(List.of(), reports(out));
    }

    /** @return per IGMP frame: version, type, record types, groups, checksums, TTL, destination, Router Alert. */
    private static List<String> reports(final Path capture) throws Exception
    {
        return Tshark.run(capture, "-o", "ip.check_checksum:TRUE", "-Y", "igmp", "-T", "fields",
            "-E", "separator=;", "-e", "igmp.version", "-e", "igmp.type", "-e", "igmp.record_type",
            "-e", "igmp.maddr", "-e", "igmp.checksum.status", "-e", "ip.checksum.status", "-e", "ip.ttl",
            "-e", "ip.dst", "-e", "ip.opt.ra", "-e", "ip.src");
    }

    private static String report(final String recordTypes)
    {
        // checksum status 1 is Good in tshark (0 Bad, 2 Unverified).
        return "3;0x22;" + recordTypes + ";" + GROUPS + ";1;1;1;224.0.0.22;0;0.0.0.0";
    }
}
