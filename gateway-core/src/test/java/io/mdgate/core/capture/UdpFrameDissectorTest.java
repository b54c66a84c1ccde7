package io.mdgate.core.capture;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.ETHERTYPE_ARP;
import static io.mdgate.core.capture.CaptureFixtures.ETHERTYPE_IPV4;
import static io.mdgate.core.capture.CaptureFixtures.ETHERTYPE_IPV6;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_A;
import static io.mdgate.core.capture.CaptureFixtures.PORT;
import static io.mdgate.core.capture.CaptureFixtures.PROTOCOL_TCP;
import static io.mdgate.core.capture.CaptureFixtures.PROTOCOL_UDP;
import static io.mdgate.core.capture.CaptureFixtures.SOURCE;
import static io.mdgate.core.capture.CaptureFixtures.TPID_QINQ;
import static io.mdgate.core.capture.CaptureFixtures.TPID_VLAN;
import static io.mdgate.core.capture.CaptureFixtures.concat;
import static io.mdgate.core.capture.CaptureFixtures.cut;
import static io.mdgate.core.capture.CaptureFixtures.ethernet;
import static io.mdgate.core.capture.CaptureFixtures.ipv4;
import static io.mdgate.core.capture.CaptureFixtures.udp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UdpFrameDissectorTest
{
    private static final byte[] PAYLOAD = { 1, 2, 3, 4, 5, 6, 7 };

    private final UdpFrameDissector dissector = new UdpFrameDissector();
    private final List<String> seen = new ArrayList<>();
    private byte[] lastPayload;

    private final UdpDatagramHandler handler = (time, src, srcPort, dst, dstPort, buffer, offset, length) ->
    {
        seen.add(new UdpEndpoint(src, srcPort) + ">" + new UdpEndpoint(dst, dstPort) + "@" + time);
        lastPayload = new byte[length];
        buffer.getBytes(offset, lastPayload);
    };

    private int dissect(final int linkType, final byte[] frame)
    {
        final byte[] padded = concat(new byte[3], frame);
        final DirectBuffer buffer = new UnsafeBuffer(padded);
        return dissector.dissect(linkType, 77, buffer, 3, frame.length, handler);
    }

    private static byte[] ipUdp(final int fragment)
    {
        return ipv4(SOURCE, GROUP_A, PROTOCOL_UDP, fragment, udp(40000, PORT, PAYLOAD));
    }

    @Test
    void shouldFindTheUdpPayloadAndAddressesInAnEthernetFrame()
    {
        assertEquals(UdpFrameDissector.UDP, dissect(1, ethernet(ETHERTYPE_IPV4, ipUdp(0))));
        assertEquals(List.of("10.0.0.1:40000>233.54.12.111:26477@77"), seen);
        assertArrayEquals(PAYLOAD, lastPayload);
        assertEquals(1, dissector.datagrams());
    }

    @Test
    void shouldLookThroughOneOrTwoVlanTags()
    {
        assertEquals(UdpFrameDissector.UDP, dissect(1, ethernet(ETHERTYPE_IPV4, ipUdp(0), TPID_VLAN)));
        assertEquals(UdpFrameDissector.UDP, dissect(1, ethernet(ETHERTYPE_IPV4, ipUdp(0), TPID_QINQ, TPID_VLAN)));
        assertEquals(2, seen.size());
        assertArrayEquals(PAYLOAD, lastPayload);
    }

    @Test
    void shouldIgnoreEthernetPaddingAfterTheIpDatagram()
    {
        assertEquals(UdpFrameDissector.UDP, dissect(1, concat(ethernet(ETHERTYPE_IPV4, ipUdp(0)), new byte[20])));
        assertArrayEquals(PAYLOAD, lastPayload);
    }

    @Test
    void shouldCountAndSkipFramesThatAreNotIpv4()
    {
        assertEquals(UdpFrameDissector.NOT_IPV4, dissect(1, ethernet(ETHERTYPE_ARP, new byte[28])));
        assertEquals(UdpFrameDissector.NOT_IPV4, dissect(1, ethernet(ETHERTYPE_IPV6, new byte[60], TPID_VLAN)));
        assertEquals(2, dissector.notIpv4());
        assertTrue(seen.isEmpty());
    }

    @Test
    void shouldCountAndSkipIpv4ThatIsNotUdp()
    {
        assertEquals(UdpFrameDissector.NOT_UDP, dissect(1, ethernet(ETHERTYPE_IPV4,
            ipv4(SOURCE, GROUP_A, PROTOCOL_TCP, 0, new byte[20]))));
        assertEquals(1, dissector.notUdp());
        assertTrue(seen.isEmpty());
    }

    @Test
    void shouldCountAndSkipEveryIpFragment()
    {
        assertEquals(UdpFrameDissector.FRAGMENT, dissect(1, ethernet(ETHERTYPE_IPV4, ipUdp(0x2000))));
        assertEquals(UdpFrameDissector.FRAGMENT, dissect(1, ethernet(ETHERTYPE_IPV4, ipUdp(0x00B9))));
        assertEquals(UdpFrameDissector.UDP, dissect(1, ethernet(ETHERTYPE_IPV4, ipUdp(0x4000))));
        assertEquals(2, dissector.fragments());
        assertEquals(1, seen.size());
    }

    @Test
    void shouldCountAFrameCutShortByTheSnapshotLength()
    {
        assertEquals(UdpFrameDissector.TRUNCATED, dissect(1, cut(ethernet(ETHERTYPE_IPV4, ipUdp(0)), 3)));
        assertEquals(UdpFrameDissector.TRUNCATED, dissect(1, new byte[10]));
        assertEquals(2, dissector.truncated());
        assertTrue(seen.isEmpty());
    }

    @Test
    void shouldCountAUdpLengthLongerThanItsDatagramAsMalformed()
    {
        final byte[] frame = ethernet(ETHERTYPE_IPV4, ipUdp(0));
        new UnsafeBuffer(frame).putShort(14 + 20 + 4, (short)200, ByteOrder.BIG_ENDIAN);
        assertEquals(UdpFrameDissector.MALFORMED, dissect(1, frame));
        assertEquals(1, dissector.malformed());
    }

    @Test
    void shouldReadRawIpAndLinuxCookedCaptures()
    {
        assertEquals(UdpFrameDissector.UDP, dissect(UdpFrameDissector.LINKTYPE_RAW, ipUdp(0)));
        final byte[] sll = new ByteWriter(ByteOrder.BIG_ENDIAN).u16(0).u16(1).u16(6).bytes(new byte[8])
            .u16(ETHERTYPE_IPV4).bytes(ipUdp(0)).toBytes();
        assertEquals(UdpFrameDissector.UDP, dissect(UdpFrameDissector.LINKTYPE_LINUX_SLL, sll));
        final byte[] sll2 = new ByteWriter(ByteOrder.BIG_ENDIAN).u16(ETHERTYPE_IPV4).u16(0).u32(2).u16(1).u8(0)
            .u8(6).bytes(new byte[8]).bytes(ipUdp(0)).toBytes();
        assertEquals(UdpFrameDissector.UDP, dissect(UdpFrameDissector.LINKTYPE_LINUX_SLL2, sll2));
        assertEquals(3, seen.size());
    }

    @Test
    void shouldCountFramesOfALinkTypeItDoesNotRead()
    {
        assertEquals(UdpFrameDissector.UNSUPPORTED_LINK_TYPE, dissect(105, ipUdp(0)));
        assertEquals(1, dissector.unsupportedLinkType());
        assertEquals(1, dissector.frames());
    }
}
