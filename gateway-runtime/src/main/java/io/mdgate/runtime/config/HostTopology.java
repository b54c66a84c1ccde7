package io.mdgate.runtime.config;

import io.mdgate.runtime.config.GatewayConfig.Driver;
import io.mdgate.runtime.config.GatewayConfig.Port;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host's CPUs as the kernel reports them in /sys and /proc: which exist and are online, their NUMA nodes and
 * hyperthread siblings, which are isolated ({@code isolcpus}) or tick-less ({@code nohz_full}), how many device
 * interrupts each has taken, and the NUMA node of a NIC. CPU facts are read once, at construction (a snapshot);
 * NIC facts are read when asked. Immutable and thread-safe.
 */
public final class HostTopology
{
    private static final Pattern IFACE = Pattern.compile("(?:^|,)iface=([^,]+)");

    private final SysFs sysFs;
    private final SortedSet<Integer> presentCpus;
    private final SortedSet<Integer> onlineCpus;
    private final SortedMap<Integer, SortedSet<Integer>> nodeCpus;
    private final Map<Integer, SortedSet<Integer>> siblings;
    private final SortedSet<Integer> isolatedCpus;
    private final SortedSet<Integer> nohzFullCpus;
    private final SortedMap<Integer, Long> deviceInterrupts;
    private final String kernelCommandLine;

    private HostTopology(final SysFs sysFs)
    {
        this.sysFs = sysFs;
        this.kernelCommandLine = sysFs.read("/proc/cmdline").orElse("");
        this.onlineCpus = Collections.unmodifiableSortedSet(sysFs.readCpuList("/sys/devices/system/cpu/online"));
        final SortedSet<Integer> present = sysFs.readCpuList("/sys/devices/system/cpu/present");
        present.addAll(onlineCpus);
        this.presentCpus = Collections.unmodifiableSortedSet(present);
        this.nodeCpus = Collections.unmodifiableSortedMap(readNodes(sysFs));
        this.siblings = readSiblings(sysFs, presentCpus);
        this.isolatedCpus = Collections.unmodifiableSortedSet(
            fileOrCommandLine(sysFs, "/sys/devices/system/cpu/isolated", "isolcpus"));
        this.nohzFullCpus = Collections.unmodifiableSortedSet(
            fileOrCommandLine(sysFs, "/sys/devices/system/cpu/nohz_full", "nohz_full"));
        this.deviceInterrupts = Collections.unmodifiableSortedMap(readInterrupts(sysFs));
    }

    /**
     * @return this host's topology.
     */
    public static HostTopology local()
    {
        return read(Path.of("/"));
    }

    /**
     * @param root a directory standing for {@code /}, holding {@code sys/...} and {@code proc/...} (tests).
     * @return the topology found there.
     */
    public static HostTopology read(final Path root)
    {
        return new HostTopology(new SysFs(root));
    }

    /**
     * @return the files this topology was read from.
     */
    public SysFs sysFs()
    {
        return sysFs;
    }

    /**
     * @return every CPU the host has (online or not).
     */
    public SortedSet<Integer> presentCpus()
    {
        return presentCpus;
    }

    /**
     * @return the CPUs online now.
     */
    public SortedSet<Integer> onlineCpus()
    {
        return onlineCpus;
    }

    /**
     * @param cpu a CPU number.
     * @return whether the host has it.
     */
    public boolean exists(final int cpu)
    {
        return presentCpus.contains(cpu);
    }

    /**
     * @param cpu a CPU number.
     * @return whether it is online.
     */
    public boolean isOnline(final int cpu)
    {
        return onlineCpus.contains(cpu);
    }

    /**
     * @return NUMA node to its CPUs; a host without NUMA information has node 0 with every CPU.
     */
    public SortedMap<Integer, SortedSet<Integer>> numaNodes()
    {
        return nodeCpus;
    }

