package io.mdgate.runtime.config;

import io.mdgate.runtime.config.GatewayConfig.Driver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        final GatewayConfig config = load("small-host.toml");
        new FakeHost(root).file("/sys/devices/system/cpu/online", "0-1");

        assertEquals(Driver.SOCKET, config.ports().get(0).driver());
        assertEquals(4, config.egress().consumers().size());
        // The one busy core is on a CPU a development host does not isolate: a warning, not an error.
        assertEquals(List.of(), CoreMapValidator.validate(config, HostTopology.read(root), false).stream()
            .filter(f -> CoreMapValidator.Severity.ERROR == f.severity()).toList());
        assertTrue(CoreMapValidator.shape(config).startsWith("shape: run-to-completion"), CoreMapValidator.shape(config));
    }

    @Test
    void shouldNameOnlyAbsolutePathsInEveryExampleSoThatNoneWritesIntoTheDirectoryItIsRunFrom() throws IOException
    {
        assumeTrue(Files.isDirectory(CONF), CONF + " not found from " + Path.of("").toAbsolutePath());
        final List<Path> examples;
        try (Stream<Path> files = Files.list(CONF))
        {
            examples = files.filter(f -> f.toString().endsWith(".toml")).sorted().toList();
        }
        assertFalse(examples.isEmpty(), "no example under " + CONF);
        for (final Path example : examples)
        {
            final GatewayConfig config = ConfigLoader.load(example);
            for (final Path path : List.of(config.gateway().countersFile(), config.gateway().hlogDir(),
                config.journal().dir()))
            {
                assertTrue(path.isAbsolute(), example + " names a relative path: " + path);
            }
        }
        assertFalse(Files.exists(CONF.resolve("demo.toml")), "the demo writes its own configuration; no example " +
            "may claim to be it");
    }

    private static GatewayConfig load(final String name)
    {
        final Path file = CONF.resolve(name);
        assumeTrue(Files.isRegularFile(file), file + " not found from " + Path.of("").toAbsolutePath());
        return ConfigLoader.load(file);
    }
}
