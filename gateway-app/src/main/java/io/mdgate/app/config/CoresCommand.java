package io.mdgate.app.config;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.JsonOutput;
import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.HostTopology;
import io.mdgate.runtime.config.SysFs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code mdgate cores}: the host's CPUs as a core map needs them: online or not, NUMA node, hyperthread siblings,
 * isolated and tick-less CPUs, device interrupts taken, and with {@code --config} the agents mapped to each. As a
 * table or {@code --json}. Not thread-safe; one per invocation.
 */
@Command(
    name = "cores",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Show this host's CPUs: NUMA nodes, hyperthread siblings, isolated CPUs and which take IRQs.")
public final class CoresCommand implements Callable<Integer>
{

    @Spec
    CommandSpec spec;

    @Option(names = { "-c", "--config" }, paramLabel = "FILE",
        description = "Also show which agents of this configuration's core map run on each CPU.")
    Path configFile;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Option(names = "--sysfs-root", paramLabel = "DIR", hidden = true, defaultValue = "/",
        description = "Read the host's /sys and /proc under this directory (tests).")
    Path sysfsRoot;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final List<Core> cores;
        try
        {
            cores = null == configFile ? List.of() : ConfigLoader.load(configFile).cores();
        }
        catch (final ConfigException ex)
        {
            spec.commandLine().getErr().println("mdgate cores: " + ex.getMessage());
            return 2;
        }
        final HostTopology topology = HostTopology.read(sysfsRoot);
        if (topology.presentCpus().isEmpty())
        {
            spec.commandLine().getErr().println("mdgate cores: no CPUs found in " +
                topology.sysFs().resolve("/sys/devices/system/cpu") + "; is /sys mounted?");
            return 1;
        }
        if (json)
        {
            out.println(JsonOutput.line(toJson(topology, cores)));
        }
        else
        {
            printTable(out, topology, cores);
        }
        out.flush();
        return 0;
    }

    private void printTable(final PrintWriter out, final HostTopology topology, final List<Core> cores)
    {
        out.println("CPUs " + SysFs.formatCpuList(topology.onlineCpus()) + " online of " +
            SysFs.formatCpuList(topology.presentCpus()) + "; NUMA nodes: " + topology.numaNodes().entrySet().stream()
            .map((e) -> e.getKey() + " (" + SysFs.formatCpuList(e.getValue()) + ")").collect(Collectors.joining(", ")));
        out.println(String.format("  %4s  %-6s  %4s  %-8s  %-8s  %-9s  %12s%s", "cpu", "online", "node", "siblings",
            "isolated", "nohz_full", "device irqs", null == configFile ? "" : "  agents"));
        for (final int cpu : topology.presentCpus())
        {
            final OptionalInt node = topology.numaNodeOf(cpu);
            out.println(String.format("  %4d  %-6s  %4s  %-8s  %-8s  %-9s  %12d%s", cpu,
                yesNo(topology.isOnline(cpu)), node.isPresent() ? Integer.toString(node.getAsInt()) : "?",
                SysFs.formatCpuList(topology.siblingsOf(cpu)), yesNo(topology.isolatedCpus().contains(cpu)),
                yesNo(topology.nohzFullCpus().contains(cpu)), topology.deviceInterrupts(cpu),
                null == configFile ? "" : "  " + agentsOn(cores, cpu)));
        }
        if (topology.isolatedCpus().isEmpty())
        {
            out.println("no CPU is isolated: busy-spinning agents share their CPUs with every other task; isolate " +
                "the CPUs of the core map with isolcpus= and nohz_full= on the kernel command line " +
                "(deploy/tune-host.sh reports what to set)");
        }
        else
        {
            final List<Integer> interrupted = new ArrayList<>();
            for (final int cpu : topology.isolatedCpus())
            {
                if (topology.deviceInterrupts(cpu) > 0)
                {
                    interrupted.add(cpu);
                }
            }
            if (!interrupted.isEmpty())
            {
                out.println("isolated CPUs that took device interrupts: " + interrupted + "; move IRQ affinity away " +
                    "from them (deploy/tune-host.sh --apply)");
            }
        }
    }

    private ObjectNode toJson(final HostTopology topology, final List<Core> cores)
    {
        final ObjectNode root = JsonOutput.object();
        root.set("online", ints(topology.onlineCpus()));
        root.set("isolated", ints(topology.isolatedCpus()));
        root.set("nohzFull", ints(topology.nohzFullCpus()));
        final ObjectNode nodes = root.putObject("numaNodes");
        for (final Map.Entry<Integer, SortedSet<Integer>> node : topology.numaNodes().entrySet())
        {
            nodes.set(Integer.toString(node.getKey()), ints(node.getValue()));
        }
        final ArrayNode cpus = root.putArray("cpus");
        for (final int cpu : topology.presentCpus())
        {
            final ObjectNode entry = cpus.addObject();
            entry.put("cpu", cpu);
            entry.put("online", topology.isOnline(cpu));
            final OptionalInt node = topology.numaNodeOf(cpu);
            if (node.isPresent())
            {
                entry.put("node", node.getAsInt());
            }
            entry.set("siblings", ints(topology.siblingsOf(cpu)));
            entry.put("isolated", topology.isolatedCpus().contains(cpu));
            entry.put("nohzFull", topology.nohzFullCpus().contains(cpu));
            entry.put("deviceInterrupts", topology.deviceInterrupts(cpu));
            if (null != configFile)
            {
                final ArrayNode agents = entry.putArray("agents");
                cores.stream().filter((c) -> c.cpu() == cpu).flatMap((c) -> c.agents().stream())
                    .forEach((a) -> agents.add(a.toString()));
            }
        }
        return root;
    }

    private static ArrayNode ints(final SortedSet<Integer> values)
    {
        final ArrayNode array = JsonOutput.array();
        values.forEach(array::add);
        return array;
    }

    private static String agentsOn(final List<Core> cores, final int cpu)
    {
        final String agents = cores.stream().filter((c) -> c.cpu() == cpu).flatMap((c) -> c.agents().stream())
            .map(AgentRef::toString).collect(Collectors.joining(", "));
        return agents.isEmpty() ? "-" : agents;
    }

    private static String yesNo(final boolean value)
    {
        return value ? "yes" : "no";
    }
}
