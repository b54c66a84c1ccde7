package io.mdgate.ingress;

import io.mdgate.core.feed.FeedLines;

/**
 * Turns the native statistics array ({@link DpdkStatsDescriptor}) into an {@link IngressStats}: the drop reasons
 * under the shared names, the port's counters under DPDK's names, then the ingress's own frame and IGMP
 * counters. Stateless.
 */
final class DpdkStats
{
    private DpdkStats()
    {
    }

    static IngressStats of(final String source, final long[] values)
    {
        final IngressStats.Builder builder = IngressStats.builder(source);
        for (int line = FeedLines.A; line <= FeedLines.RECOVERY; line++)
        {
            builder.line(line, values[DpdkStatsDescriptor.LINE_PACKETS + line],
                values[DpdkStatsDescriptor.LINE_BYTES + line]);
        }
        return builder
            .dropped(IngressStats.NOT_IPV4, values[DpdkStatsDescriptor.NOT_IPV4])
            .dropped(IngressStats.ARP, values[DpdkStatsDescriptor.ARP])
            .dropped(IngressStats.FRAGMENT, values[DpdkStatsDescriptor.FRAGMENT])
            .dropped(IngressStats.NOT_UDP, values[DpdkStatsDescriptor.NOT_UDP])
            .dropped(IngressStats.IGMP, values[DpdkStatsDescriptor.IGMP])
            .dropped(IngressStats.OTHER_DESTINATION, values[DpdkStatsDescriptor.OTHER_DESTINATION])
            .dropped(IngressStats.MALFORMED, values[DpdkStatsDescriptor.MALFORMED])
            .dropped(IngressStats.OVERSIZED, values[DpdkStatsDescriptor.OVERSIZED])
            .dropped(IngressStats.LENGTH, values[DpdkStatsDescriptor.LENGTH_MISMATCH])
            .dropped(IngressStats.IP_CHECKSUM, values[DpdkStatsDescriptor.IP_CHECKSUM])
            .dropped(IngressStats.UDP_CHECKSUM, values[DpdkStatsDescriptor.UDP_CHECKSUM])
            .port("ipackets", values[DpdkStatsDescriptor.IPACKETS])
            .port("ibytes", values[DpdkStatsDescriptor.IBYTES])
            .port("imissed", values[DpdkStatsDescriptor.IMISSED])
            .port("ierrors", values[DpdkStatsDescriptor.IERRORS])
            .port("rx_nombuf", values[DpdkStatsDescriptor.RX_NOMBUF])
            .port("opackets", values[DpdkStatsDescriptor.OPACKETS])
            .port("oerrors", values[DpdkStatsDescriptor.OERRORS])
            .port("frames", values[DpdkStatsDescriptor.FRAMES])
            .port("igmpQueries", values[DpdkStatsDescriptor.IGMP_QUERIES])
            .port("igmpReportsSent", values[DpdkStatsDescriptor.IGMP_REPORTS_SENT])
            .port("txFailed", values[DpdkStatsDescriptor.TX_FAILED])
            .port(IngressStats.UDP_CHECKSUM_PARTIAL, values[DpdkStatsDescriptor.UDP_CHECKSUM_PARTIAL])
            .build();
    }
}
