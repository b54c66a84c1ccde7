package io.mdgate.ingress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DpdkIngressContextTest
{
    @TempDir
    Path dir;

    private static DpdkIngress.Context valid()
    {
        return new DpdkIngress.Context().device("net_ring0").lines(DpdkTests.lines()).lcores("1");
    }

    @Test
    void shouldAcceptTheDefaultsAndNameThePortAfterTheDevice()
    {
        final DpdkIngress.Context context = valid().device("net_af_packet0,iface=eth1,framecnt=16384").conclude();

        assertEquals("net_af_packet0", context.deviceName());
        assertEquals(1, context.receiveCpu());
        assertEquals(8191, context.mbufs());
        assertTrue(context.hardwareTimestamps());
        assertTrue(context.igmp());
    }

    @Test
    void shouldPinToAnExplicitReceiveCpuOverTheFirstLcore()
    {
        assertEquals(0, valid().lcores("1-3").receiveCpu(0).conclude().receiveCpu());
    }

    @Test
    void shouldRefuseEachBadSettingSayingWhatIsAccepted()
    {
        refuses(c -> c.device(null), "no DPDK device given");
        refuses(c -> c.device("eth0"), "neither a virtual network device");
        refuses(c -> c.lines(null), "no lines given");
        refuses(c -> c.lcores("one"), "not an EAL core list");
        refuses(c -> c.lcores("(0-1)@2"), "give it explicitly");
        refuses(c -> c.memoryMegabytes(8), "memory (MB) 8 is outside 16..");
        refuses(c -> c.hugeDir(dir.resolve("absent")), "mount hugetlbfs there");
        refuses(c -> c.mbufs(1000), "mbufs 1000 is outside");
        refuses(c -> c.mbufCache(1000), "mbuf cache 1000 is outside 0..512");
        refuses(c -> c.rxDescriptors(8), "RX descriptors 8 is outside");
        refuses(c -> c.linkTimeoutMillis(-1), "link timeout (ms) -1");
        refuses(c -> c.handOverCapacity(1024), "hand-over capacity (bytes) 1024 is outside");
    }

    private static void refuses(final UnaryOperator<DpdkIngress.Context> change, final String expected)
    {
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> change.apply(valid()).conclude());
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }

    @Test
    void shouldRefuseBadSettingsAtConstructionBeforeTouchingDpdk()
    {
        assertThrows(IllegalArgumentException.class, () -> new DpdkIngress(valid().device("")));
    }

    @Test
    void shouldSayWhatAPortErrorMeansAndQuoteDpdk()
    {
        final DpdkIngress.Context context = valid().device("net_af_packet0,iface=nope").conclude();

        final String message = DpdkErrors.message("DPDK port 'net_af_packet0' did not open", -19,
            "EAL: one\nnet_af_packet: ioctl failed\n", DpdkErrors.portRemedy(-19, context, "net_pcap0"));

        assertTrue(message.startsWith("DPDK port 'net_af_packet0' did not open ("), message);
        assertTrue(message.contains(", -19): no port 'net_af_packet0' after probing " +
            "'net_af_packet0,iface=nope' (ports now: net_pcap0)"), message);
        assertTrue(message.endsWith("; DPDK said: EAL: one | net_af_packet: ioctl failed"), message);
        assertTrue(DpdkErrors.portRemedy(-100, context, "").contains("link of 'net_af_packet0' stayed down"));
        assertTrue(DpdkErrors.portRemedy(-16, context, "").contains("already open"));
    }
}
