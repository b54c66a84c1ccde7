package io.mdgate.core.capture;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Finds the UDP payload in one captured link-layer frame: Ethernet (with any number of 802.1Q / 802.1ad VLAN
 * tags), Linux cooked captures (SLL, SLL2) or raw IP, then IPv4, then UDP. Everything else is counted by kind and
 * skipped: non-IPv4 frames, IPv4 that is not UDP, IP fragments (not reassembled: a MoldUDP64 packet fits one
 * datagram), frames cut short by the capture's snapshot length, and headers that contradict themselves. Checksums
 * are not verified, since captures taken on the sending host commonly hold offloaded, unfilled checksums.
 * <p>
 * Allocation-free. Not thread-safe: one reader thread.
 */
public final class UdpFrameDissector
{
    /** The frame held a UDP datagram, handed to the handler. */
    public static final int UDP = 0;
    /** Not IPv4 (ARP, IPv6, ...). */
    public static final int NOT_IPV4 = -1;
    /** IPv4 but not UDP. */
    public static final int NOT_UDP = -2;
    /** A fragment of a larger IP datagram. */
    public static final int FRAGMENT = -3;
    /** The capture holds fewer bytes than the headers say the frame has. */
    public static final int TRUNCATED = -4;
    /** An IPv4 or UDP header whose lengths are impossible. */
    public static final int MALFORMED = -5;
    /** A link type this dissector does not read. */
    public static final int UNSUPPORTED_LINK_TYPE = -6;

    public static final int LINKTYPE_ETHERNET = 1;
    public static final int LINKTYPE_RAW = 101;
    public static final int LINKTYPE_LINUX_SLL = 113;
    public static final int LINKTYPE_IPV4 = 228;
    public static final int LINKTYPE_LINUX_SLL2 = 276;

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final int ETHERNET_HEADER_LENGTH = 14;
    private static final int ETHERTYPE_OFFSET = 12;
    private static final int VLAN_TAG_LENGTH = 4;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88A8;
    private static final int ETHERTYPE_QINQ_LEGACY = 0x9100;
    private static final int SLL_HEADER_LENGTH = 16;
    private static final int SLL_PROTOCOL_OFFSET = 14;
    private static final int SLL2_HEADER_LENGTH = 20;
    private static final int IPV4_MIN_HEADER_LENGTH = 20;
    private static final int IP_PROTOCOL_UDP = 17;
    private static final int IP_MORE_FRAGMENTS = 0x2000;
    private static final int IP_FRAGMENT_OFFSET_MASK = 0x1FFF;
    private static final int UDP_HEADER_LENGTH = 8;

    private long frames;
    private long datagrams;
    private long notIpv4;
    private long notUdp;
    private long fragments;
    private long truncated;
    private long malformed;
    private long unsupportedLinkType;
    private boolean stopped;

    /**
     * @param linkType       the capture's link type for this frame (pcap LINKTYPE_*).
     * @param timestampNanos capture time, passed on to the handler.
     * @param buffer         holding the frame.
     * @param offset         of the frame's first byte.
     * @param length         bytes captured.
     * @param handler        receives the UDP payload.
     * @return {@link #UDP} or the negative reason the frame was skipped.
     */
    public int dissect(
        final int linkType,
        final long timestampNanos,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final UdpDatagramHandler handler)
    {
        frames++;
        final int result = dissectLink(linkType, timestampNanos, buffer, offset, length, handler);
        count(result);
        return result;
    }

    private int dissectLink(
        final int linkType,
        final long timestampNanos,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final UdpDatagramHandler handler)
    {
        switch (linkType)
        {
            case LINKTYPE_ETHERNET:
                return dissectEthernet(timestampNanos, buffer, offset, length, handler);
            case LINKTYPE_RAW:
            case LINKTYPE_IPV4:
                return dissectIpv4(timestampNanos, buffer, offset, length, handler);
            case LINKTYPE_LINUX_SLL:
                return dissectCooked(SLL_HEADER_LENGTH, SLL_PROTOCOL_OFFSET, timestampNanos, buffer, offset, length, handler);
            case LINKTYPE_LINUX_SLL2:
                return dissectCooked(SLL2_HEADER_LENGTH, 0, timestampNanos, buffer, offset, length, handler);
            default:
                return UNSUPPORTED_LINK_TYPE;
        }
    }