    /**
     * @param cpu a CPU number.
     * @return its NUMA node, or empty when unknown.
     */
    public OptionalInt numaNodeOf(final int cpu)
    {
        for (final Map.Entry<Integer, SortedSet<Integer>> node : nodeCpus.entrySet())
        {
            if (node.getValue().contains(cpu))
            {
                return OptionalInt.of(node.getKey());
            }
        }
        return OptionalInt.empty();
    }

    /**
     * @param cpu a CPU number.
     * @return the CPUs sharing its physical core, itself included; just itself without hyperthreading.
     */
    public SortedSet<Integer> siblingsOf(final int cpu)
    {
        final SortedSet<Integer> found = siblings.get(cpu);
        if (null == found || found.isEmpty())
        {
            final SortedSet<Integer> alone = new TreeSet<>();
            alone.add(cpu);
            return Collections.unmodifiableSortedSet(alone);
        }
        return found;
    }

    /**
     * @return the CPUs isolated from the scheduler ({@code isolcpus=}).
     */
    public SortedSet<Integer> isolatedCpus()
    {
        return isolatedCpus;
    }

    /**
     * @return the CPUs without the periodic tick while busy ({@code nohz_full=}).
     */
    public SortedSet<Integer> nohzFullCpus()
    {
        return nohzFullCpus;
    }

    /**
     * @param cpu a CPU number.
     * @return the device interrupts it has taken since boot (numbered IRQs of /proc/interrupts).
     */
    public long deviceInterrupts(final int cpu)
    {
        return deviceInterrupts.getOrDefault(cpu, 0L);
    }

    /**
     * @return the kernel command line ({@code /proc/cmdline}), empty when unreadable.
     */
    public String kernelCommandLine()
    {
        return kernelCommandLine;
    }

