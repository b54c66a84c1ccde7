package io.mdgate.ingress;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Start-up errors of ports that cannot open: the exception names the device, the reason and what to do, and the
 * process's EAL stays usable for the next ingress. Shares the test JVM's EAL (see {@link DpdkPcapIngressTest}).
 */
@Tag("dpdk")
class DpdkStartupErrorTest
{
    @BeforeEach
    void requireDpdk()
    {
        DpdkTests.assumeDpdk();
    }

    @Test
    void shouldNameAMissingInterfaceAndLeaveEalUsable()
    {
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_af_packet7,iface=mdg-absent0")))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class, ingress::start);
            assertTrue(ex.getMessage().contains("DPDK port 'net_af_packet7' did not open"), ex.getMessage());
            assertTrue(ex.getMessage().contains("mdg-absent0"), ex.getMessage());
        }
        assertTrue(DpdkEal.isInitialised());

        try (DpdkIngress ring = new DpdkIngress(DpdkTests.context("net_ring7")))
        {
            ring.start();
            assertTrue(ring.poll(new RecordedPackets()) >= 0, "a working port after a failed one");
        }
    }

    @Test
    void shouldRefuseADeviceNoDriverKnows()
    {
        try (DpdkIngress ingress = new DpdkIngress(DpdkTests.context("net_nosuchpmd0")))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class, ingress::start);
            assertTrue(ex.getMessage().contains("DPDK port 'net_nosuchpmd0' did not open"), ex.getMessage());
        }
    }
}
