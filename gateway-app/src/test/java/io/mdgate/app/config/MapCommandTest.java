package io.mdgate.app.config;

import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.CoreMapValidatorTest;
import io.mdgate.runtime.config.FakeHost;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.GatewayConfig.AgentKind;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.IdleKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MapCommandTest
{
    static final String FILE = "# the test appliance\n" + CoreMapValidatorTest.CONFIG
        .replace("[[cores]]\ncpu = 2", "# busy cores on isolated CPUs\n[[cores]]\ncpu = 2")
        .replace("[[ports]]\nname = \"p0\"", "# the exchange-facing NIC\n[[ports]]\nname = \"p0\"") +
        "\n# kept after the map\n[journal]\nenabled = true # journal every tick\n";

    @TempDir
    Path dir;

    Path sysfs;
    Path config;

    @BeforeEach
    void setUp() throws Exception
    {
        sysfs = dir.resolve("host");
        FakeHost.standard(sysfs);
        config = dir.resolve("gw.toml");
        Files.writeString(config, FILE);
    }

    @Test
    void shouldShowTheMapAgainstTheHost()
    {
        final CommandRun run = map();

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("core map of " + config + " (host: CPUs 0-6 online, isolated 2-6)"), run.out());
        assertTrue(run.out().contains("     2     0  yes       2-3       busy-spin       ingress:p0:0, ingress:p0:1"),
            run.out());
        assertTrue(run.out().contains("     0     0  no        0-1       backoff         journal, egress, housekeeping"),
            run.out());
        assertTrue(run.out().contains("port p0: dpdk 0000:3b:00.0, 2 queues, NUMA node 0"), run.out());
        assertTrue(run.out().contains("port p1: socket eth1, 1 queue, NUMA node 1"), run.out());
        assertTrue(run.out().endsWith("the map is valid\n"), run.out());
    }

    @Test
    void shouldPassTheCheckOfAValidMap()
    {
        assertEquals(0, map("--check", "--strict").exitCode());
    }

    @Test
    void shouldFailTheCheckOfTwoBusySpinningCoresOnOneCpu() throws Exception
    {
        Files.writeString(config, FILE.replace("cpu = 6", "cpu = 2"));

        final CommandRun run = map("--check");

        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.out().contains("error: cores[2].cpu: CPU 2 is mapped by cores[0], cores[2]"), run.out());
        assertTrue(run.out().endsWith("the map has 1 error\n"), run.out());
    }

    @Test
    void shouldFailTheCheckOfAQueueMappedTwiceOrAnAgentLeftOut() throws Exception
    {
        Files.writeString(config, FILE.replace("agents = [\"session\"]", "agents = [\"ingress:p0:0\"]"));

        final CommandRun run = map("--check");

        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.out().contains("error: cores[2].agents: ingress:p0:0 is mapped twice"), run.out());
        assertTrue(run.out().contains("error: cores: agent session is on no core"), run.out());
    }

    @Test
    void shouldWarnButPassWithoutStrictAndFailWithStrict() throws Exception
    {
        Files.writeString(config, FILE.replace("idle = \"backoff\"", "idle = \"busy-spin\""));

        assertEquals(0, map("--check").exitCode());
        final CommandRun strict = map("--check", "--strict");
        assertEquals(1, strict.exitCode(), strict.toString());
        assertTrue(strict.out().contains("error: cores[3].cpu: CPU 0 runs a busy thread"), strict.out());
    }

    @Test
    void shouldMoveAPortQueueToACoreKeepingEveryOtherLineOfTheFile() throws Exception
    {
        final CommandRun run = map("--port", "0", "--queue", "1", "--core", "0");

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().startsWith("wrote " + config), run.out());
        final String text = Files.readString(config);
        assertTrue(text.startsWith("# the test appliance\n[feed]"), text);
        assertTrue(text.contains("# the exchange-facing NIC\n[[ports]]"), text);
        assertTrue(text.contains("# kept after the map\n[journal]\nenabled = true # journal every tick\n"), text);
        final GatewayConfig edited = ConfigLoader.load(config);
        assertEquals(List.of(AgentRef.ingress("p0", 0)), edited.cores().get(0).agents());
        assertEquals(List.of(AgentRef.of(AgentKind.JOURNAL), AgentRef.of(AgentKind.EGRESS),
            AgentRef.of(AgentKind.HOUSEKEEPING), AgentRef.ingress("p0", 1)), edited.cores().get(3).agents());
        assertEquals(IdleKind.BACKOFF, edited.cores().get(3).idle().kind());
    }

    @Test
    void shouldMoveAnAgentToANewCoreAndWarnWhenItsCpuIsNotIsolated() throws Exception
    {
        final CommandRun run = map("--agent", "journal", "--core", "1");

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("warning: cores[4].cpu: CPU 1 runs a busy thread"), run.out());
        assertTrue(run.out().endsWith("the map is valid, with 1 warning\n"), run.out());
        final GatewayConfig edited = ConfigLoader.load(config);
        assertEquals(1, edited.cores().get(4).cpu());
        assertEquals(List.of(AgentRef.of(AgentKind.JOURNAL)), edited.cores().get(4).agents());
        assertEquals(IdleKind.BUSY_SPIN, edited.cores().get(4).idle().kind());
    }

    @Test
    void shouldChangeTheIdleStrategyOfACore() throws Exception
    {
        assertEquals(0, map("--idle", "sleep:2ms", "--core", "0").exitCode());

        assertEquals("sleep:2ms", ConfigLoader.load(config).cores().get(3).idle().toString());
    }

    @Test
    void shouldRefuseAnEditOntoACpuThatDoesNotExist() throws Exception
    {
        assertRefused(map("--agent", "session", "--core", "9"), "CPU 9 does not exist on this host");
    }

    @Test
    void shouldRefuseAnEditOntoAnOfflineCpu() throws Exception
    {
        assertRefused(map("--agent", "session", "--core", "7"), "CPU 7 is offline");
    }

    @Test
    void shouldRefuseAnEditThatMakesHyperthreadSiblingsBothBusy() throws Exception
    {
        assertRefused(map("--agent", "session", "--core", "5"), "CPU 5 is a hyperthread sibling of CPU 4");
    }

    @Test
    void shouldRefuseAnEditThatPutsAnIngressOnAnotherNumaNodeThanItsPort() throws Exception
    {
        assertRefused(map("--port", "p1", "--core", "2"), "port p1's NIC is on NUMA node 1");
    }

    @Test
    void shouldRefuseABusyCoreOnACpuThatIsNotIsolatedOnlyWhenStrict() throws Exception
    {
        assertRefused(map("--agent", "journal", "--core", "1", "--strict"), "CPU 1 runs a busy thread");
    }

    @Test
    void shouldRefuseAnEditThatMakesACoreBusyOnACpuSharedWithAnother() throws Exception
    {
        Files.writeString(config, FILE.replace("cpu = 6\nagents = [\"session\"]", "cpu = 6\nagents = [\"session\"]\n" +
            "[[cores]]\ncpu = 1\nagents = [\"egress\"]\nidle = \"yield\"\n" +
            "[[cores]]\ncpu = 1\nagents = [\"housekeeping\"]\nidle = \"yield\"")
            .replace("\"journal\", \"egress\", \"housekeeping\"", "\"journal\""));
        final String before = Files.readString(config);
        assertEquals(0, map("--check").exitCode(), "two idling threads on one CPU are a warning");

        final CommandRun run = map("--idle", "busy-spin", "--core", "1");

        assertRefused(run, "CPU 1 is mapped by cores[3], cores[4] and a busy-spinning thread there starves the other",
            before);
    }

    @Test
    void shouldPrintTheEditedFileOnADryRunWithoutWritingIt() throws Exception
    {
        final CommandRun run = map("--agent", "housekeeping", "--core", "1", "--idle", "backoff", "--dry-run");

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().endsWith("[[cores]]\ncpu = 1\nagents = [\"housekeeping\"]\nidle = \"backoff\"\n"),
            run.out());
        assertEquals(FILE, Files.readString(config));
    }

    @Test
    void shouldRefuseAgentsAndPortsTheConfigurationDoesNotHave() throws Exception
    {
        assertUsage(map("--port", "p9", "--core", "2"), "--port p9 is not a port of " + config +
            "; give a name or an index: 0=p0, 1=p1");
        assertUsage(map("--port", "p0", "--queue", "5", "--core", "2"), "ingress:p0:5 is not an agent of " + config);
        assertUsage(map("--port", "p0", "--core", "2"), "port p0 has 2 queues; say which with --queue 0..1");
        assertUsage(map("--agent", "router", "--core", "2"), "--agent 'router' is not an agent");
        assertUsage(map("--agent", "journal"), "an edit needs --core CPU");
        assertUsage(map("--core", "3"), "--core needs --port, --agent or --idle");
        assertUsage(map("--check", "--agent", "journal", "--core", "1"), "--check only checks the map");
        assertUsage(map("--idle", "spin", "--core", "0"), "--idle 'spin' is not an idle strategy");
        assertEquals(FILE, Files.readString(config));
    }

    @Test
    void shouldRefuseAnInvalidConfigurationFileListingItsProblems() throws Exception
    {
        Files.writeString(config, FILE.replace("queues = 2", "queues = 0"));

        final CommandRun run = map();

        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains("ports[0].queues: must be from 1 to 64, is 0"), run.err());
    }

    private CommandRun map(final String... args)
    {
        final String[] all = new String[args.length + 4];
        all[0] = "--config";
        all[1] = config.toString();
        all[2] = "--sysfs-root";
        all[3] = sysfs.toString();
        System.arraycopy(args, 0, all, 4, args.length);
        return CommandRun.run(new MapCommand(), all);
    }

    private void assertRefused(final CommandRun run, final String message) throws Exception
    {
        assertRefused(run, message, FILE);
    }

    private void assertRefused(final CommandRun run, final String message, final String unchanged) throws Exception
    {
        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.err().contains("the edit is refused, " + config + " is unchanged"), run.err());
        assertTrue(run.err().contains(message), run.err());
        assertEquals(unchanged, Files.readString(config));
    }

    private static void assertUsage(final CommandRun run, final String message)
    {
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains(message), run.err());
    }
}
