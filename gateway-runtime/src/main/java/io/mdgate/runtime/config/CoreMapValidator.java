package io.mdgate.runtime.config;

import io.mdgate.runtime.config.GatewayConfig.AgentKind;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.GatewayConfig.Port;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks a configuration's core map against the host before anything starts: every agent placed exactly once and
 * only agents the configuration has; each core on a CPU that exists and is online; no CPU shared by a busy-spinning
 * thread and another; no two busy threads on hyperthread siblings; busy threads on isolated CPUs (a warning, an
 * error when strict); ingress agents on the NUMA node of their port's NIC. Each finding says what is wrong and what
 * would be right. Stateless and thread-safe.
 */
public final class CoreMapValidator
{
    /**
     * How bad a finding is.
     */
    public enum Severity
    {
        /** The map is refused. */
        ERROR,
        /** The map works, but not as well as it could. */
        WARNING
    }

    /**
     * What a finding is about, for programs that treat some differently (an edit in progress may leave agents
     * unplaced).
     */
    public enum Check
    {
        /** The host's CPUs could not be read. */
        HOST_UNKNOWN,
        /** There is no {@code [[cores]]} entry. */
        EMPTY_MAP,
        /** A core's CPU does not exist. */
        CPU_MISSING,
        /** A core's CPU is offline. */
        CPU_OFFLINE,
        /** A busy thread on a CPU that is not isolated. */
        NOT_ISOLATED,
        /** Several cores on one CPU. */
        SHARED_CPU,
        /** Busy threads on hyperthread siblings. */
        SIBLINGS,
        /** An ingress on another NUMA node than its port's NIC. */
        NUMA,
        /** An agent (a port's queue, or any other) mapped twice. */
        MAPPED_TWICE,
        /** An agent the configuration needs is on no core. */
        AGENT_MISSING,
        /** An agent the configuration does not have. */
        AGENT_UNKNOWN
    }

    /**
     * One problem of a core map.
     *
     * @param severity error or warning.
     * @param where    the key path, e.g. {@code cores[1].cpu}.
     * @param message  what is wrong and what would be right.
     * @param check    what it is about.
     */
    public record Finding(Severity severity, String where, String message, Check check)
    {
        @Override
        public String toString()
        {
            return (Severity.ERROR == severity ? "error: " : "warning: ") + where + ": " + message;
        }
    }

    private CoreMapValidator()
    {
    }

    /**
     * @param config   the configuration whose core map is checked.
     * @param topology the host's CPUs and NICs.
     * @param strict   whether a busy thread on a CPU that is not isolated is an error rather than a warning.
     * @return every finding, errors and warnings, in the order of the map.
     */
    public static List<Finding> validate(final GatewayConfig config, final HostTopology topology, final boolean strict)
    {
        final List<Finding> findings = new ArrayList<>();
        if (config.cores().isEmpty())
        {
            findings.add(new Finding(Severity.ERROR, "cores", "the core map is empty; add [[cores]] entries that " +
                "place every agent: " + names(config.requiredAgents()) + " (e.g. `mdgate map --agent session " +
                "--core 1`)", Check.EMPTY_MAP));
            return findings;
        }
        checkCpus(config, topology, strict, findings);
        checkSharedCpus(config, findings);
        checkSiblings(config, topology, findings);
        checkAgents(config, findings);
        checkNuma(config, topology, findings);
        return findings;
    }

    /**
     * @param findings the findings of a validation.
     * @return whether any is an error.
     */
    public static boolean hasErrors(final List<Finding> findings)
    {
        return findings.stream().anyMatch((f) -> Severity.ERROR == f.severity());
    }

