package io.mdgate.runtime.config;

import io.mdgate.runtime.config.GatewayConfig.Driver;
import io.mdgate.runtime.config.GatewayConfig.Port;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostTopologyTest
{
    @TempDir
    Path root;

    @Test
    void shouldReadCpusNodesSiblingsAndIsolationFromSysfs()
    {
        final HostTopology topology = FakeHost.standard(root).topology();

        assertEquals(new TreeSet<>(List.of(0, 1, 2, 3, 4, 5, 6, 7)), topology.presentCpus());
        assertEquals(new TreeSet<>(List.of(0, 1, 2, 3, 4, 5, 6)), topology.onlineCpus());
        assertTrue(topology.exists(7));
        assertFalse(topology.isOnline(7));
        assertFalse(topology.exists(8));
        assertEquals(Set.of(0, 1), topology.numaNodes().keySet());
        assertEquals(OptionalInt.of(1), topology.numaNodeOf(5));
        assertEquals(OptionalInt.empty(), topology.numaNodeOf(9));
        assertEquals(new TreeSet<>(List.of(4, 5)), topology.siblingsOf(5));
        assertEquals(new TreeSet<>(List.of(2, 3, 4, 5, 6)), topology.isolatedCpus());
        assertEquals(new TreeSet<>(List.of(2, 3, 4, 5, 6)), topology.nohzFullCpus());
    }

    @Test
    void shouldCountDeviceInterruptsPerCpuLeavingOutPerCpuSystemInterrupts()
    {
        final HostTopology topology = FakeHost.standard(root).topology();

        assertEquals(1040, topology.deviceInterrupts(0));
        assertEquals(10, topology.deviceInterrupts(1));
        assertEquals(7, topology.deviceInterrupts(2));
        assertEquals(0, topology.deviceInterrupts(3));
        assertEquals(new TreeSet<>(List.of(2)), topology.irqAffinities().get(25));
    }

    @Test
    void shouldFindTheNumaNodeOfANicByPciAddressOrInterface()
    {
        final HostTopology topology = FakeHost.standard(root).topology();

        assertEquals(OptionalInt.of(1), topology.pciNumaNode("af:00.0"));
        assertEquals(OptionalInt.of(0), topology.portNumaNode(new Port("p0", Driver.DPDK, "", "0000:3b:00.0", "", 1)));
        assertEquals(OptionalInt.of(1),
            topology.portNumaNode(new Port("p1", Driver.DPDK, "net_af_xdp0,iface=eth1", "", "", 1)));
        assertEquals(OptionalInt.of(1), topology.portNumaNode(new Port("p2", Driver.SOCKET, "", "", "eth1", 1)));
        assertEquals(OptionalInt.empty(), topology.portNumaNode(new Port("p3", Driver.SOCKET, "", "", "veth9", 1)));
    }

    @Test
    void shouldFallBackToTheKernelCommandLineAndOneNodeWhenSysfsSaysLess()
    {
        new FakeHost(root)
            .file("/sys/devices/system/cpu/online", "0-3")
            .file("/proc/cmdline", "root=/dev/vda isolcpus=managed_irq,domain,2-3 nohz_full=3");

        final HostTopology topology = HostTopology.read(root);

        assertEquals(new TreeSet<>(List.of(2, 3)), topology.isolatedCpus());
        assertEquals(new TreeSet<>(List.of(3)), topology.nohzFullCpus());
        assertEquals(Set.of(0), topology.numaNodes().keySet());
        assertEquals(OptionalInt.of(0), topology.numaNodeOf(3));
        assertEquals(new TreeSet<>(List.of(2)), topology.siblingsOf(2));
        assertEquals(0, topology.deviceInterrupts(0));
    }

    @Test
    void shouldReadAndWriteCpuLists()
    {
        assertEquals(new TreeSet<>(List.of(0, 1, 2, 5, 8, 9)), SysFs.parseCpuList("0-2,5,8-9\n"));
        assertEquals("0-2,5,8-9", SysFs.formatCpuList(SysFs.parseCpuList("8,9,0,1,2,5")));
        assertTrue(SysFs.parseCpuList("(null)").isEmpty());
    }

    @Test
    void shouldReadThisHost()
    {
        final HostTopology topology = HostTopology.local();

        assertFalse(topology.onlineCpus().isEmpty(), "this host has online CPUs");
        assertTrue(topology.numaNodeOf(topology.onlineCpus().first()).isPresent());
    }
}