    private int dissectEthernet(
        final long timestampNanos,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final UdpDatagramHandler handler)
    {
        int typeAt = ETHERTYPE_OFFSET;
        while (true)
        {
            if (length < typeAt + 2)
            {
                return TRUNCATED;
            }
            final int etherType = buffer.getShort(offset + typeAt, BE) & 0xFFFF;
            if (etherType != ETHERTYPE_VLAN && etherType != ETHERTYPE_QINQ && etherType != ETHERTYPE_QINQ_LEGACY)
            {
                if (etherType != ETHERTYPE_IPV4)
                {
                    return NOT_IPV4;
                }
                final int ipAt = typeAt + 2;
                return dissectIpv4(timestampNanos, buffer, offset + ipAt, length - ipAt, handler);
            }
            typeAt += VLAN_TAG_LENGTH;
        }
    }

    private int dissectCooked(
        final int headerLength,
        final int protocolOffset,
        final long timestampNanos,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final UdpDatagramHandler handler)
    {
        if (length < headerLength)
        {
            return TRUNCATED;
        }
        if ((buffer.getShort(offset + protocolOffset, BE) & 0xFFFF) != ETHERTYPE_IPV4)
        {
            return NOT_IPV4;
        }
        return dissectIpv4(timestampNanos, buffer, offset + headerLength, length - headerLength, handler);
    }

    private int dissectIpv4(
        final long timestampNanos,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final UdpDatagramHandler handler)
    {
        if (length < 1)
        {
            return TRUNCATED;
        }
        final int versionAndLength = buffer.getByte(offset) & 0xFF;
        if ((versionAndLength >>> 4) != 4)
        {
            return NOT_IPV4;
        }
        final int headerLength = (versionAndLength & 0x0F) * 4;
        if (length < IPV4_MIN_HEADER_LENGTH || length < headerLength)
        {
            return TRUNCATED;
        }
        final int totalLength = buffer.getShort(offset + 2, BE) & 0xFFFF;
        if (headerLength < IPV4_MIN_HEADER_LENGTH || totalLength < headerLength)
        {
            return MALFORMED;
        }
        final int fragment = buffer.getShort(offset + 6, BE) & 0xFFFF;
        if ((fragment & (IP_MORE_FRAGMENTS | IP_FRAGMENT_OFFSET_MASK)) != 0)
        {
            return FRAGMENT;
        }
        if ((buffer.getByte(offset + 9) & 0xFF) != IP_PROTOCOL_UDP)
        {
            return NOT_UDP;
        }
        if (length < totalLength)
        {
            return TRUNCATED;
        }
        return dissectUdp(
            timestampNanos,
            buffer.getInt(offset + 12, BE),
            buffer.getInt(offset + 16, BE),
            buffer,
            offset + headerLength,
            totalLength - headerLength,
            handler);
    }

    private static int dissectUdp(
        final long timestampNanos,
        final int sourceAddress,
        final int destinationAddress,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final UdpDatagramHandler handler)
    {
        if (length < UDP_HEADER_LENGTH)
        {
            return MALFORMED;
        }
        final int udpLength = buffer.getShort(offset + 4, BE) & 0xFFFF;
        if (udpLength < UDP_HEADER_LENGTH || udpLength > length)
        {
            return MALFORMED;
        }
        handler.onDatagram(
            timestampNanos,
            sourceAddress,
            buffer.getShort(offset, BE) & 0xFFFF,
            destinationAddress,
            buffer.getShort(offset + 2, BE) & 0xFFFF,
            buffer,
            offset + UDP_HEADER_LENGTH,
            udpLength - UDP_HEADER_LENGTH);
        return UDP;
    }

    private void count(final int result)
    {
        switch (result)
        {
            case UDP:
                datagrams++;
                break;
            case NOT_IPV4:
                notIpv4++;
                break;
            case NOT_UDP:
                notUdp++;
                break;
            case FRAGMENT:
                fragments++;
                break;
            case TRUNCATED:
                truncated++;
                break;
            case MALFORMED:
                malformed++;
                break;
            default:
                unsupportedLinkType++;
                break;
        }
    }

    /** @return frames looked at. */
    /** Asks the reader to stop after the current frame: its handler has seen all it needs (e.g. found the lines). */
    public void stop()
    {
        stopped = true;
    }

    /** @return true once {@link #stop()} was called; readers check it between records. */
    public boolean isStopped()
    {
        return stopped;
    }

    public long frames()
    {
        return frames;
    }

    /** @return UDP datagrams found and handed on. */
    public long datagrams()
    {
        return datagrams;
    }

    public long notIpv4()
    {
        return notIpv4;
    }

    public long notUdp()
    {
        return notUdp;
    }

    public long fragments()
    {
        return fragments;
    }

    /** @return frames the capture cut short (snapshot length) or that end inside their headers. */
    public long truncated()
    {
        return truncated;
    }

    /** @return frames whose IPv4 or UDP lengths are impossible. */
    public long malformed()
    {
        return malformed;
    }

    public long unsupportedLinkType()
    {
        return unsupportedLinkType;
    }
}