    /**
     * @return for each numbered IRQ, the CPUs it may be delivered to ({@code /proc/irq/N/smp_affinity_list}).
     */
    public SortedMap<Integer, SortedSet<Integer>> irqAffinities()
    {
        final SortedMap<Integer, SortedSet<Integer>> affinities = new TreeMap<>();
        try (DirectoryStream<Path> irqs = Files.newDirectoryStream(sysFs.resolve("/proc/irq")))
        {
            for (final Path irq : irqs)
            {
                final String name = irq.getFileName().toString();
                if (name.chars().allMatch(Character::isDigit))
                {
                    affinities.put(Integer.parseInt(name),
                        sysFs.readCpuList("/proc/irq/" + name + "/smp_affinity_list"));
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            return affinities;
        }
        return affinities;
    }

    /**
     * @param interfaceName a network interface.
     * @return the NUMA node of its device, or empty when unknown (virtual interfaces, hosts without NUMA).
     */
    public OptionalInt interfaceNumaNode(final String interfaceName)
    {
        if (interfaceName.isEmpty() || interfaceName.contains("/"))
        {
            return OptionalInt.empty();
        }
        return node(sysFs.readLong("/sys/class/net/" + interfaceName + "/device/numa_node"));
    }

    /**
     * @param pci a PCI address, with or without its domain.
     * @return the device's NUMA node, or empty when unknown.
     */
    public OptionalInt pciNumaNode(final String pci)
    {
        if (pci.isEmpty() || pci.contains("/"))
        {
            return OptionalInt.empty();
        }
        final String full = pci.indexOf(':') == pci.lastIndexOf(':') ? "0000:" + pci : pci;
        return node(sysFs.readLong("/sys/bus/pci/devices/" + full.toLowerCase(java.util.Locale.ROOT) + "/numa_node"));
    }

    /**
     * @param port a configured port.
     * @return the NUMA node of its NIC (by PCI address, or the interface of a socket port or of an
     *         {@code iface=} vdev), or empty when unknown.
     */
    public OptionalInt portNumaNode(final Port port)
    {
        if (Driver.SOCKET == port.driver())
        {
            return interfaceNumaNode(port.interfaceName());
        }
        if (!port.pci().isEmpty())
        {
            return pciNumaNode(port.pci());
        }
        return vdevInterface(port.vdev()).map(this::interfaceNumaNode).orElse(OptionalInt.empty());
    }

    /**
     * @param vdev a DPDK vdev such as {@code net_af_packet0,iface=veth-a}.
     * @return its {@code iface=} interface, if it names one.
     */
    public static Optional<String> vdevInterface(final String vdev)
    {
        final Matcher matcher = IFACE.matcher(vdev);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    private static OptionalInt node(final OptionalLong value)
    {
        return value.isPresent() && value.getAsLong() >= 0 ? OptionalInt.of((int)value.getAsLong()) :
            OptionalInt.empty();
    }

    private static SortedMap<Integer, SortedSet<Integer>> readNodes(final SysFs sysFs)
    {
        final SortedMap<Integer, SortedSet<Integer>> nodes = new TreeMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(sysFs.resolve("/sys/devices/system/node"), "node*"))
        {
            for (final Path dir : dirs)
            {
                final String id = dir.getFileName().toString().substring("node".length());
                if (!id.isEmpty() && id.chars().allMatch(Character::isDigit))
                {
                    nodes.put(Integer.parseInt(id), Collections.unmodifiableSortedSet(
                        sysFs.readCpuList("/sys/devices/system/node/node" + id + "/cpulist")));
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            nodes.clear();
        }
        if (nodes.isEmpty())
        {
            final SortedSet<Integer> all = sysFs.readCpuList("/sys/devices/system/cpu/present");
            all.addAll(sysFs.readCpuList("/sys/devices/system/cpu/online"));
            nodes.put(0, Collections.unmodifiableSortedSet(all));
        }
        return nodes;
    }

    private static Map<Integer, SortedSet<Integer>> readSiblings(final SysFs sysFs, final SortedSet<Integer> cpus)
    {
        final Map<Integer, SortedSet<Integer>> siblings = new HashMap<>();
        for (final int cpu : cpus)
        {
            final SortedSet<Integer> list =
                sysFs.readCpuList("/sys/devices/system/cpu/cpu" + cpu + "/topology/thread_siblings_list");
            if (list.isEmpty())
            {
                list.addAll(sysFs.readCpuList("/sys/devices/system/cpu/cpu" + cpu + "/topology/core_cpus_list"));
            }
            list.add(cpu);
            siblings.put(cpu, Collections.unmodifiableSortedSet(list));
        }
        return siblings;
    }

    private static SortedSet<Integer> fileOrCommandLine(final SysFs sysFs, final String file, final String parameter)
    {
        final Optional<String> text = sysFs.read(file);
        if (text.isPresent())
        {
            return SysFs.parseCpuList(text.get());
        }
        for (final String word : sysFs.read("/proc/cmdline").orElse("").split("\\s+"))
        {
            if (word.startsWith(parameter + "="))
            {
                return SysFs.parseCpuList(word.substring(parameter.length() + 1));
            }
        }
        return new TreeSet<>();
    }

    private static SortedMap<Integer, Long> readInterrupts(final SysFs sysFs)
    {
        final SortedMap<Integer, Long> counts = new TreeMap<>();
        final String[] rows = sysFs.read("/proc/interrupts").orElse("").split("\n");
        if (rows.length < 2)
        {
            return counts;
        }
        final String[] header = rows[0].trim().split("\\s+");
        final int[] cpuOfColumn = new int[header.length];
        for (int i = 0; i < header.length; i++)
        {
            cpuOfColumn[i] = header[i].startsWith("CPU") ? Integer.parseInt(header[i].substring(3)) : -1;
        }
        for (int r = 1; r < rows.length; r++)
        {
            final String[] fields = rows[r].trim().split("\\s+");
            if (fields.length < 2 || !fields[0].endsWith(":") ||
                !fields[0].substring(0, fields[0].length() - 1).chars().allMatch(Character::isDigit))
            {
                continue;
            }
            for (int c = 0; c < cpuOfColumn.length && c + 1 < fields.length; c++)
            {
                if (!fields[c + 1].chars().allMatch(Character::isDigit) || fields[c + 1].isEmpty())
                {
                    break;
                }
                counts.merge(cpuOfColumn[c], Long.parseLong(fields[c + 1]), Long::sum);
            }
        }
        return counts;
    }
}