    private static void checkCpus(
        final GatewayConfig config, final HostTopology topology, final boolean strict, final List<Finding> findings)
    {
        final String online = SysFs.formatCpuList(topology.onlineCpus());
        if (topology.presentCpus().isEmpty())
        {
            findings.add(new Finding(Severity.WARNING, "cores", "the host's CPUs cannot be read from " +
                "/sys/devices/system/cpu; the CPUs of the map are not checked", Check.HOST_UNKNOWN));
            return;
        }
        for (int i = 0; i < config.cores().size(); i++)
        {
            final Core core = config.cores().get(i);
            final int cpu = core.cpu();
            final String where = "cores[" + i + "].cpu";
            if (!topology.exists(cpu))
            {
                findings.add(new Finding(Severity.ERROR, where, "CPU " + cpu + " does not exist on this host; " +
                    "use one of its online CPUs: " + online, Check.CPU_MISSING));
            }
            else if (!topology.isOnline(cpu))
            {
                findings.add(new Finding(Severity.ERROR, where, "CPU " + cpu + " is offline; bring it online " +
                    "(echo 1 > /sys/devices/system/cpu/cpu" + cpu + "/online) or use one of the online CPUs: " +
                    online, Check.CPU_OFFLINE));
            }
            else if (core.idle().busy() && !topology.isolatedCpus().contains(cpu))
            {
                final String isolated = topology.isolatedCpus().isEmpty() ? "none" :
                    SysFs.formatCpuList(topology.isolatedCpus());
                findings.add(new Finding(strict ? Severity.ERROR : Severity.WARNING, where, "CPU " + cpu +
                    " runs a busy thread (idle = \"" + core.idle() + "\") but is not isolated (isolated CPUs: " +
                    isolated + "), so the scheduler also puts other tasks on it; isolate it (isolcpus=" + cpu +
                    " nohz_full=" + cpu + " on the kernel command line, see deploy/tune-host.sh), map the core " +
                    "to an isolated CPU, or use idle = \"backoff\"" + (strict ? "" : " (refused with --strict)"),
                    Check.NOT_ISOLATED));
            }
        }
    }

    private static void checkSharedCpus(final GatewayConfig config, final List<Finding> findings)
    {
        final Map<Integer, List<Integer>> coresOfCpu = new LinkedHashMap<>();
        for (int i = 0; i < config.cores().size(); i++)
        {
            coresOfCpu.computeIfAbsent(config.cores().get(i).cpu(), (cpu) -> new ArrayList<>()).add(i);
        }
        for (final Map.Entry<Integer, List<Integer>> entry : coresOfCpu.entrySet())
        {
            final List<Integer> indexes = entry.getValue();
            if (indexes.size() < 2)
            {
                continue;
            }
            final boolean anyBusy = indexes.stream().anyMatch((i) -> config.cores().get(i).idle().busy());
            final String entries = indexes.stream().map((i) -> "cores[" + i + "]").collect(Collectors.joining(", "));
            final String where = "cores[" + indexes.get(1) + "].cpu";
            if (anyBusy)
            {
                findings.add(new Finding(Severity.ERROR, where, "CPU " + entry.getKey() + " is mapped by " + entries +
                    " and a busy-spinning thread there starves the other; put their agents in one [[cores]] entry " +
                    "(they then share one thread) or give each its own CPU", Check.SHARED_CPU));
            }
            else
            {
                findings.add(new Finding(Severity.WARNING, where, "CPU " + entry.getKey() + " is mapped by " +
                    entries + ", two threads taking turns; put their agents in one [[cores]] entry",
                    Check.SHARED_CPU));
            }
        }
    }

    private static void checkSiblings(
        final GatewayConfig config, final HostTopology topology, final List<Finding> findings)
    {
        final List<Core> cores = config.cores();
        for (int j = 0; j < cores.size(); j++)
        {
            for (int i = 0; i < j; i++)
            {
                final Core a = cores.get(i);
                final Core b = cores.get(j);
                if (a.cpu() != b.cpu() && a.idle().busy() && b.idle().busy() &&
                    topology.siblingsOf(a.cpu()).contains(b.cpu()))
                {
                    findings.add(new Finding(Severity.ERROR, "cores[" + j + "].cpu", "CPU " + b.cpu() +
                        " is a hyperthread sibling of CPU " + a.cpu() + " (cores[" + i + "]) and both run busy " +
                        "threads, which share one physical core and slow each other down; use CPUs of different " +
                        "physical cores (see `mdgate cores`), or make one of them idle = \"backoff\"",
                        Check.SIBLINGS));
                }
            }
        }
    }

    private static void checkAgents(final GatewayConfig config, final List<Finding> findings)
    {
        final Map<AgentRef, Integer> placed = new LinkedHashMap<>();
        final List<AgentRef> required = config.requiredAgents();
        for (int i = 0; i < config.cores().size(); i++)
        {
            final Core core = config.cores().get(i);
            for (final AgentRef agent : core.agents())
            {
                final String where = "cores[" + i + "].agents";
                final Integer earlier = placed.putIfAbsent(agent, i);
                if (null != earlier)
                {
                    findings.add(new Finding(Severity.ERROR, where, agent + " is mapped twice, here and on cores[" +
                        earlier + "] (CPU " + config.cores().get(earlier).cpu() + "); an agent runs on exactly one " +
                        "core: remove one of them", Check.MAPPED_TWICE));
                }
                else if (!required.contains(agent))
                {
                    findings.add(new Finding(Severity.ERROR, where, unknown(config, agent), Check.AGENT_UNKNOWN));
                }
            }
        }
        for (final AgentRef agent : required)
        {
            if (!placed.containsKey(agent))
            {
                findings.add(new Finding(Severity.ERROR, "cores", "agent " + agent + " is on no core; add \"" +
                    agent + "\" to the agents of a [[cores]] entry (or `mdgate map " + editOptions(agent) +
                    " --core N`)", Check.AGENT_MISSING));
            }
        }
    }

