package io.mdgate.ingress;

import io.mdgate.core.feed.FeedLines;

/**
 * Turns the native statistics array ({@link DpdkStatsDescriptor}) into an {@link IngressStats}: the drop reasons
 * under the shared names, the port's counters under DPDK's names, then the ingress's own frame and IGMP
 * counters. Stateless.
 */
final class DpdkStats
{
    /** The index in the native array of each of {@link IngressStats#REASONS}, in that order. */
    private static final int[] DROPPED = {
        DpdkStatsDescriptor.NOT_IPV4, DpdkStatsDescriptor.ARP, DpdkStatsDescriptor.FRAGMENT,
        DpdkStatsDescriptor.NOT_UDP, DpdkStatsDescriptor.IGMP, DpdkStatsDescriptor.OTHER_DESTINATION,
        DpdkStatsDescriptor.MALFORMED, DpdkStatsDescriptor.OVERSIZED, DpdkStatsDescriptor.LENGTH_MISMATCH,
        DpdkStatsDescriptor.IP_CHECKSUM, DpdkStatsDescriptor.UDP_CHECKSUM };

    private DpdkStats()
    {
    }

    /** Copies the drop counters of the native array into counts, in {@link IngressStats#REASONS} order. */
    static void dropped(final long[] values, final long[] counts)
    {
        for (int i = 0; i < DROPPED.length; i++)
        {
            counts[i] = values[DROPPED[i]];
        }
    }

    static IngressStats of(final String source, final long[] values)
    {
        final IngressStats.Builder builder = IngressStats.builder(source);
        for (int line = FeedLines.A; line <= FeedLines.RECOVERY; line++)
        {
            builder.line(line, values[DpdkStatsDescriptor.LINE_PACKETS + line],
                values[DpdkStatsDescriptor.LINE_BYTES + line]);
        }
        for (int i = 0; i < DROPPED.length; i++)
        {
            builder.dropped(IngressStats.REASONS.get(i), values[DROPPED[i]]);
        }
        return builder
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
