package io.mdgate.app.config;

import io.mdgate.app.ExitCodes;
import io.mdgate.app.JsonOutput;
import io.mdgate.ingress.DpdkPorts;
import io.mdgate.ingress.DpdkPorts.PortInfo;
import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.GatewayConfig.Driver;
import io.mdgate.runtime.config.GatewayConfig.Port;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code mdgate ports}: the DPDK ports EAL finds for given EAL arguments (or a configuration's {@code [dpdk]} and
 * dpdk {@code [[ports]]}): id, name, driver, NUMA node, MAC, link and receive queues. Starts EAL in this process,
 * so it runs as its own process (as the CLI does). Not thread-safe; one per invocation.
 */
@Command(
    name = "ports",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "List the DPDK ports (name, driver, MAC, link, NUMA node) EAL finds for the given EAL arguments.",
        "Examples:",
        "  mdgate ports -- -a 0000:3b:00.0 -a 0000:3b:00.1",
        "  mdgate ports -- --vdev net_af_packet0,iface=eth1",
        "  mdgate ports --config /etc/mdgate/appliance.toml" },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:Ports listed (possibly none).",
        "1:DPDK is unavailable or EAL did not start; the message says why.",
        "2:Invalid options, EAL arguments or configuration file." })
public final class PortsCommand implements Callable<Integer>
{

    @Spec
    CommandSpec spec;

    @Option(names = { "-c", "--config" }, paramLabel = "FILE",
        description = "Take the EAL arguments and devices from this configuration file's [dpdk] and [[ports]].")
    Path configFile;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Parameters(paramLabel = "EAL_ARG", arity = "0..*",
        description = "EAL arguments, after --, e.g. -- -a 0000:3b:00.0 or -- --vdev net_null0.")
    List<String> ealArguments = new ArrayList<>();

    @Override
    public Integer call() throws Exception
    {
        final List<String> arguments = new ArrayList<>();
        if (null != configFile)
        {
            try
            {
                arguments.addAll(fromConfig(ConfigLoader.load(configFile)));
            }
            catch (final ConfigException ex)
            {
                spec.commandLine().getErr().println("mdgate ports: " + ex.getMessage());
                return 2;
            }
        }
        arguments.addAll(ealArguments);
        final List<PortInfo> ports;
        try
        {
            ports = DpdkPorts.list(arguments);
        }
        catch (final IllegalArgumentException ex)
        {
            spec.commandLine().getErr().println("mdgate ports: " + ex.getMessage());
            return ExitCodes.USAGE;
        }
        catch (final IllegalStateException ex)
        {
            spec.commandLine().getErr().println("mdgate ports: " + ex.getMessage());
            return ExitCodes.FAILED;
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (json)
        {
            out.println(JsonOutput.line(ports));
        }
        else
        {
            print(out, ports, arguments);
        }
        out.flush();
        return 0;
    }

    /**
     * @param config a configuration.
     * @return its EAL arguments, then {@code -a PCI} or {@code --vdev VDEV} for each of its dpdk ports.
     */
    static List<String> fromConfig(final GatewayConfig config)
    {
        final List<String> arguments = new ArrayList<>(config.dpdk().ealArgs());
        for (final Port port : config.ports())
        {
            if (Driver.DPDK == port.driver())
            {
                arguments.add(port.pci().isEmpty() ? "--vdev" : "-a");
                arguments.add(port.pci().isEmpty() ? port.vdev() : port.pci());
            }
        }
        return arguments;
    }

    private static void print(final PrintWriter out, final List<PortInfo> ports, final List<String> arguments)
    {
        if (ports.isEmpty())
        {
            out.println("no DPDK ports for EAL arguments '" + String.join(" ", arguments) + "'; allow a PCI device " +
                "bound to vfio-pci (-a 0000:3b:00.0; see dpdk-devbind.py --status) or give a vdev " +
                "(--vdev net_af_packet0,iface=IFACE)");
            return;
        }
        out.println(String.format("  %3s  %-28s  %-14s  %4s  %-17s  %-4s  %10s  %9s", "id", "name", "driver", "node",
            "mac", "link", "speed", "rx queues"));
        for (final PortInfo port : ports)
        {
            out.println(String.format("  %3d  %-28s  %-14s  %4s  %-17s  %-4s  %10s  %9d", port.id(), port.name(),
                port.driver(), port.numaNode() < 0 ? "?" : Integer.toString(port.numaNode()), port.mac(),
                port.linkUp() ? "up" : "down", speed(port.speedMbps()), port.maxRxQueues()));
        }
    }

    private static String speed(final long mbps)
    {
        if (mbps < 0)
        {
            return "unknown";
        }
        if (0 == mbps)
        {
            return "-";
        }
        return mbps % 1000 == 0 ? mbps / 1000 + " Gb/s" : mbps + " Mb/s";
    }
}
