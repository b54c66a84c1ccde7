package io.mdgate.app.config;

import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.CoreMapValidator;
import io.mdgate.runtime.config.CoreMapValidator.Check;
import io.mdgate.runtime.config.CoreMapValidator.Finding;
import io.mdgate.runtime.config.CoreMapValidator.Severity;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.GatewayConfig.Idle;
import io.mdgate.runtime.config.GatewayConfig.Port;
import io.mdgate.runtime.config.HostTopology;
import io.mdgate.runtime.config.SysFs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code mdgate map}: shows the core map of a configuration file against this host, checks it ({@code --check}),
 * or edits it ({@code --port P --queue Q --core N}, {@code --agent NAME --core N}, {@code --idle S --core N}).
 * An edit whose map would have an error other than agents still to be placed is refused and the file left alone;
 * otherwise only the file's {@code [[cores]]} tables are rewritten. Not thread-safe; one per invocation.
 */
@Command(
    name = "map",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Show, check or edit the core map of a configuration file: which agents run on which CPU.",
        "Examples:",
        "  mdgate map -c gw.toml                              show the map and its findings",
        "  mdgate map -c gw.toml --check --strict             exit 1 unless the map is valid",
        "  mdgate map -c gw.toml --port p0 --queue 0 --core 3 move a port's queue to CPU 3",
        "  mdgate map -c gw.toml --agent journal --core 1     move the journal to CPU 1" },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:The map is valid (warnings allowed), or the edit was written.",
        "1:The map has errors (--check), or the edit was refused; the file is unchanged.",
        "2:Invalid options or configuration file; the message says what is wrong." })
