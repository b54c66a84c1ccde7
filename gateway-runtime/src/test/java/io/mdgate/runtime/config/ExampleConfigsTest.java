package io.mdgate.runtime.config;

import io.mdgate.runtime.config.GatewayConfig.Driver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The example configurations under deploy/conf/ load, and their core maps are valid on the hosts they are for.
 */
class ExampleConfigsTest
{
    static final Path CONF = Path.of("..", "deploy", "conf");

    @TempDir
    Path root;

    @Test
    void shouldLoadTheTwoPortApplianceWithAValidStrictMapOnASixteenCpuHost()
    {
        final GatewayConfig config = load("appliance.toml");
        final FakeHost host = new FakeHost(root)
            .file("/sys/devices/system/cpu/online", "0-15")
            .file("/sys/devices/system/cpu/isolated", "2-8")
            .file("/sys/devices/system/cpu/nohz_full", "2-8")
            .file("/sys/devices/system/node/node0/cpulist", "0-15")
            .file("/sys/bus/pci/devices/0000:3b:00.0/numa_node", "0")
            .file("/sys/bus/pci/devices/0000:3b:00.1/numa_node", "0");
        for (int cpu = 0; cpu < 16; cpu++)
        {
            host.file("/sys/devices/system/cpu/cpu" + cpu + "/topology/thread_siblings_list",
                (cpu % 8) + "," + (cpu % 8 + 8));
        }

        assertEquals(2, config.ports().size());
        assertEquals(Driver.DPDK, config.ports().get(1).driver());
        assertEquals("p1", config.feed().line("B").orElseThrow().portName());
        assertEquals(List.of(), CoreMapValidator.validate(config, host.topology(), true));
    }

    @Test
    void shouldLoadTheSmallHostExampleWithAValidRunToCompletionMapOnATwoCpuHost()
    {
        final GatewayConfig config = load("demo.toml");
        new FakeHost(root).file("/sys/devices/system/cpu/online", "0-1");

        assertEquals(Driver.SOCKET, config.ports().get(0).driver());
        assertEquals(4, config.egress().consumers().size());
        // The one busy core is on a CPU a development host does not isolate: a warning, not an error.
        assertEquals(List.of(), CoreMapValidator.validate(config, HostTopology.read(root), false).stream()
            .filter(f -> CoreMapValidator.Severity.ERROR == f.severity()).toList());
        assertTrue(CoreMapValidator.shape(config).startsWith("shape: run-to-completion"), CoreMapValidator.shape(config));
    }

    private static GatewayConfig load(final String name)
    {
        final Path file = CONF.resolve(name);
        assumeTrue(Files.isRegularFile(file), file + " not found from " + Path.of("").toAbsolutePath());
        return ConfigLoader.load(file);
    }
}
