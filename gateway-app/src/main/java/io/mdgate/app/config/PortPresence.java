package io.mdgate.app.config;

import io.mdgate.runtime.config.GatewayConfig.Driver;
import io.mdgate.runtime.config.GatewayConfig.Port;
import io.mdgate.runtime.config.HostTopology;
import io.mdgate.runtime.config.SysFs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether the devices a configuration's ports name exist on this host: a PCI address under
 * {@code /sys/bus/pci/devices}, an interface under {@code /sys/class/net}. Stateless.
 */
final class PortPresence
{
    private PortPresence()
    {
    }

    /**
     * @return one sentence per port whose device this host does not have.
     */
    static List<String> absent(final SysFs sysFs, final List<Port> ports)
    {
        final List<String> absent = new ArrayList<>();
        for (final Port port : ports)
        {
            if (Driver.DPDK == port.driver() && !port.pci().isEmpty())
            {
                final String pci = fullPci(port.pci());
                if (!Files.exists(sysFs.resolve("/sys/bus/pci/devices/" + pci)))
                {
                    absent.add("port " + port.name() + ": PCI device " + pci + " does not exist on this host");
                }
                continue;
            }
            final Optional<String> iface = Driver.SOCKET == port.driver() ? Optional.of(port.interfaceName()) :
                HostTopology.vdevInterface(port.vdev());
            if (iface.isPresent() && !iface.get().isEmpty() &&
                !Files.exists(sysFs.resolve("/sys/class/net/" + iface.get())))
            {
                absent.add("port " + port.name() + ": network interface " + iface.get() + " does not exist on this " +
                    "host");
            }
        }
        return absent;
    }

    /**
     * @return this host's network PCI devices and interfaces, for the fix of a wrong one.
     */
    static String networkDevices(final SysFs sysFs)
    {
        final TreeSet<String> pci = new TreeSet<>();
        try (DirectoryStream<Path> devices = Files.newDirectoryStream(sysFs.resolve("/sys/bus/pci/devices")))
        {
            for (final Path device : devices)
            {
                final String name = device.getFileName().toString();
                if (sysFs.read("/sys/bus/pci/devices/" + name + "/class").orElse("").trim().startsWith("0x02"))
                {
                    pci.add(name);
                }
            }
        }
        catch (final IOException ex)
        {
            pci.clear();
        }
        final TreeSet<String> interfaces = new TreeSet<>();
        try (DirectoryStream<Path> names = Files.newDirectoryStream(sysFs.resolve("/sys/class/net")))
        {
            names.forEach((n) -> interfaces.add(n.getFileName().toString()));
        }
        catch (final IOException ex)
        {
            interfaces.clear();
        }
        return "PCI network devices " + (pci.isEmpty() ? "none" : String.join(", ", pci)) + "; interfaces " +
            (interfaces.isEmpty() ? "none" : String.join(", ", interfaces)) + " (lspci -D, ip link)";
    }

    private static String fullPci(final String pci)
    {
        final String full = pci.indexOf(':') == pci.lastIndexOf(':') ? "0000:" + pci : pci;
        return full.toLowerCase(Locale.ROOT);
    }
}
