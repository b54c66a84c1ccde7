package io.mdgate.app.config;

import io.mdgate.ingress.DpdkNative;
import io.mdgate.runtime.config.CoreMapValidator;
import io.mdgate.runtime.config.CoreMapValidator.Finding;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.GatewayConfig.Port;
import io.mdgate.runtime.config.HostTopology;
import io.mdgate.runtime.config.SysFs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The checks of {@code mdgate doctor}: what a host needs before the gateway starts (DPDK library and drivers,
 * hugepages, RDMA devices, isolated CPUs kept free of interrupts, NIC NUMA nodes, locked-memory limit, clock source,
 * CPU frequency governor) and, given a configuration, whether it and its core map are valid here. Reads /sys and
 * /proc under a root directory, so every check can be tested against a fake host. Not thread-safe; one per run.
 */
public final class HostDoctor
{
    /** Locked memory below this makes RDMA registration of the egress rings fail. */
    static final long MIN_MEMLOCK_BYTES = 64L << 20;

    private final HostTopology topology;
    private final SysFs sysFs;
    private final Optional<GatewayConfig> config;

    /**
     * @param topology the host.
     * @param config   the gateway's configuration, if one is to be checked too.
     */
    public HostDoctor(final HostTopology topology, final Optional<GatewayConfig> config)
    {
        this.topology = topology;
        this.sysFs = topology.sysFs();
        this.config = config;
    }

    /**
     * @return every check, in a fixed order.
     */
    public List<DoctorCheck> run()
    {
        final List<DoctorCheck> checks = new ArrayList<>();
        checks.add(dpdkLibrary());
        checks.add(dpdkDrivers());
        checks.addAll(hugepages());
        checks.add(rdma());
        checks.addAll(isolation());
        checks.add(irqAffinity());
        checks.add(nicNuma());
        checks.add(memlock());
        checks.add(clocksource());
        checks.add(governor());
        config.ifPresent((c) -> checks.add(coreMap(c)));
        return checks;
    }

    DoctorCheck dpdkLibrary()
    {
        if (DpdkNative.isAvailable())
        {
            return DoctorCheck.ok("dpdk-library", "libmdgate-dpdk loaded from " + DpdkNative.librarySource() + " (" +
                DpdkNative.rteVersion() + ")");
        }
        return DoctorCheck.fail("dpdk-library", "libmdgate-dpdk is not available: " +
            DpdkNative.unavailabilityCause().getMessage(), "install DPDK 22.11 (run deploy/setup.sh as root), then " +
            "rebuild; until then only socket ports work");
    }

    DoctorCheck dpdkDrivers()
    {
        final SortedSet<String> drivers = new TreeSet<>();
        for (final Path dir : pmdDirectories())
        {
            try (Stream<Path> files = Files.list(dir))
            {
                files.map((f) -> f.getFileName().toString())
                    .filter((n) -> n.startsWith("librte_net_") && n.endsWith(".so"))
                    .forEach((n) -> drivers.add(n.substring("librte_net_".length(), n.length() - ".so".length())));
            }
            catch (final IOException ex)
            {
                continue;
            }
        }
        if (drivers.isEmpty())
        {
            return DoctorCheck.fail("dpdk-drivers", "no DPDK network drivers (librte_net_*.so) under " +
                "/usr/lib/*/dpdk/pmds-*", "install DPDK's drivers (deploy/setup.sh installs the dpdk package)");
        }
        final List<String> missing = Stream.of("af_packet", "af_xdp").filter((d) -> !drivers.contains(d))
            .collect(Collectors.toList());
        final String detail = drivers.size() + (1 == drivers.size() ? " network driver" : " network drivers") +
            ", e.g. " +
            drivers.stream().filter((d) -> List.of("af_packet", "af_xdp", "pcap", "ring", "mlx5", "ice", "i40e",
            "ixgbe").contains(d)).collect(Collectors.joining(", "));
        if (!missing.isEmpty())
        {
            return DoctorCheck.warn("dpdk-drivers", detail + "; missing " + String.join(", ", missing),
                "install the full dpdk package (deploy/setup.sh); af_packet and af_xdp serve kernel interfaces");
        }
        return DoctorCheck.ok("dpdk-drivers", detail);
    }

