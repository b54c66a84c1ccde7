package io.mdgate.ingress;

import io.mdgate.core.feed.FeedLines;

import static io.mdgate.ingress.DpdkStatsDescriptor.*;

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
            builder.line(line, values[LINE_PACKETS + line], values[LINE_BYTES + line]);
        }
        return builder
            .dropped(IngressStats.NOT_IPV4, values[NOT_IPV4])
            .dropped(IngressStats.ARP, values[ARP])
            .dropped(IngressStats.FRAGMENT, values[FRAGMENT])
            .dropped(IngressStats.NOT_UDP, values[NOT_UDP])
            .dropped(IngressStats.IGMP, values[IGMP])
            .dropped(IngressStats.OTHER_DESTINATION, values[OTHER_DESTINATION])
            .dropped(IngressStats.MALFORMED, values[MALFORMED])
            .dropped(IngressStats.OVERSIZED, values[OVERSIZED])
            .port("ipackets", values[IPACKETS])
            .port("ibytes", values[IBYTES])
            .port("imissed", values[IMISSED])
            .port("ierrors", values[IERRORS])
            .port("rx_nombuf", values[RX_NOMBUF])
            .port("opackets", values[OPACKETS])
            .port("oerrors", values[OERRORS])
            .port("frames", values[FRAMES])
            .port("igmpQueries", values[IGMP_QUERIES])
            .port("igmpReportsSent", values[IGMP_REPORTS_SENT])
            .port("txFailed", values[TX_FAILED])
            .build();
    }
}
