package io.mdgate.app.config;

import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.ConfigLoaderTest;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.GatewayConfig.AgentKind;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.GatewayConfig.Idle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigWriterTest
{
    @Test
    void shouldWriteAConfigurationThatReadsBackEqual()
    {
        final GatewayConfig config = ConfigLoader.parse(ConfigLoaderTest.FULL);

        final String toml = ConfigWriter.toToml(config);

        assertEquals(config, ConfigLoader.parse(toml));
    }

    @Test
    void shouldWriteEveryFeedSettingIncludingTheRetryInterval()
    {
        final GatewayConfig config = ConfigLoader.parse(ConfigLoaderTest.FULL.replace("stale_after_ms = 1500",
            "stale_after_ms = 1500\nretry_interval_ms = 25"));

        final GatewayConfig written = ConfigLoader.parse(ConfigWriter.toToml(config));

        assertEquals(25, written.feed().retryIntervalMs());
        assertEquals(config, written);
    }

    @Test
    void shouldQuoteStringsSoTheyReadBack()
    {
        final GatewayConfig config = ConfigLoader.parse(ConfigLoaderTest.FULL.replace("\"secret-1\"",
            "\"a\\\"b\\\\c\\td\""));

        assertEquals("a\"b\\c\td", config.egress().consumers().get(0).token());
        assertEquals(config, ConfigLoader.parse(ConfigWriter.toToml(config)));
    }

    @Test
    void shouldReplaceOnlyTheCoreMapOfAFile()
    {
        final String file = "# appliance\n[feed]\n[[feed.lines]]\nname = \"A\"\ngroup = \"233.54.12.111\"\n" +
            "port = 26477\n\n[[cores]]   # the old map\ncpu = 1\nagents = [\"session\"]\n# comment of the old core\n" +
            "\n# the ports\n[[ports]]\nname = \"p0\"\ndriver = \"socket\"\ninterface = \"lo\" # loopback\n" +
            "[[ cores ]]\ncpu = 0\nagents = [\"journal\"]\n";
        final List<Core> cores = List.of(
            new Core(3, List.of(AgentRef.ingress("p0", 0), AgentRef.of(AgentKind.SESSION)), Idle.BUSY_SPIN),
            new Core(0, List.of(AgentRef.of(AgentKind.HOUSEKEEPING)), Idle.parse("sleep:1ms")));

        final String edited = ConfigWriter.replaceCores(file, cores);

        assertEquals("# appliance\n[feed]\n[[feed.lines]]\nname = \"A\"\ngroup = \"233.54.12.111\"\nport = 26477\n\n" +
            "\n# the ports\n[[ports]]\nname = \"p0\"\ndriver = \"socket\"\ninterface = \"lo\" # loopback\n" +
            "\n[[cores]]\ncpu = 3\nagents = [\"ingress:p0:0\", \"session\"]\nidle = \"busy-spin\"\n" +
            "\n[[cores]]\ncpu = 0\nagents = [\"housekeeping\"]\nidle = \"sleep:1ms\"\n", edited);
        assertEquals(cores, ConfigLoader.parse(edited).cores());
    }

    @Test
    void shouldReplaceAFileAtomicallyAndOnlyWithAValidConfiguration(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("gw.toml");
        Files.writeString(file, ConfigLoaderTest.MINIMAL);

        assertThrows(ConfigException.class, () -> ConfigWriter.write(file, "[feed]\n"));
        assertEquals(ConfigLoaderTest.MINIMAL, Files.readString(file));

        ConfigWriter.write(file, ConfigLoaderTest.FULL);
        assertEquals(ConfigLoaderTest.FULL, Files.readString(file));
        try (var files = Files.list(dir))
        {
            assertEquals(List.of(file), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void shouldMoveAnAgentOutOfEveryCoreAndDropCoresLeftEmpty()
    {
        final List<Core> cores = List.of(
            new Core(1, List.of(AgentRef.of(AgentKind.SESSION)), Idle.BUSY_SPIN),
            new Core(2, List.of(AgentRef.of(AgentKind.JOURNAL), AgentRef.of(AgentKind.EGRESS)), Idle.parse("yield")));

        final List<Core> moved = CoreMapEdit.move(cores, AgentRef.of(AgentKind.SESSION), 2, null);

        assertEquals(List.of(new Core(2, List.of(AgentRef.of(AgentKind.JOURNAL), AgentRef.of(AgentKind.EGRESS),
            AgentRef.of(AgentKind.SESSION)), Idle.parse("yield"))), moved);
        final List<Core> back = CoreMapEdit.move(moved, AgentRef.of(AgentKind.SESSION), 1, null);
        assertEquals(new Core(1, List.of(AgentRef.of(AgentKind.SESSION)), Idle.BUSY_SPIN), back.get(1));
        assertFalse(back.get(0).agents().contains(AgentRef.of(AgentKind.SESSION)));
        assertTrue(CoreMapEdit.idle(back, 1, Idle.parse("backoff")).get(1).idle().toString().equals("backoff"));
    }
}
