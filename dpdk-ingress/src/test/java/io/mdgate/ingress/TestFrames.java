package io.mdgate.ingress;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Builds Ethernet frames for the ingress tests: feed datagrams with 0, 1 or 2 VLAN tags (UDP checksum 0, none, unless
 * {@link #udpChecksum} fills it in), and the traffic the ingress must count and drop (ARP, IPv6, TCP, IPv4
 * fragments, IGMP queries, cut-short frames). Stateless.
 */
final class TestFrames
{
    static final int ETHERNET = 14;
    static final int IPV4 = 20;
    static final int UDP = 8;
    static final int SOURCE_IP = 0x0A000001;
    static final int SOURCE_PORT = 26400;

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private TestFrames()
    {
    }

    /** @return the length of an Ethernet/[VLAN]/IPv4/UDP frame carrying the payload, written at 0. */
    static int udp(final MutableDirectBuffer frame, final int vlanTags, final int dstIp, final int dstPort,
        final DirectBuffer payload, final int offset, final int length)
    {
        final int ip = ethernet(frame, dstIp, vlanTags, 0x0800);
        ipv4(frame, ip, dstIp, 17, UDP + length, 0);
        final int udp = ip + IPV4;
        frame.putShort(udp, (short)SOURCE_PORT, BE);
        frame.putShort(udp + 2, (short)dstPort, BE);
        frame.putShort(udp + 4, (short)(UDP + length), BE);
        frame.putShort(udp + 6, (short)0, BE);
        frame.putBytes(udp + UDP, payload, offset, length);
        return udp + UDP + length;
    }

    /** @return the length of a UDP frame that is the first fragment of a larger datagram. */
    static int fragment(final MutableDirectBuffer frame, final int dstIp, final int dstPort, final DirectBuffer payload,
        final int length)
    {
        final int end = udp(frame, 0, dstIp, dstPort, payload, 0, length);
        frame.putShort(ETHERNET + 6, (short)0x2000, BE);
        ipChecksum(frame, ETHERNET);
        return end;
    }

    /** @return the length of an IPv4/TCP frame to the destination (a header only). */
    static int tcp(final MutableDirectBuffer frame, final int dstIp, final int dstPort)
    {
        final int ip = ethernet(frame, dstIp, 0, 0x0800);
        ipv4(frame, ip, dstIp, 6, 20, 0);
        frame.setMemory(ip + IPV4, 20, (byte)0);
        frame.putShort(ip + IPV4 + 2, (short)dstPort, BE);
        return ip + IPV4 + 20;
    }

    /** @return the length of an ARP request. */
    static int arp(final MutableDirectBuffer frame)
    {
        final int arp = ethernet(frame, -1, 0, 0x0806);
        frame.setMemory(arp, 28, (byte)0);
        frame.putShort(arp, (short)1, BE);
        frame.putShort(arp + 2, (short)0x0800, BE);
        frame.putByte(arp + 4, (byte)6);
        frame.putByte(arp + 5, (byte)4);
        frame.putShort(arp + 6, (short)1, BE);
        frame.putInt(arp + 14, SOURCE_IP, BE);
        frame.putInt(arp + 24, SOURCE_IP + 1, BE);
        return arp + 28;
    }

    /** @return the length of an IPv6 frame (an empty UDP datagram over IPv6). */
    static int ipv6(final MutableDirectBuffer frame)
    {
        final int ip = ethernet(frame, -1, 0, 0x86DD);
        frame.setMemory(ip, 48, (byte)0);
        frame.putByte(ip, (byte)0x60);
        frame.putShort(ip + 4, (short)8, BE);
        frame.putByte(ip + 6, (byte)17);
        frame.putByte(ip + 7, (byte)64);
        return ip + 48;
    }

    /** @return the length of an IGMPv3 membership query for group (0 for a general query to 224.0.0.1). */
    static int igmpQuery(final MutableDirectBuffer frame, final int group)
    {
        final int dst = group == 0 ? 0xE0000001 : group;
        final int ip = ethernet(frame, dst, 0, 0x0800);
        ipv4(frame, ip, dst, 2, 12, 1);
        final int igmp = ip + IPV4;
        frame.setMemory(igmp, 12, (byte)0);
        frame.putByte(igmp, (byte)0x11);
        frame.putByte(igmp + 1, (byte)100);
        frame.putInt(igmp + 4, group, BE);
        frame.putByte(igmp + 8, (byte)2);
        frame.putByte(igmp + 9, (byte)125);
        frame.putShort(igmp + 2, (short)checksum(frame, igmp, 12), BE);
        return igmp + 12;
    }

    /** @return the length of a frame whose IPv4 header says it is longer than the frame. */
    static int truncated(final MutableDirectBuffer frame, final int dstIp, final int dstPort,
        final DirectBuffer payload, final int length)
    {
        udp(frame, 0, dstIp, dstPort, payload, 0, length);
        return ETHERNET + IPV4 + UDP + length / 2;
    }

    private static int ethernet(final MutableDirectBuffer frame, final int dstIp, final int vlanTags, final int type)
    {
        if ((dstIp >>> 28) == 0xE)
        {
            frame.putInt(0, 0x01005E00 | ((dstIp >>> 16) & 0x7F), BE);
            frame.putShort(4, (short)dstIp, BE);
        }
        else
        {
            frame.setMemory(0, 6, (byte)0xFF);
        }
        frame.putShort(6, (short)0x0200, BE);
        frame.putInt(8, SOURCE_IP, BE);
        int at = 12;
        for (int tag = 0; tag < vlanTags; tag++)
        {
            frame.putShort(at, (short)(tag == 0 && vlanTags == 2 ? 0x88A8 : 0x8100), BE);
            frame.putShort(at + 2, (short)(100 + tag), BE);
            at += 4;
        }
        frame.putShort(at, (short)type, BE);
        return at + 2;
    }

    private static void ipv4(final MutableDirectBuffer frame, final int ip, final int dstIp, final int protocol,
        final int payloadLength, final int ttl)
    {
        frame.putByte(ip, (byte)0x45);
        frame.putByte(ip + 1, (byte)0);
        frame.putShort(ip + 2, (short)(IPV4 + payloadLength), BE);
        frame.putShort(ip + 4, (short)0, BE);
        frame.putShort(ip + 6, (short)0x4000, BE);
        frame.putByte(ip + 8, (byte)(ttl == 0 ? 64 : ttl));
        frame.putByte(ip + 9, (byte)protocol);
        frame.putShort(ip + 10, (short)0, BE);
        frame.putInt(ip + 12, SOURCE_IP, BE);
        frame.putInt(ip + 16, dstIp, BE);
        frame.putShort(ip + 10, (short)checksum(frame, ip, IPV4), BE);
    }

    /** Writes the IPv4 header checksum of the header at ip again, after a change to the header. */
    static void ipChecksum(final MutableDirectBuffer frame, final int ip)
    {
        frame.putShort(ip + 10, (short)0, BE);
        frame.putShort(ip + 10, (short)checksum(frame, ip, (frame.getByte(ip) & 0x0F) * 4), BE);
    }

    /** Writes the UDP checksum of a frame {@link #udp} wrote without VLAN tags, as a sender computes it. */
    static void udpChecksum(final MutableDirectBuffer frame)
    {
        final int udp = ETHERNET + IPV4;
        final int udpLength = frame.getShort(udp + 4, BE) & 0xFFFF;
        frame.putShort(udp + 6, (short)0, BE);
        final int sum = ~checksum(frame, udp, udpLength) & 0xFFFF;
        final int checksum = ~fold(sum + pseudoHeaderSum(frame)) & 0xFFFF;
        frame.putShort(udp + 6, (short)(checksum == 0 ? 0xFFFF : checksum), BE);
    }

    /**
     * Writes, as the UDP checksum of a frame {@link #udp} wrote without VLAN tags, only the pseudo-header's sum:
     * what a sender leaves for the device to complete with checksum offload (veth hands it on like that).
     */
    static void partialUdpChecksum(final MutableDirectBuffer frame)
    {
        frame.putShort(ETHERNET + IPV4 + 6, (short)fold(pseudoHeaderSum(frame)), BE);
    }

    private static long pseudoHeaderSum(final MutableDirectBuffer frame)
    {
        final int ip = ETHERNET;
        return (frame.getShort(ip + 12, BE) & 0xFFFF) + (frame.getShort(ip + 14, BE) & 0xFFFF) +
            (frame.getShort(ip + 16, BE) & 0xFFFF) + (frame.getShort(ip + 18, BE) & 0xFFFF) + 17 +
            (frame.getShort(ip + IPV4 + 4, BE) & 0xFFFF);
    }

    private static int fold(final long value)
    {
        long sum = value;
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)sum;
    }

    /** @return the Internet checksum of a region, as an unsigned 16-bit value. */
    static int checksum(final DirectBuffer buffer, final int offset, final int length)
    {
        long sum = 0;
        for (int i = 0; i + 1 < length; i += 2)
        {
            sum += buffer.getShort(offset + i, BE) & 0xFFFF;
        }
        if ((length & 1) != 0)
        {
            sum += (buffer.getByte(offset + length - 1) & 0xFF) << 8;
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)(~sum & 0xFFFF);
    }
}
