package io.mdgate.ingress;

import io.mdgate.core.feed.FeedLines;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IngressStatsTest
{
    @Test
    void shouldSumLinesAndDropsAndKeepTheOrderCountersWereGivenIn()
    {
        final IngressStats stats = IngressStats.builder("dpdk net_ring0")
            .line(FeedLines.A, 10, 1000)
            .line(FeedLines.B, 7, 700)
            .dropped(IngressStats.OTHER_DESTINATION, 3)
            .dropped(IngressStats.ARP, 2)
            .port("ipackets", 22)
            .port("imissed", 0)
            .build();

        assertEquals(17, stats.packets());
        assertEquals(5, stats.droppedTotal());
        assertEquals(3, stats.dropped(IngressStats.OTHER_DESTINATION));
        assertEquals(0, stats.dropped(IngressStats.FRAGMENT));
        assertEquals(22, stats.port("ipackets"));
        assertEquals(0, stats.port("rx_nombuf"));
        assertEquals(700, stats.lineBytes(FeedLines.B));
        assertEquals(0, stats.linePackets(FeedLines.RECOVERY));
        assertEquals(List.of("otherDestination", "arp"), List.copyOf(stats.dropped().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> stats.port().put("x", 1L));
    }

    @Test
    void shouldWriteOneJsonObjectWithEveryLine()
    {
        final IngressStats stats = IngressStats.builder("dpdk \"x\"")
            .line(FeedLines.A, 1, 50)
            .dropped(IngressStats.IGMP, 4)
            .port("imissed", 9)
            .build();

        assertEquals("{\"source\":\"dpdk \\\"x\\\"\",\"lines\":{\"A\":{\"packets\":1,\"bytes\":50}," +
            "\"B\":{\"packets\":0,\"bytes\":0},\"RECOVERY\":{\"packets\":0,\"bytes\":0}}," +
            "\"dropped\":{\"igmp\":4},\"port\":{\"imissed\":9}}", stats.toJson());
    }
}