    List<DoctorCheck> hugepages()
    {
        final List<DoctorCheck> checks = new ArrayList<>();
        final List<String> reserved = new ArrayList<>();
        long freeBytes = 0;
        try (DirectoryStream<Path> sizes =
            Files.newDirectoryStream(sysFs.resolve("/sys/kernel/mm/hugepages"), "hugepages-*"))
        {
            for (final Path size : sizes)
            {
                final String name = size.getFileName().toString();
                final String base = "/sys/kernel/mm/hugepages/" + name;
                final long total = sysFs.readLong(base + "/nr_hugepages").orElse(0);
                final long free = sysFs.readLong(base + "/free_hugepages").orElse(0);
                freeBytes += free * hugepageBytes(name);
                if (total > 0)
                {
                    reserved.add(total + " x " + name.substring("hugepages-".length()) + " (" + free + " free)");
                }
            }
        }
        catch (final IOException ex)
        {
            reserved.clear();
        }
        final long neededMiB = HugepageNeed.mebibytes(config);
        if (neededMiB > 0 && (freeBytes >> 20) < neededMiB)
        {
            checks.add(DoctorCheck.fail("hugepages", "the configuration's DPDK ports need " + neededMiB +
                " MiB of hugepages, " + (reserved.isEmpty() ? "none reserved" : (freeBytes >> 20) + " MiB free (" +
                String.join(", ", reserved) + ")"), "reserve them: echo " + ((neededMiB + 1) / 2) + " > " +
                "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages (deploy/tune-host.sh --apply), or lower " +
                "[dpdk] eal_args -m"));
        }
        else if (reserved.isEmpty())
        {
            checks.add(DoctorCheck.warn("hugepages", "none reserved; DPDK then runs with --no-huge (slower, and " +
                "hardware NICs need hugepages)", "reserve some: echo 1024 > " +
                "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages (deploy/tune-host.sh --apply)"));
        }
        else
        {
            checks.add(DoctorCheck.ok("hugepages", String.join(", ", reserved)));
        }
        final boolean mounted = sysFs.read("/proc/mounts").orElse("").lines()
            .anyMatch((l) -> l.contains(" hugetlbfs "));
        checks.add(mounted ? DoctorCheck.ok("hugetlbfs", "mounted") :
            DoctorCheck.warn("hugetlbfs", "not mounted", "mount -t hugetlbfs nodev /dev/hugepages (systemd's " +
                "dev-hugepages.mount does it at boot)"));
        return checks;
    }

    private static long hugepageBytes(final String sizeDirectory)
    {
        final String size = sizeDirectory.substring("hugepages-".length());
        return size.endsWith("kB") ? Long.parseLong(size.substring(0, size.length() - 2)) << 10 : 0;
    }

    DoctorCheck rdma()
    {
        final List<String> found = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        try (DirectoryStream<Path> devices = Files.newDirectoryStream(sysFs.resolve("/sys/class/infiniband")))
        {
            for (final Path device : devices)
            {
                final String name = device.getFileName().toString();
                try (DirectoryStream<Path> ports = Files.newDirectoryStream(device.resolve("ports")))
                {
                    for (final Path port : ports)
                    {
                        found.add(describeRdmaPort(name, port.getFileName().toString(), problems));
                    }
                }
                catch (final IOException ex)
                {
                    problems.add(name + " has no ports");
                }
            }
        }
        catch (final IOException ex)
        {
            found.clear();
        }
        if (found.isEmpty())
        {
            return DoctorCheck.warn("rdma", "no RDMA device, so the verbs egress cannot run (shm works)",
                "for Soft-RoCE: modprobe rdma_rxe; rdma link add rxe0 type rxe netdev IFACE");
        }
        if (!problems.isEmpty())
        {
            return DoctorCheck.warn("rdma", String.join("; ", found), String.join("; ", problems));
        }
        return DoctorCheck.ok("rdma", String.join("; ", found));
    }

