package io.mdgate.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.mdgate.app.JsonFields;
import io.mdgate.app.JsonOutput;
import io.mdgate.app.Main;
import io.mdgate.ingress.DpdkNative;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.ConfigLoaderTest;
import io.mdgate.runtime.config.GatewayConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code mdgate ports} starts DPDK's EAL, which can start once per process and pins the thread that starts it, so
 * each run here is a child JVM ({@link Child}) running the command through picocli.
 */
class PortsCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldListTheVirtualDevicesGivenAsEalArguments() throws Exception
    {
        assumeDpdk();

        final Result result = child("--", "--vdev", "net_null0", "--vdev", "net_null1");

        assertEquals(0, result.exitCode, result.output);
        assertTrue(result.output.contains("driver"), result.output);
        assertTrue(result.output.matches("(?s).*\\n\\s+0  net_null0\\s+net_null\\s.*"), result.output);
        assertTrue(result.output.matches("(?s).*\\n\\s+1  net_null1\\s+net_null\\s.*"), result.output);
    }

    @Test
    void shouldTakeTheDevicesOfAConfiguration() throws Exception
    {
        assumeDpdk();
        final Path config = dir.resolve("gw.toml");
        Files.writeString(config, ConfigLoaderTest.MINIMAL.replace("driver = \"socket\"\ninterface = \"lo\"",
            "driver = \"dpdk\"\nvdev = \"net_null7\""));

        final Result result = child("--json", "--config", config.toString());

        assertEquals(0, result.exitCode, result.output);
        final List<String> json = result.output.lines().filter((line) -> line.startsWith("[")).toList();
        assertEquals(1, json.size(), "one JSON line: " + result.output);
        final JsonNode ports = JsonOutput.mapper().readTree(json.get(0));
        assertEquals(1, ports.size(), json.get(0));
        assertEquals("net_null7", ports.get(0).get("name").asText(), json.get(0));
        assertEquals("net_null", ports.get(0).get("driver").asText(), json.get(0));
        assertEquals(List.of("id", "name", "driver", "numaNode", "mac", "linkUp", "speedMbps", "maxRxQueues"),
            JsonFields.names(ports.get(0)), json.get(0));
    }

    @Test
    void shouldSayWhyWhenEalDoesNotStart() throws Exception
    {
        assumeDpdk();

        final Result result = child("--", "--vdev", "net_nosuchdriver0");

        assertEquals(1, result.exitCode, result.output);
        assertTrue(result.output.contains("mdgate ports: DPDK EAL did not start"), result.output);
    }

    @Test
    void shouldRefuseAnEalArgumentEalDoesNotKnowInOneLineOnStderrWithNothingOnStdout() throws Exception
    {
        assumeDpdk();
        final Path stdout = dir.resolve("stdout");
        final Path stderr = dir.resolve("stderr");
        final List<String> command = javaCommand(Main.class.getName());
        command.addAll(List.of("ports", "--json", "--", "--bogus"));
        final Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "ports did not finish");
        final String err = Files.readString(stderr);

        assertEquals(2, process.exitValue(), err);
        assertEquals("", Files.readString(stdout), "stdout is data: DPDK's usage must not reach it");
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("mdgate ports: DPDK EAL did not start with '"), err);
        assertTrue(err.contains("give EAL arguments it knows"), err);
        assertTrue(err.contains("unrecognized option '--bogus'"), "getopt's own words are quoted: " + err);
    }

    @Test
    void shouldBuildTheDeviceArgumentsOfAConfiguration()
    {
        final GatewayConfig config = ConfigLoader.parse(ConfigLoaderTest.FULL
            .replace("vdev = \"net_af_packet0,iface=veth-a\"", "pci = \"0000:3b:00.0\""));

        assertEquals(List.of("--no-huge", "-m", "512", "-a", "0000:3b:00.0"), PortsCommand.fromConfig(config));
    }

    private static void assumeDpdk()
    {
        assumeTrue(DpdkNative.isAvailable(), "libmdgate-dpdk is not available: " + DpdkNative.unavailabilityCause());
        assumeTrue("root".equals(System.getProperty("user.name")), "DPDK EAL needs root; not running as root");
    }

    private static List<String> javaCommand(final String mainClass)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        return command;
    }

    private static Result child(final String... args) throws Exception
    {
        final List<String> command = javaCommand(Child.class.getName());
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "ports did not finish: " + output);
        return new Result(process.exitValue(), output);
    }

    private record Result(int exitCode, String output)
    {
    }

    /**
     * Runs {@code mdgate ports} with the arguments, as the launcher would.
     */
    static final class Child
    {
        public static void main(final String[] args)
        {
            System.exit(new CommandLine(new PortsCommand()).execute(args));
        }
    }
}
