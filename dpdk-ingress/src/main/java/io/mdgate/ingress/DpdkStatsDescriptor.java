package io.mdgate.ingress;

/**
 * Layout of the {@code long[]} the native {@code stats0} fills ({@code src/main/c/mdgate_port.h} and
 * {@code mdgate_port.c}): first the ingress's own counters (kept by the receive path), then the port's statistics
 * as DPDK reports them ({@code rte_eth_stats_get}), then the port's state.
 * <pre>
 *   0 frames | 1..3 packets per line | 4..6 payload bytes per line | 7 notIpv4 | 8 arp | 9 fragment | 10 notUdp
 *   | 11 igmp | 12 igmpQueries | 13 otherDestination | 14 malformed | 15 oversized | 16 igmpReportsSent
 *   | 17 txFailed | 18 ipChecksum | 19 udpChecksum | 20 length | 21 udpChecksumPartial (accepted)
 *   || 22 ipackets | 23 ibytes | 24 imissed | 25 ierrors | 26 rx_nombuf | 27 opackets | 28 oerrors
 *   || 29 hardware timestamps (0/1) | 30 multicast mode | 31 link up (0/1) | 32 link speed (Mbit/s) | 33 socket
 *   | 34 MAC (48 bits) | 35 port id
 * </pre>
 * Constants only; thread-safe.
 */
public final class DpdkStatsDescriptor
{
    public static final int FRAMES = 0;
    public static final int LINE_PACKETS = 1;
    public static final int LINE_BYTES = 4;
    public static final int NOT_IPV4 = 7;
    public static final int ARP = 8;
    public static final int FRAGMENT = 9;
    public static final int NOT_UDP = 10;
    public static final int IGMP = 11;
    public static final int IGMP_QUERIES = 12;
    public static final int OTHER_DESTINATION = 13;
    public static final int MALFORMED = 14;
    public static final int OVERSIZED = 15;
    public static final int IGMP_REPORTS_SENT = 16;
    public static final int TX_FAILED = 17;
    public static final int IP_CHECKSUM = 18;
    public static final int UDP_CHECKSUM = 19;
    public static final int LENGTH_MISMATCH = 20;
    public static final int UDP_CHECKSUM_PARTIAL = 21;
    public static final int IPACKETS = 22;
    public static final int IBYTES = 23;
    public static final int IMISSED = 24;
    public static final int IERRORS = 25;
    public static final int RX_NOMBUF = 26;
    public static final int OPACKETS = 27;
    public static final int OERRORS = 28;
    public static final int HW_TIMESTAMPS = 29;
    public static final int MULTICAST_MODE = 30;
    public static final int LINK_UP = 31;
    public static final int LINK_SPEED = 32;
    public static final int SOCKET = 33;
    public static final int MAC = 34;
    public static final int PORT_ID = 35;
    /** Length of the array. */
    public static final int LENGTH = 36;

    /** Multicast mode: neither all-multicast nor a multicast address list could be set. */
    public static final int MULTICAST_NONE = 0;
    /** Multicast mode: all-multicast is on. */
    public static final int MULTICAST_ALL = 1;
    /** Multicast mode: the groups' MAC addresses are the port's multicast list. */
    public static final int MULTICAST_LIST = 2;

    private DpdkStatsDescriptor()
    {
    }
}