    /**
     * Names the map's shape and its trade-off, for {@code mdgate map} to print: run-to-completion when the session's
     * thread also runs every ingress, the journal and the egress (one busy core, no hand-off between threads, the
     * lowest latency; a slow disk delays the feed), pipeline otherwise (one thread per stage; more cores, a
     * hand-off of a fraction of a microsecond per hop, and a journal stall never reaches the session).
     *
     * @param config the configuration.
     * @return one line.
     */
    public static String shape(final GatewayConfig config)
    {
        for (final Core core : config.cores())
        {
            if (core.agents().stream().noneMatch((a) -> AgentKind.SESSION == a.kind()))
            {
                continue;
            }
            final List<AgentRef> elsewhere = config.requiredAgents().stream()
                .filter((a) -> AgentKind.HOUSEKEEPING != a.kind() && !core.agents().contains(a)).toList();
            if (elsewhere.isEmpty())
            {
                return "shape: run-to-completion: ingress, session, journal and egress in one duty cycle on CPU " +
                    core.cpu() + " (one busy core, no hand-off between threads; a journal stall delays the feed)";
            }
            return "shape: pipeline: " + names(elsewhere) + " on other threads than the session on CPU " + core.cpu() +
                " (a hand-off per hop; a stage's stall does not stop the others until the tick log fills)";
        }
        return "shape: none (no core runs the session)";
    }

    private static String unknown(final GatewayConfig config, final AgentRef agent)
    {
        if (AgentKind.INGRESS == agent.kind())
        {
            final java.util.Optional<Port> port = config.port(agent.port());
            if (port.isEmpty())
            {
                return agent + " names port '" + agent.port() + "', which is not in [[ports]]; use one of " +
                    config.ports().stream().map(Port::name).collect(Collectors.joining(", "));
            }
            if (agent.queue() >= port.get().queues())
            {
                return agent + " names queue " + agent.queue() + " but port " + agent.port() + " has " +
                    port.get().queues() + (1 == port.get().queues() ? " queue (0)" : " queues (0.." +
                    (port.get().queues() - 1) + ")") + "; use one of them, or raise that port's queues";
            }
            return agent + ": port " + agent.port() + " receives no feed line, so it has no ingress; remove the " +
                "agent, or set a line's port_name = \"" + agent.port() + "\"";
        }
        if (AgentKind.JOURNAL == agent.kind())
        {
            return "journal is mapped but the journal is disabled ([journal] enabled = false); remove the agent " +
                "or enable the journal";
        }
        return agent + " is not an agent of this configuration";
    }

    private static void checkNuma(final GatewayConfig config, final HostTopology topology, final List<Finding> findings)
    {
        final List<AgentRef> required = config.requiredAgents();
        for (int i = 0; i < config.cores().size(); i++)
        {
            final Core core = config.cores().get(i);
            final OptionalInt cpuNode = topology.numaNodeOf(core.cpu());
            for (final AgentRef agent : core.agents())
            {
                if (AgentKind.INGRESS != agent.kind() || cpuNode.isEmpty() || !required.contains(agent))
                {
                    continue;
                }
                final java.util.Optional<Port> port = config.port(agent.port());
                final OptionalInt portNode = port.isPresent() ? topology.portNumaNode(port.get()) : OptionalInt.empty();
                if (portNode.isPresent() && portNode.getAsInt() != cpuNode.getAsInt())
                {
                    final SortedSet<Integer> near = topology.numaNodes().getOrDefault(portNode.getAsInt(),
                        new TreeSet<>());
                    findings.add(new Finding(Severity.ERROR, "cores[" + i + "].cpu", agent + " runs on CPU " +
                        core.cpu() + " (NUMA node " + cpuNode.getAsInt() + ") but port " + agent.port() +
                        "'s NIC is on NUMA node " + portNode.getAsInt() + ", so every packet crosses between " +
                        "nodes; map it to a CPU of node " + portNode.getAsInt() + ": " + SysFs.formatCpuList(near),
                        Check.NUMA));
                }
            }
        }
    }

    private static String editOptions(final AgentRef agent)
    {
        return AgentKind.INGRESS == agent.kind() ? "--port " + agent.port() + " --queue " + agent.queue() :
            "--agent " + agent;
    }

    private static String names(final List<AgentRef> agents)
    {
        return agents.stream().map(AgentRef::toString).collect(Collectors.joining(", "));
    }
}