    private String describeRdmaPort(final String device, final String port, final List<String> problems)
    {
        final String base = "/sys/class/infiniband/" + device + "/ports/" + port;
        final String state = sysFs.read(base + "/state").orElse("unknown");
        final String linkLayer = sysFs.read(base + "/link_layer").orElse("unknown");
        final String gid = sysFs.read(base + "/gids/0").orElse("none");
        final Optional<String> netdev = sysFs.read(base + "/gid_attrs/ndevs/0");
        final String mtu = netdev.flatMap((n) -> sysFs.read("/sys/class/net/" + n + "/mtu")).orElse("unknown");
        if (!state.contains("ACTIVE"))
        {
            problems.add(device + " port " + port + " is " + state + ": bring its link up (ip link set IFACE up)");
        }
        return device + " port " + port + ": " + state + ", " + linkLayer + ", GID " + gid +
            netdev.map((n) -> ", netdev " + n + " MTU " + mtu).orElse("");
    }

    List<DoctorCheck> isolation()
    {
        final List<DoctorCheck> checks = new ArrayList<>();
        final SortedSet<Integer> isolated = topology.isolatedCpus();
        final SortedSet<Integer> busy = busyCpus();
        if (isolated.isEmpty())
        {
            checks.add(DoctorCheck.warn("isolated-cpus", "no CPU is isolated; busy-spinning agents share their " +
                "CPUs with every other task", "add isolcpus=CPUS nohz_full=CPUS rcu_nocbs=CPUS for the core map's " +
                "CPUs to the kernel command line (deploy/tune-host.sh prints the line)"));
        }
        else
        {
            final SortedSet<Integer> exposed = new TreeSet<>(busy);
            exposed.removeAll(isolated);
            checks.add(exposed.isEmpty() ? DoctorCheck.ok("isolated-cpus", SysFs.formatCpuList(isolated)) :
                DoctorCheck.warn("isolated-cpus", SysFs.formatCpuList(isolated) + "; the core map busy-spins on " +
                SysFs.formatCpuList(exposed) + " too", "isolate those CPUs as well, or map the busy cores to " +
                "isolated CPUs (mdgate map)"));
        }
        final SortedSet<Integer> ticking = new TreeSet<>(isolated);
        ticking.addAll(busy);
        ticking.removeAll(topology.nohzFullCpus());
        if (ticking.isEmpty())
        {
            checks.add(DoctorCheck.ok("nohz-full", topology.nohzFullCpus().isEmpty() ? "nothing to check" :
                SysFs.formatCpuList(topology.nohzFullCpus())));
        }
        else
        {
            checks.add(DoctorCheck.warn("nohz-full", "the timer tick still interrupts CPUs " +
                SysFs.formatCpuList(ticking), "add nohz_full=" + SysFs.formatCpuList(ticking) +
                " to the kernel command line"));
        }
        return checks;
    }

