package io.mdgate.app;

import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.capture.ReadJson;
import io.mdgate.ingress.DpdkNative;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate ingress} over {@code net_pcap}: a simulated capture replayed through the DPDK ingress and the
 * feed session reports the same messages as {@code mdgate decode} of the same file. The DPDK runs share this test
 * JVM's one EAL (EAL starts once per process; every run here uses the command's default EAL settings), each
 * hot-plugging its own device.
 */
@Tag("dpdk")
class IngressCommandTest
{
    @TempDir
    Path dir;

    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    private int run(final CommandLine command, final String... args)
    {
        out = new StringWriter();
        err = new StringWriter();
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        command.setParameterExceptionHandler(new UsageErrorHandler());
        return command.execute(args);
    }

    private int ingress(final String... args)
    {
        return run(new CommandLine(new IngressCommand()), args);
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "--loss-a=0.05", "--loss-a=0.03 --loss-b=0.03 --loss-burst=3", "--reorder=0.02" })
    void shouldReportTheSameMessageCountsAsDecodeOfTheSameCapture(final String faults) throws IOException
    {
        requireDpdk();
        final Path capture = dir.resolve("s.pcap");
        final List<String> simArgs = new ArrayList<>(List.of("--messages=20000", "--seed=5", "--pcap=" + capture));
        if (!faults.isEmpty())
        {
            simArgs.addAll(List.of(faults.split(" ")));
        }
        assertEquals(0, run(new CommandLine(new SimCommand()), simArgs.toArray(new String[0])), err::toString);
        assertEquals(0, run(new CommandLine(new DecodeCommand()), capture.toString(), "--json"), err::toString);
        final Map<String, Object> decoded = ReadJson.parseObject(out.toString().trim());

        assertEquals(0, ingress("--vdev", "net_pcap0,rx_pcap=" + capture, "--json", "--idle-ms=300"),
            err::toString);
        final Map<String, Object> received = ReadJson.parseObject(out.toString().trim());

        for (final String key : List.of("messages", "counts", "firstSequence", "lastSequence", "missingMessages",
            "malformed", "packets", "heartbeats", "endOfSession", "session"))
        {
            assertEquals(decoded.get(key), received.get(key), key + " with faults '" + faults + "'");
        }
        // decode names the first destination it sees A; compare the lines by destination.
        assertEquals(packetsByDestination(decoded), packetsByDestination(received), "packets per line");
        final Map<?, ?> ingressCounters = (Map<?, ?>)received.get("ingress");
        final Map<?, ?> port = (Map<?, ?>)ingressCounters.get("port");
        assertEquals(decoded.get("packets"), port.get("ipackets"), "every frame of the capture is a line packet");
        assertEquals(0L, port.get("imissed"));
        final Map<?, ?> feed = (Map<?, ?>)received.get("feed");
        assertEquals(decoded.get("messages"), feed.get("messagesDelivered"));
        assertTrue(received.containsKey("capture") && received.containsKey("gapRanges"), "decode's keys too");
    }

    @Test
    void shouldCountDamagedPacketsAsMalformedAndUnknownGroupsAsOtherDestinationsAndCarryOn() throws IOException
    {
        requireDpdk();
        final Path clean = dir.resolve("clean.pcap");
        assertEquals(0, run(new CommandLine(new SimCommand()), "--messages=20000", "--seed=11", "--pcap=" + clean),
            err::toString);
        assertEquals(0, run(new CommandLine(new DecodeCommand()), clean.toString(), "--json"), err::toString);
        final Map<String, Object> decoded = ReadJson.parseObject(out.toString().trim());

        // Every 40th frame of the capture is followed by one bad packet, in turn: a MoldUDP64 header cut short
        // (line A), a count whose blocks run past the datagram (line B), a valid packet with bytes after its last
        // block (oversized, line A), garbage (line B), and a packet for a group no line has.
        final Path mixed = dir.resolve("mixed.pcap");
        final byte[] file = Files.readAllBytes(clean);
        final java.nio.ByteBuffer records = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        final java.util.Random random = new java.util.Random(3);
        final int[] injected = new int[5];
        try (io.mdgate.core.capture.PcapWriter writer = new io.mdgate.core.capture.PcapWriter(mixed))
        {
            int position = 24;
            int frames = 0;
            while (position + 16 <= file.length)
            {
                final long nanos = (records.getInt(position) & 0xFFFFFFFFL) * 1_000_000_000L +
                    (records.getInt(position + 4) & 0xFFFFFFFFL);
                final int length = records.getInt(position + 8);
                final org.agrona.concurrent.UnsafeBuffer frame = new org.agrona.concurrent.UnsafeBuffer(file,
                    position + 16, length);
                writer.writeFrame(nanos, frame, 0, length);
                if (++frames % 40 == 0)
                {
                    final int kind = (frames / 40) % 5;
                    final byte[] bad = badPayload(kind, frame, random);
                    final int group = kind == 4 ? 0xE9010203 : kind % 2 == 0 ? 0xE9360C6F : 0xE931C46F;
                    writer.writeUdp(nanos + 1, 0x0A000001, 26400, group, 26477,
                        new org.agrona.concurrent.UnsafeBuffer(bad), 0, bad.length);
                    injected[kind]++;
                }
                position += 16 + length;
            }
        }

        assertEquals(0, ingress("--vdev", "net_pcap0,rx_pcap=" + mixed, "--json", "--idle-ms=300"), err::toString);
        final Map<String, Object> received = ReadJson.parseObject(out.toString().trim());

        final Map<?, ?> feed = (Map<?, ?>)received.get("feed");
        final long malformedA = (Long)((Map<?, ?>)feed.get("A")).get("malformed");
        final long malformedB = (Long)((Map<?, ?>)feed.get("B")).get("malformed");
        final Map<?, ?> dropped = (Map<?, ?>)((Map<?, ?>)received.get("ingress")).get("dropped");
        System.out.printf("bad input: injected short %d, overrun %d, oversized %d, garbage %d, unknown group %d; " +
            "malformed A %d B %d, otherDestination %s, messages %s of %s%n", injected[0], injected[1], injected[2],
            injected[3], injected[4], malformedA, malformedB, dropped.get("otherDestination"), received.get("messages"),
            decoded.get("messages"));
        assertEquals((long)injected[0] + injected[2], malformedA, "short and oversized packets on line A");
        assertEquals((long)injected[1] + injected[3], malformedB, "overrun and garbage packets on line B");
        assertEquals((long)injected[4], dropped.get("otherDestination"), "packets for an unknown group");
        assertEquals(decoded.get("messages"), received.get("messages"), "the session carried on");
        assertEquals(decoded.get("counts"), received.get("counts"));
        assertEquals(decoded.get("lastSequence"), received.get("lastSequence"));
        assertEquals(0L, feed.get("messagesLost"));
        assertEquals((long)injected[0] + injected[1] + injected[2] + injected[3], received.get("malformed"),
            "the summary's malformed packets");
    }

    /** @return a damaged MoldUDP64 payload of one kind, built from the (valid) UDP payload of a frame. */
    private static byte[] badPayload(final int kind, final org.agrona.concurrent.UnsafeBuffer frame,
        final java.util.Random random)
    {
        final int udp = 14 + 20;
        final int payloadLength = (frame.getShort(udp + 4, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF) - 8;
        final byte[] valid = new byte[payloadLength];
        frame.getBytes(udp + 8, valid);
        switch (kind)
        {
            case 0:
                return java.util.Arrays.copyOf(valid, 12);
            case 1:
            {
                final byte[] overrun = valid.clone();
                overrun[18] = 0x12;
                overrun[19] = 0x34;
                return overrun;
            }
            case 2:
                return java.util.Arrays.copyOf(valid, valid.length + 1000);
            case 3:
            {
                final byte[] garbage = new byte[200];
                random.nextBytes(garbage);
                garbage[18] = 0x23;
                garbage[19] = 0x45;
                return garbage;
            }
            default:
                return valid;
        }
    }

    @Test
    void shouldPrintTheSummaryAndTheLineAndPortCountersAsText() throws IOException
    {
        requireDpdk();
        final Path capture = dir.resolve("t.pcap");
        assertEquals(0, run(new CommandLine(new SimCommand()), "--messages=2000", "--pcap=" + capture));

        assertEquals(0, ingress("--vdev", "net_pcap0,rx_pcap=" + capture, "--idle-ms=300"), err::toString);

        final String text = out.toString();
        assertTrue(text.matches("(?s).*messages\\s+2000\\R.*"), text);
        assertTrue(text.contains("ingress        dpdk net_pcap0 (net_pcap)"), text);
        assertTrue(text.contains("  line A "), text);
        assertTrue(text.contains("imissed 0"), text);
    }

    @Test
    void shouldExitOneNamingTheDeviceWhenThePortCannotOpen()
    {
        requireDpdk();
        final Path missing = dir.resolve("absent.pcap");

        assertEquals(IngressCommand.EXIT_FAILED, ingress("--vdev", "net_pcap0,rx_pcap=" + missing, "--json"));

        assertTrue(err.toString().contains("mdgate ingress: DPDK port 'net_pcap0' did not open"), err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void shouldRefuseAPortGivenTwiceOrNotAtAll()
    {
        assertEquals(2, ingress("--json"));
        assertTrue(err.toString().contains("exactly one of --vdev DEVARGS"), err.toString());

        assertEquals(2, ingress("--vdev", "net_ring0", "--pci", "0000:03:00.0"));
        assertTrue(err.toString().contains("exactly one of --vdev DEVARGS"), err.toString());
    }

    @Test
    void shouldRefuseMalformedLinesAndSettingsSayingWhatIsExpected()
    {
        assertEquals(2, ingress("--vdev", "net_ring0", "--lines", "A=233.54.12.111"));
        assertTrue(err.toString().contains("--lines: 'A=233.54.12.111' is not a list of lines"), err.toString());

        assertEquals(2, ingress("--vdev", "eth0"));
        assertTrue(err.toString().contains("neither a virtual network device"), err.toString());

        assertEquals(2, ingress("--vdev", "net_ring0", "--no-huge", "--huge-dir", dir.toString()));
        assertTrue(err.toString().contains("not both"), err.toString());
    }

    @Test
    void shouldRefuseAfXdpOnTheInterfaceTheReRequestsGoOutOnBeforeStartingAnything() throws IOException
    {
        final String loopback = java.net.NetworkInterface.getByInetAddress(
            java.net.InetAddress.getByName("127.0.0.1")).getName();
        assertEquals(2, ingress("--vdev", "net_af_xdp0,iface=" + loopback, "--retransmit", "127.0.0.1:26400",
            "--start-wait-ms=1", "--max-seconds=1"));
        final String first = err.toString().lines().findFirst().orElse("");
        assertTrue(first.startsWith("ingress: --retransmit with --vdev net_af_xdp0,iface=" + loopback +
            ": re-requests to 127.0.0.1:26400 go out on " + loopback + ", the interface net_af_xdp0 takes with " +
            "af_xdp"), first);
        assertTrue(first.contains("receive that port with af_packet (net_af_packet0,iface=" + loopback + ")"), first);
        assertFalse(err.toString().contains("receiving"), "the ingress never started: " + err);
    }

    @Test
    void shouldDefaultToTheSimulatorsLines()
    {
        assertEquals("A=233.54.12.111:26477,B=233.49.196.111:26477", IngressCommand.DEFAULT_LINES);
    }

    private static Map<Object, Object> packetsByDestination(final Map<String, Object> json)
    {
        final Map<Object, Object> packets = new java.util.HashMap<>();
        for (final Object line : ((Map<?, ?>)json.get("lines")).values())
        {
            packets.put(((Map<?, ?>)line).get("destination"), ((Map<?, ?>)line).get("packets"));
        }
        return packets;
    }

    private static void requireDpdk()
    {
        String reason = null;
        if (!DpdkNative.isAvailable())
        {
            reason = "DPDK library unavailable: " + DpdkNative.unavailabilityCause();
        }
        else if (!isRoot())
        {
            reason = "the DPDK ingress needs root";
        }
        if (reason != null)
        {
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
    }

    private static boolean isRoot()
    {
        try
        {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            return false;
        }
    }
}
