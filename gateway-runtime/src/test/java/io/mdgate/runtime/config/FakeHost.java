package io.mdgate.runtime.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Lays out the /sys and /proc files {@link HostTopology} reads under a test directory. The default host has CPUs
 * 0-7 (7 offline), NUMA node 0 = 0-3 and node 1 = 4-7, hyperthread siblings 0-1, 2-3, 4-5, 6-7, isolated and
 * nohz_full CPUs 2-6, a NIC at PCI 0000:3b:00.0 on node 0 (interface eth0) and one at 0000:af:00.0 on node 1
 * (interface eth1).
 */
public final class FakeHost
{
    private final Path root;

    public FakeHost(final Path root)
    {
        this.root = root;
    }

    public static FakeHost standard(final Path root)
    {
        final FakeHost host = new FakeHost(root);
        host.file("/sys/devices/system/cpu/present", "0-7");
        host.file("/sys/devices/system/cpu/online", "0-6");
        host.file("/sys/devices/system/cpu/isolated", "2-6");
        host.file("/sys/devices/system/cpu/nohz_full", "2-6");
        host.file("/sys/devices/system/node/node0/cpulist", "0-3");
        host.file("/sys/devices/system/node/node1/cpulist", "4-7");
        for (int cpu = 0; cpu < 8; cpu++)
        {
            final int first = cpu & ~1;
            host.file("/sys/devices/system/cpu/cpu" + cpu + "/topology/thread_siblings_list",
                first + "-" + (first + 1));
        }
        host.file("/sys/bus/pci/devices/0000:3b:00.0/numa_node", "0");
        host.file("/sys/bus/pci/devices/0000:af:00.0/numa_node", "1");
        host.file("/sys/class/net/eth0/device/numa_node", "0");
        host.file("/sys/class/net/eth1/device/numa_node", "1");
        host.file("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=2-6 nohz_full=2-6 quiet");
        host.file("/proc/interrupts", String.join("\n",
            "           CPU0       CPU1       CPU2       CPU3       CPU4       CPU5       CPU6",
            "  0:         40          0          0          0          0          0          0   IO-APIC   2-edge      timer",
            " 24:       1000         10          0          0          0          5          0   PCI-MSI 0-edge eth0-rx-0",
            " 25:          0          0          7          0          0          0          0   PCI-MSI 1-edge eth0-rx-1",
            "NMI:          1          1          1          1          1          1          1   Non-maskable interrupts",
            "LOC:      99999      99999      99999      99999      99999      99999      99999   Local timer interrupts",
            "ERR:          0"));
        host.file("/proc/irq/24/smp_affinity_list", "0-1");
        host.file("/proc/irq/25/smp_affinity_list", "2");
        return host;
    }

    public FakeHost file(final String absolute, final String content)
    {
        try
        {
            final Path path = root.resolve(absolute.substring(1));
            Files.createDirectories(path.getParent());
            Files.writeString(path, content + "\n");
            return this;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    public HostTopology topology()
    {
        return HostTopology.read(root);
    }
}