    DoctorCheck irqAffinity()
    {
        final SortedSet<Integer> absent = new TreeSet<>();
        config.ifPresent((c) -> c.cores().stream().map(Core::cpu).filter((cpu) -> !topology.onlineCpus().contains(cpu))
            .forEach(absent::add));
        if (!absent.isEmpty())
        {
            return DoctorCheck.fail("irq-affinity", "the configuration maps cores to CPUs " +
                SysFs.formatCpuList(absent) + ", which this host does not have online (online: " +
                SysFs.formatCpuList(topology.onlineCpus()) + "); their interrupts cannot be checked",
                "map the cores to online CPUs (mdgate cores lists them; mdgate map --config FILE --check)");
        }
        final SortedSet<Integer> guarded = new TreeSet<>(topology.isolatedCpus());
        guarded.addAll(busyCpus());
        if (guarded.isEmpty())
        {
            return DoctorCheck.ok("irq-affinity", "no isolated or mapped busy CPUs to keep free of interrupts");
        }
        final List<Integer> reaching = new ArrayList<>();
        topology.irqAffinities().forEach((irq, cpus) ->
        {
            if (cpus.stream().anyMatch(guarded::contains) && !cpus.containsAll(topology.onlineCpus()))
            {
                reaching.add(irq);
            }
        });
        final List<Integer> taking = guarded.stream().filter((cpu) -> topology.deviceInterrupts(cpu) > 0)
            .collect(Collectors.toList());
        if (reaching.isEmpty() && taking.isEmpty())
        {
            return DoctorCheck.ok("irq-affinity", "no device interrupt goes to CPUs " + SysFs.formatCpuList(guarded));
        }
        return DoctorCheck.warn("irq-affinity", (reaching.isEmpty() ? "" : "IRQs " + reaching + " may be " +
            "delivered to CPUs " + SysFs.formatCpuList(guarded) + "; ") + (taking.isEmpty() ? "" :
            "CPUs " + taking + " have taken device interrupts"), "steer IRQs to the other CPUs " +
            "(deploy/tune-host.sh --apply writes /proc/irq/*/smp_affinity_list; stop irqbalance or ban the CPUs " +
            "with IRQBALANCE_BANNED_CPULIST)");
    }

    DoctorCheck nicNuma()
    {
        final List<String> nodes = new ArrayList<>();
        final boolean fromConfig = config.isPresent();
        if (fromConfig)
        {
            final List<String> absent = PortPresence.absent(sysFs, config.get().ports());
            if (!absent.isEmpty())
            {
                return DoctorCheck.fail("nic-numa", String.join("; ", absent), "set [[ports]] pci or interface " +
                    "to a device of this host: " + PortPresence.networkDevices(sysFs));
            }
            for (final Port port : config.get().ports())
            {
                final OptionalInt node = topology.portNumaNode(port);
                nodes.add(port.name() + " on node " + (node.isPresent() ? Integer.toString(node.getAsInt()) :
                    "unknown (virtual or single-node)"));
            }
        }
        else
        {
            try (DirectoryStream<Path> interfaces = Files.newDirectoryStream(sysFs.resolve("/sys/class/net")))
            {
                for (final Path iface : interfaces)
                {
                    final String name = iface.getFileName().toString();
                    final OptionalInt node = topology.interfaceNumaNode(name);
                    if (node.isPresent())
                    {
                        nodes.add(name + " on node " + node.getAsInt());
                    }
                }
            }
            catch (final IOException ex)
            {
                nodes.clear();
            }
        }
        if (!fromConfig)
        {
            nodes.sort(null);
        }
        if (nodes.isEmpty())
        {
            return DoctorCheck.ok("nic-numa", "no NIC reports a NUMA node (virtual NICs, or one node)");
        }
        return DoctorCheck.ok("nic-numa", String.join(", ", nodes) + "; map each port's ingress to CPUs of its " +
            "node (mdgate map checks it)");
    }

    DoctorCheck memlock()
    {
        final OptionalLong limit = memlockLimit();
        if (limit.isEmpty())
        {
            return DoctorCheck.ok("memlock", "unlimited");
        }
        final String text = limit.getAsLong() >= (1 << 20) ? (limit.getAsLong() >> 20) + " MiB" :
            (limit.getAsLong() >> 10) + " KiB";
        if (limit.getAsLong() < MIN_MEMLOCK_BYTES)
        {
            return DoctorCheck.warn("memlock", "locked-memory limit " + text + ", too low for RDMA to register the " +
                "egress rings", "raise it: ulimit -l unlimited, LimitMEMLOCK=infinity in the systemd unit, or " +
                "memlock in /etc/security/limits.conf");
        }
        return DoctorCheck.ok("memlock", "locked-memory limit " + text);
    }