public final class MapCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = { "-c", "--config" }, paramLabel = "FILE", required = true,
        description = "The gateway's configuration file (TOML).")
    Path configFile;

    @Option(names = "--check", description = "Only check the map: exit 1 when it has errors.")
    boolean check;

    @Option(names = "--strict", description = "A busy thread on a CPU that is not isolated is an error.")
    boolean strict;

    @Option(names = "--port", paramLabel = "PORT",
        description = "Edit: the port (name, or index in [[ports]]) whose queue moves to --core.")
    String port;

    @Option(names = "--queue", paramLabel = "Q", description = "Edit: the queue of --port (default 0).")
    Integer queue;

    @Option(names = "--agent", paramLabel = "AGENT",
        description = "Edit: the agent that moves to --core: session, journal, egress, housekeeping or " +
            "ingress:PORT:QUEUE.")
    String agent;

    @Option(names = "--core", paramLabel = "CPU", description = "Edit: the CPU the agent moves to.")
    Integer core;

    @Option(names = "--idle", paramLabel = "STRATEGY",
        description = "Edit: the idle strategy of --core's thread: busy-spin, yield, backoff, sleep:DURATION, " +
            "market-hours (a new core busy-spins unless given).")
    String idle;

    @Option(names = "--dry-run", description = "Edit: print the edited file instead of writing it.")
    boolean dryRun;

    @Option(names = "--sysfs-root", paramLabel = "DIR", hidden = true, defaultValue = "/",
        description = "Read the host's /sys and /proc under this directory (tests).")
    Path sysfsRoot;

    @Override
    public Integer call() throws IOException
    {
        final boolean edit = null != port || null != agent || null != idle;
        checkOptions(edit);
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final GatewayConfig config;
        try
        {
            config = ConfigLoader.load(configFile);
        }
        catch (final ConfigException ex)
        {
            err.println("mdgate map: " + ex.getMessage());
            return 2;
        }
        final HostTopology topology = HostTopology.read(sysfsRoot);
        if (!edit)
        {
            final List<Finding> findings = CoreMapValidator.validate(config, topology, strict);
            print(out, config, topology, findings);
            return check && CoreMapValidator.hasErrors(findings) ? 1 : 0;
        }
        return edit(config, topology, out, err);
    }

    private int edit(final GatewayConfig config, final HostTopology topology, final PrintWriter out,
        final PrintWriter err) throws IOException
    {
        final Idle newIdle = null == idle ? null : parseIdle();
        final List<Core> cores = null == port && null == agent ?
            editIdle(config, newIdle) : CoreMapEdit.move(config.cores(), agentToMove(config), core, newIdle);
        final GatewayConfig edited = config.withCores(cores);
        final List<Finding> findings = CoreMapValidator.validate(edited, topology, strict);
        final List<Finding> blocking = findings.stream()
            .filter((f) -> Severity.ERROR == f.severity() && Check.AGENT_MISSING != f.check())
            .collect(Collectors.toList());
        if (!blocking.isEmpty())
        {
            err.println("mdgate map: the edit is refused, " + configFile + " is unchanged:");
            blocking.forEach((f) -> err.println("  " + f));
            return 1;
        }
        final String text;
        try
        {
            text = ConfigWriter.replaceCores(Files.readString(configFile, StandardCharsets.UTF_8), cores);
        }
        catch (final ConfigException ex)
        {
            err.println("mdgate map: " + ex.getMessage());
            return 1;
        }
        if (dryRun)
        {
            out.print(text);
            out.flush();
            return 0;
        }
        ConfigWriter.write(configFile, text);
        out.println("wrote " + configFile);
        print(out, edited, topology, findings);
        return 0;
    }

    private void checkOptions(final boolean edit)
    {
        if (check && edit)
        {
            throw new ParameterException(spec.commandLine(), "--check only checks the map; run it without " +
                "--port, --agent or --idle, or leave out --check to edit");
        }
        if (null != port && null != agent)
        {
            throw new ParameterException(spec.commandLine(), "give either --port (with --queue) or --agent, not both");
        }
        if (null != queue && null == port)
        {
            throw new ParameterException(spec.commandLine(), "--queue needs --port, e.g. --port p0 --queue 1 --core 3");
        }
        if (edit && null == core)
        {
            throw new ParameterException(spec.commandLine(), "an edit needs --core CPU, the CPU the agent moves to " +
                "(or whose idle strategy changes)");
        }
        if (!edit && null != core)
        {
            throw new ParameterException(spec.commandLine(), "--core needs --port, --agent or --idle: say what " +
                "moves to CPU " + core);
        }
        if (!edit && dryRun)
        {
            throw new ParameterException(spec.commandLine(), "--dry-run only applies to an edit");
        }
    }

    private Idle parseIdle()
    {
        try
        {
            return Idle.parse(idle);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), "--idle " + ex.getMessage());
        }
    }

    private List<Core> editIdle(final GatewayConfig config, final Idle newIdle)
    {
        if (config.cores().stream().noneMatch((c) -> c.cpu() == core))
        {
            throw new ParameterException(spec.commandLine(), "no core of the map is on CPU " + core + "; the map's " +
                "CPUs are " + config.cores().stream().map((c) -> Integer.toString(c.cpu()))
                .collect(Collectors.joining(", ")) + " (to add a core, move an agent to it)");
        }
        return CoreMapEdit.idle(config.cores(), core, newIdle);
    }

    private AgentRef agentToMove(final GatewayConfig config)
    {
        final AgentRef moving;
        if (null != agent)
        {
            try
            {
                moving = AgentRef.parse(agent);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new ParameterException(spec.commandLine(), "--agent " + ex.getMessage());
            }
        }
        else
        {
            final Port target = portByNameOrIndex(config);
            if (null == queue && target.queues() > 1)
            {
                throw new ParameterException(spec.commandLine(), "port " + target.name() + " has " +
                    target.queues() + " queues; say which with --queue 0.." + (target.queues() - 1));
            }
            moving = AgentRef.ingress(target.name(), null == queue ? 0 : queue);
        }
        final List<AgentRef> required = config.requiredAgents();
        if (!required.contains(moving))
        {
            throw new ParameterException(spec.commandLine(), moving + " is not an agent of " + configFile +
                "; its agents are " + required.stream().map(AgentRef::toString).collect(Collectors.joining(", ")));
        }
        return moving;
    }

    private Port portByNameOrIndex(final GatewayConfig config)
    {
        final java.util.Optional<Port> byName = config.port(port);
        if (byName.isPresent())
        {
            return byName.get();
        }
        if (port.chars().allMatch(Character::isDigit) && !port.isEmpty() && port.length() < 4 &&
            Integer.parseInt(port) < config.ports().size())
        {
            return config.ports().get(Integer.parseInt(port));
        }
        throw new ParameterException(spec.commandLine(), "--port " + port + " is not a port of " + configFile +
            "; give a name or an index: " + portList(config));
    }

    private static String portList(final GatewayConfig config)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < config.ports().size(); i++)
        {
            text.append(0 == i ? "" : ", ").append(i).append('=').append(config.ports().get(i).name());
        }
        return text.toString();
    }

    private void print(final PrintWriter out, final GatewayConfig config, final HostTopology topology,
        final List<Finding> findings)
    {
        out.println("core map of " + configFile + " (host: CPUs " + SysFs.formatCpuList(topology.onlineCpus()) +
            " online, isolated " + orNone(SysFs.formatCpuList(topology.isolatedCpus())) + ")");
        out.println(String.format("  %4s  %4s  %-8s  %-8s  %-14s  %s", "cpu", "node", "isolated", "siblings", "idle",
            "agents"));
        for (final Core entry : config.cores())
        {
            final OptionalInt node = topology.numaNodeOf(entry.cpu());
            out.println(String.format("  %4d  %4s  %-8s  %-8s  %-14s  %s", entry.cpu(),
                node.isPresent() ? Integer.toString(node.getAsInt()) : "?",
                topology.isolatedCpus().contains(entry.cpu()) ? "yes" : "no",
                SysFs.formatCpuList(topology.siblingsOf(entry.cpu())), entry.idle(),
                entry.agents().stream().map(AgentRef::toString).collect(Collectors.joining(", "))));
        }
        for (final Port entry : config.ports())
        {
            final OptionalInt node = topology.portNumaNode(entry);
            out.println("  port " + entry.name() + ": " + entry.driver().label() + " " + device(entry) + ", " +
                entry.queues() + (1 == entry.queues() ? " queue" : " queues") + ", NUMA node " +
                (node.isPresent() ? Integer.toString(node.getAsInt()) : "unknown"));
        }
        out.println("  " + CoreMapValidator.shape(config));
        findings.forEach((f) -> out.println(f));
        final long errors = findings.stream().filter((f) -> Severity.ERROR == f.severity()).count();
        final long warnings = findings.size() - errors;
        out.println(0 == errors ? "the map is valid" + (0 == warnings ? "" : ", with " + warnings +
            (1 == warnings ? " warning" : " warnings")) : "the map has " + errors + (1 == errors ? " error" : " errors"));
        out.flush();
    }

    private static String device(final Port port)
    {
        if (!port.pci().isEmpty())
        {
            return port.pci();
        }
        return port.vdev().isEmpty() ? port.interfaceName() : port.vdev();
    }

    private static String orNone(final String text)
    {
        return text.isEmpty() ? "none" : text;
    }
}