    private OptionalLong memlockLimit()
    {
        for (final String line : sysFs.read("/proc/self/limits").orElse("").split("\n"))
        {
            if (line.startsWith("Max locked memory"))
            {
                final String[] fields = line.substring("Max locked memory".length()).trim().split("\\s+");
                if (fields.length > 0 && !"unlimited".equals(fields[0]))
                {
                    try
                    {
                        return OptionalLong.of(Long.parseLong(fields[0]));
                    }
                    catch (final NumberFormatException ex)
                    {
                        return OptionalLong.empty();
                    }
                }
            }
        }
        return OptionalLong.empty();
    }

    DoctorCheck clocksource()
    {
        final String source = sysFs.read("/sys/devices/system/clocksource/clocksource0/current_clocksource")
            .orElse("unknown");
        if ("tsc".equals(source))
        {
            return DoctorCheck.ok("clocksource", "tsc");
        }
        if ("kvm-clock".equals(source))
        {
            return DoctorCheck.ok("clocksource", "kvm-clock (a virtual machine; time stamps cost a little more)");
        }
        return DoctorCheck.warn("clocksource", source + ": reading the clock is slow, and mdgate time-stamps " +
            "every packet", "use the TSC: clocksource=tsc tsc=reliable on the kernel command line, or echo tsc > " +
            "/sys/devices/system/clocksource/clocksource0/current_clocksource if it is listed as available");
    }

    DoctorCheck governor()
    {
        final SortedSet<Integer> slow = new TreeSet<>();
        final SortedSet<String> governors = new TreeSet<>();
        for (final int cpu : topology.onlineCpus())
        {
            final Optional<String> governor =
                sysFs.read("/sys/devices/system/cpu/cpu" + cpu + "/cpufreq/scaling_governor");
            governor.ifPresent((g) ->
            {
                governors.add(g);
                if (!"performance".equals(g))
                {
                    slow.add(cpu);
                }
            });
        }
        if (governors.isEmpty())
        {
            return DoctorCheck.ok("cpu-governor", "no cpufreq (fixed frequency, or a virtual machine)");
        }
        if (slow.isEmpty())
        {
            return DoctorCheck.ok("cpu-governor", "performance");
        }
        return DoctorCheck.warn("cpu-governor", "CPUs " + SysFs.formatCpuList(slow) + " use " + governors +
            ", which lower the clock when idle and add wake-up latency", "set performance: deploy/tune-host.sh " +
            "--apply (or cpupower frequency-set -g performance)");
    }

    DoctorCheck coreMap(final GatewayConfig gatewayConfig)
    {
        final List<Finding> findings = CoreMapValidator.validate(gatewayConfig, topology, false);
        if (findings.isEmpty())
        {
            return DoctorCheck.ok("core-map", "valid on this host");
        }
        final String detail = findings.stream().map(Finding::toString).collect(Collectors.joining("; "));
        return CoreMapValidator.hasErrors(findings) ?
            DoctorCheck.fail("core-map", detail, "fix the map (mdgate map --config FILE shows it)") :
            DoctorCheck.warn("core-map", detail, "see mdgate map --config FILE");
    }

    private SortedSet<Integer> busyCpus()
    {
        final SortedSet<Integer> busy = new TreeSet<>();
        config.ifPresent((c) ->
        {
            for (final Core core : c.cores())
            {
                if (core.idle().busy())
                {
                    busy.add(core.cpu());
                }
            }
        });
        return busy;
    }

    private List<Path> pmdDirectories()
    {
        final List<Path> dirs = new ArrayList<>();
        final List<Path> bases = new ArrayList<>();
        bases.add(sysFs.resolve("/usr/lib/dpdk"));
        try (DirectoryStream<Path> lib = Files.newDirectoryStream(sysFs.resolve("/usr/lib")))
        {
            for (final Path entry : lib)
            {
                bases.add(entry.resolve("dpdk"));
            }
        }
        catch (final IOException ex)
        {
            return dirs;
        }
        for (final Path base : bases)
        {
            try (DirectoryStream<Path> pmds = Files.newDirectoryStream(base, "pmds-*"))
            {
                pmds.forEach(dirs::add);
            }
            catch (final IOException ex)
            {
                continue;
            }
        }
        return dirs;
    }
}
