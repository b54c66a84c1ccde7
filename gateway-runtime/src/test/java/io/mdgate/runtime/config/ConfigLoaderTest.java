package io.mdgate.runtime.config;

import io.mdgate.journal.JournalRollCycle;

import io.mdgate.runtime.config.GatewayConfig.AgentKind;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Driver;
import io.mdgate.runtime.config.GatewayConfig.IdleKind;
import io.mdgate.runtime.config.GatewayConfig.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class ConfigLoaderTest
{
    /** A file with every section, most keys set (gateway-app's command tests start from it too). */
    public static final String FULL = """
        [gateway]
        name = "mdgate-a"
        counters_file = "/dev/shm/mdgate-a/counters"
        hlog_dir = "/var/log/mdgate"
        ring_bytes = 1048576

        [feed]
        session = "TEST000001"
        gap_wait_ms = 3
        retransmit = "10.0.0.1:26478"
        stale_after_ms = 1500

        [[feed.lines]]
        name = "A"
        group = "233.54.12.111"
        port = 26477
        port_name = "p0"

        [[feed.lines]]
        name = "B"
        group = "233.54.12.112"
        port = 26477
        port_name = "p1"

        [dpdk]
        eal_args = ["--no-huge", "-m", "512"]

        [[ports]]
        name = "p0"
        driver = "dpdk"
        vdev = "net_af_packet0,iface=veth-a"
        queues = 2

        [[ports]]
        name = "p1"
        driver = "socket"
        interface = "veth-b"

        [journal]
        enabled = true
        dir = "/var/lib/mdgate/journal"

        [egress]
        transport = "shm"
        shm_dir = "/dev/shm"
        instance = "mdgate"
        mtu = 4096

        [[egress.consumers]]
        name = "strat1"
        token = "secret-1"

        [[egress.consumers]]
        name = "strat2"
        token = "secret-2"

        [market_hours]
        zone = "America/New_York"
        open = "09:25"
        close = "16:05"
        outside = "park:1ms"

        [[cores]]
        cpu = 1
        agents = ["ingress:p0:0", "ingress:p0:1", "session"]
        idle = "busy-spin"

        [[cores]]
        cpu = 0
        agents = ["ingress:p1:0", "journal", "egress", "housekeeping"]
        idle = "sleep:500us"
        """;

    /** The smallest valid file (gateway-app's command tests start from it too). */
    public static final String MINIMAL = """
        [feed]
        [[feed.lines]]
        name = "A"
        group = "233.54.12.111"
        port = 26477

        [[ports]]
        name = "p0"
        driver = "socket"
        interface = "lo"
        """;

    @Test
    void shouldReadEveryKeyOfAFullConfiguration()
    {
        final GatewayConfig config = ConfigLoader.parse(FULL);

        assertEquals("mdgate-a", config.gateway().name());
        assertEquals(Path.of("/dev/shm/mdgate-a/counters"), config.gateway().countersFile());
        assertEquals(Path.of("/var/log/mdgate"), config.gateway().hlogDir());
        assertEquals(1048576, config.gateway().ringBytes());

        assertEquals("TEST000001", config.feed().session());
        assertEquals(3, config.feed().gapWaitMs());
        assertEquals("10.0.0.1", config.feed().retransmit().orElseThrow().getAddress().getHostAddress());
        assertEquals(26478, config.feed().retransmit().orElseThrow().getPort());
        assertEquals(1500, config.feed().staleAfterMs());
        assertEquals(2, config.feed().lines().size());
        assertEquals("233.54.12.111:26477", config.feed().line("A").orElseThrow().endpoint());
        assertEquals("p1", config.feed().line("B").orElseThrow().portName());
        assertEquals(1, config.feed().line("B").orElseThrow().index());

        assertEquals(List.of("--no-huge", "-m", "512"), config.dpdk().ealArgs());

        assertEquals(2, config.ports().size());
        assertEquals(Driver.DPDK, config.port("p0").orElseThrow().driver());
        assertEquals("net_af_packet0,iface=veth-a", config.port("p0").orElseThrow().vdev());
        assertEquals(2, config.port("p0").orElseThrow().queues());
        assertEquals(Driver.SOCKET, config.port("p1").orElseThrow().driver());
        assertEquals("veth-b", config.port("p1").orElseThrow().interfaceName());

        assertTrue(config.journal().enabled());
        assertEquals(Path.of("/var/lib/mdgate/journal"), config.journal().dir());

        assertEquals(Transport.SHM, config.egress().transport());
        assertEquals("mdgate", config.egress().instance());
        assertEquals(4096, config.egress().mtu());
        assertEquals(2, config.egress().consumers().size());
        assertEquals("strat2", config.egress().consumers().get(1).name());
        assertEquals("secret-2", config.egress().consumers().get(1).token());
        assertFalse(config.egress().consumers().get(1).toString().contains("secret"));

        assertEquals(ZoneId.of("America/New_York"), config.marketHours().zone());
        assertEquals(LocalTime.of(9, 25), config.marketHours().open());
        assertEquals(LocalTime.of(16, 5), config.marketHours().close());
        assertEquals(Duration.ofMillis(1), config.marketHours().outsidePark());

        assertEquals(2, config.cores().size());
        assertEquals(1, config.cores().get(0).cpu());
        assertEquals(List.of(AgentRef.ingress("p0", 0), AgentRef.ingress("p0", 1), AgentRef.of(AgentKind.SESSION)),
            config.cores().get(0).agents());
        assertEquals(IdleKind.BUSY_SPIN, config.cores().get(0).idle().kind());
        assertEquals(IdleKind.SLEEP, config.cores().get(1).idle().kind());
        assertEquals(Duration.ofNanos(500_000), config.cores().get(1).idle().sleep());
    }

    @Test
    void shouldFillDefaultsDerivedFromTheGatewayName()
    {
        final GatewayConfig config =
            ConfigLoader.parse(MINIMAL.replace("[feed]", "[gateway]\nname = \"edge\"\n[feed]"));

        assertEquals(Path.of("/dev/shm/mdgate-edge/counters"), config.gateway().countersFile());
        assertEquals(Path.of("/var/log/mdgate/edge"), config.gateway().hlogDir());
        assertEquals(Path.of("/var/lib/mdgate/edge/journal"), config.journal().dir());
        assertEquals("edge", config.egress().instance());
        assertEquals(ConfigLoader.DEFAULT_RING_BYTES, config.gateway().ringBytes());
        assertEquals("", config.feed().session());
        assertEquals(2, config.feed().gapWaitMs());
        assertTrue(config.feed().retransmit().isEmpty());
        assertEquals("p0", config.feed().line("A").orElseThrow().portName());
        assertEquals(1, config.port("p0").orElseThrow().queues());
        assertTrue(config.cores().isEmpty());
        assertTrue(config.dpdk().ealArgs().isEmpty());
    }

    @Test
    void shouldListTheAgentsEveryConfigurationNeeds()
    {
        final GatewayConfig config = ConfigLoader.parse(FULL);

        assertEquals(List.of(AgentRef.ingress("p0", 0), AgentRef.ingress("p0", 1), AgentRef.ingress("p1", 0),
            AgentRef.of(AgentKind.SESSION), AgentRef.of(AgentKind.JOURNAL), AgentRef.of(AgentKind.EGRESS),
            AgentRef.of(AgentKind.HOUSEKEEPING)), config.requiredAgents());
    }

    @Test
    void shouldLoadAFileAndNameItInProblems(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("gw.toml");
        Files.writeString(file, FULL);
        assertEquals("mdgate-a", ConfigLoader.load(file).gateway().name());

        Files.writeString(file, FULL.replace("port = 26477\nport_name = \"p1\"", "port = 70000\nport_name = \"p1\""));
        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.load(file));
        assertTrue(ex.getMessage().startsWith(file.toString()), ex.getMessage());
        assertProblem(ex, "feed.lines[1].port: must be from 1 to 65535, is 70000");
    }

    @Test
    void shouldSayWhenTheFileIsMissing(@TempDir final Path dir)
    {
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigLoader.load(dir.resolve("absent.toml")));
        assertProblem(ex, "no such file");
    }

    @Test
    void shouldReportTheLineOfInvalidToml()
    {
        final ConfigException ex = problems("[feed]\ngap_wait_ms = = 2\n");
        assertProblem(ex, "line 2: not valid TOML");
    }

    @Test
    void shouldListEveryProblemAtOnceWithItsKeyPath()
    {
        final String bad = FULL
            .replace("name = \"mdgate-a\"", "name = \"mdgate a\"")
            .replace("gap_wait_ms = 3", "gap_wait_ms = \"3\"")
            .replace("group = \"233.54.12.112\"", "group = \"10.1.2.3\"")
            .replace("driver = \"socket\"", "driver = \"kernel\"")
            .replace("mtu = 4096", "mtu = 64")
            .replace("close = \"16:05\"", "close = \"4pm\"")
            .replace("idle = \"sleep:500us\"", "idle = \"spin\"");

        final ConfigException ex = problems(bad);

        assertEquals(7, ex.problems().size(), ex.getMessage());
        assertProblem(ex, "gateway.name: 'mdgate a' must be 1 to 40 letters");
        assertProblem(ex, "feed.gap_wait_ms: must be a whole number from 0 to 60000, is the string \"3\"");
        assertProblem(ex, "feed.lines[1].group: '10.1.2.3' is not an IPv4 multicast group");
        assertProblem(ex, "ports[1].driver: 'kernel' is not a driver; use \"dpdk\" or \"socket\"");
        assertProblem(ex, "egress.mtu: must be from 128 to 65536, is 64");
        assertProblem(ex, "market_hours.close: '4pm' is not a time of day; write HH:MM");
        assertProblem(ex, "cores[1].idle: 'spin' is not an idle strategy; use busy-spin");
        assertTrue(ex.getMessage().contains("7 problems"), ex.getMessage());
    }

    @Test
    void shouldRefuseUnknownKeysSuggestingTheClosest()
    {
        final ConfigException ex = problems(FULL.replace("gap_wait_ms = 3", "gap_wiat_ms = 3")
            .replace("[journal]", "[jornal]"));

        assertProblem(ex, "feed.gap_wiat_ms: unknown key; did you mean 'gap_wait_ms'?");
        assertProblem(ex, "jornal: unknown key; did you mean 'journal'?");
    }

    @Test
    void shouldRequireTheFeedAndAtLeastOnePort()
    {
        final ConfigException ex = problems("[gateway]\nname = \"x\"\n");

        assertProblem(ex, "ports: missing; add at least one [[ports]] table");
        assertProblem(ex, "feed: missing; add a [feed] table");
        assertProblem(ex, "feed.lines: missing; add at least one [[feed.lines]] table");
    }

    @Test
    void shouldRefuseLinesOtherThanAAndB()
    {
        assertProblem(problems(MINIMAL.replace("name = \"A\"", "name = \"C\"")),
            "feed.lines[0].name: 'C' is not a line; the lines are named \"A\" and \"B\"");
        assertProblem(problems(MINIMAL.replace("name = \"A\"", "name = \"B\"")),
            "feed.lines[0].name: there is no line A");
        assertProblem(problems(FULL.replace("name = \"B\"", "name = \"A\"")),
            "feed.lines[1].name: line A is configured twice");
    }

    @Test
    void shouldRefuseTwoLinesOnTheSameGroupAndPort()
    {
        final ConfigException ex = problems(FULL.replace("233.54.12.112", "233.54.12.111")
            .replace("port_name = \"p1\"", "port_name = \"p0\""));

        assertProblem(ex, "feed.lines[1].group: lines A and B both use 233.54.12.111:26477 on port p0");
    }

    @Test
    void shouldRefuseALineOnAnUnknownPort()
    {
        assertProblem(problems(FULL.replace("port_name = \"p1\"", "port_name = \"p9\"")),
            "feed.lines[1].port_name: 'p9' is not a port; use one of the [[ports]] names: p0, p1");
    }

    @Test
    void shouldRequireThePortNameWhenThereAreSeveralPorts()
    {
        assertProblem(problems(FULL.replace("port_name = \"p1\"\n", "")),
            "feed.lines[1].port_name: missing; say which [[ports]] entry receives this line, one of p0, p1");
    }

    @Test
    void shouldRefuseASessionLongerThanMoldUdp64Allows()
    {
        assertProblem(problems(FULL.replace("TEST000001", "TEST0000012")),
            "feed.session: 'TEST0000012' must be at most 10 printable ASCII characters");
    }

    @Test
    void shouldRefuseARetransmitServerThatIsNotAnAddressAndPort()
    {
        assertProblem(problems(FULL.replace("10.0.0.1:26478", "retrans.example:abc")),
            "feed.retransmit: 'retrans.example:abc' is not an IPv4 address and UDP port");
    }

    @Test
    void shouldRefuseDuplicatePortNames()
    {
        assertProblem(problems(FULL.replace("name = \"p1\"", "name = \"p0\"")),
            "ports[1].name: port 'p0' is configured twice");
    }

    @Test
    void shouldRequireExactlyOneDeviceOfADpdkPort()
    {
        assertProblem(problems(FULL.replace("vdev = \"net_af_packet0,iface=veth-a\"", "")),
            "ports[0].vdev: a dpdk port needs exactly one of vdev");
        assertProblem(problems(FULL.replace("vdev = \"net_af_packet0,iface=veth-a\"",
            "vdev = \"net_af_packet0,iface=veth-a\"\npci = \"0000:3b:00.0\"")), "; both are set");
        assertProblem(problems(FULL.replace("vdev = \"net_af_packet0,iface=veth-a\"", "pci = \"3b:00\"")),
            "ports[0].pci: '3b:00' is not a PCI address");
        assertProblem(problems(FULL.replace("queues = 2", "queues = 2\ninterface = \"eth1\"")),
            "ports[0].interface: only socket ports have an interface");
    }

    @Test
    void shouldRequireAnInterfaceAndOneQueueOfASocketPort()
    {
        assertProblem(problems(FULL.replace("interface = \"veth-b\"", "")),
            "ports[1].interface: a socket port needs the interface");
        assertProblem(problems(FULL.replace("interface = \"veth-b\"", "interface = \"veth-b\"\nqueues = 4")),
            "ports[1].queues: a socket port has one queue");
        assertProblem(problems(FULL.replace("interface = \"veth-b\"", "interface = \"veth-b\"\nvdev = \"x\"")),
            "ports[1].vdev: only dpdk ports have a vdev or pci");
    }

    @Test
    void shouldRefuseEalArgumentsThatMdgateSetsItself()
    {
        final ConfigException ex = problems(FULL.replace("\"--no-huge\"", "\"--vdev=net_null0\", \"-l\", \"1\""));

        assertProblem(ex, "dpdk.eal_args: '--vdev=net_null0' is set by mdgate");
        assertProblem(ex, "dpdk.eal_args: '-l' is set by mdgate");
    }

    @Test
    void shouldRefuseRingSizesThatAreNotPowersOfTwo()
    {
        assertProblem(problems(FULL.replace("ring_bytes = 1048576", "ring_bytes = 1000000")),
            "gateway.ring_bytes: 1000000 is not a power of two; use e.g. 524288 or 1048576");
    }

    @Test
    void shouldKeepFiveRunsAndEveryHourlyJournalCycleWithAOneGibibyteFloorByDefault()
    {
        final GatewayConfig config = ConfigLoader.parse(FULL);

        assertEquals(5, config.gateway().keepRuns());
        assertEquals(JournalRollCycle.HOURLY, config.journal().rollCycle());
        assertEquals(0, config.journal().retainCycles());
        assertEquals(1024, config.journal().minFreeMb());
    }

    @Test
    void shouldReadTheRunsKeptAndTheJournalsRollCycleRetentionAndFreeSpaceFloor()
    {
        final GatewayConfig config = ConfigLoader.parse(FULL
            .replace("ring_bytes = 1048576", "ring_bytes = 1048576\nkeep_runs = 0")
            .replace("dir = \"/var/lib/mdgate/journal\"", "dir = \"/var/lib/mdgate/journal\"\n" +
                "roll_cycle = \"five-minutely\"\nretain_cycles = 12\nmin_free_mb = 0"));

        assertEquals(0, config.gateway().keepRuns());
        assertEquals(JournalRollCycle.FIVE_MINUTELY, config.journal().rollCycle());
        assertEquals(12, config.journal().retainCycles());
        assertEquals(0, config.journal().minFreeMb());
    }

    @Test
    void shouldRefuseBadRunsKeptAndBadJournalRollCycleRetentionOrFreeSpaceFloor()
    {
        final String journal = "dir = \"/var/lib/mdgate/journal\"";
        final ConfigException cycle = problems(FULL.replace(journal, journal + "\nroll_cycle = \"fortnightly\""));
        System.out.println(cycle.getMessage().lines().findFirst().orElse(""));
        assertProblem(cycle, "journal.roll_cycle: 'fortnightly' is not a roll cycle; expected one of five-minutely");
        assertProblem(problems(FULL.replace(journal, journal + "\nretain_cycles = -1")), "journal.retain_cycles");
        assertProblem(problems(FULL.replace(journal, journal + "\nmin_free_mb = -5")), "journal.min_free_mb");
        assertProblem(problems(FULL.replace(journal, journal + "\nmin_free_mb = \"1G\"")), "journal.min_free_mb");
        assertProblem(problems(FULL.replace("ring_bytes = 1048576", "ring_bytes = 1048576\nkeep_runs = 101")),
            "gateway.keep_runs");
    }

    @Test
    void shouldRefuseUnknownTransportsAndDuplicateOrEmptyConsumers()
    {
        assertProblem(problems(FULL.replace("transport = \"shm\"", "transport = \"tcp\"")),
            "egress.transport: 'tcp' is not a transport; use \"shm\" or \"verbs\"");
        assertProblem(problems(FULL.replace("strat2", "strat1")),
            "egress.consumers[1].name: consumer 'strat1' is configured twice");
        assertProblem(problems(FULL.replace("\"secret-1\"", "\"\"")), "egress.consumers[0].token: empty");
        assertProblem(problems(FULL.replace("token = \"secret-1\"\n", "")),
            "egress.consumers[0].token: missing");
    }

    @Test
    void shouldRefuseMarketHoursThatDoNotMakeSense()
    {
        assertProblem(problems(FULL.replace("America/New_York", "Mars/Olympus")),
            "market_hours.zone: 'Mars/Olympus' is not a time zone");
        assertProblem(problems(FULL.replace("open = \"09:25\"", "open = \"17:00\"")),
            "market_hours.close: 16:05 is not after open 17:00");
        assertProblem(problems(FULL.replace("park:1ms", "park:5s")),
            "market_hours.outside: 'park:5s' must park more than 0 and at most 1s");
        assertProblem(problems(FULL.replace("park:1ms", "sleep")),
            "market_hours.outside: 'sleep' is not an outside-hours strategy");
    }

    @Test
    void shouldRefuseCoreEntriesThatCannotBeParsed()
    {
        final ConfigException ex = problems(FULL
            .replace("\"ingress:p0:1\"", "\"ingress:p0:x\"")
            .replace("\"housekeeping\"", "\"cleanup\"")
            .replace("cpu = 0\n", "cpu = -1\n"));

        assertProblem(ex, "cores[0].agents[1]: 'ingress:p0:x' has queue 'x'");
        assertProblem(ex, "cores[1].agents[3]: 'cleanup' is not an agent");
        assertProblem(ex, "cores[1].cpu: must be from 0 to 4095, is -1");
        assertProblem(problems(FULL.replace("agents = [\"ingress:p1:0\", \"journal\", \"egress\", \"housekeeping\"]",
            "agents = []")), "cores[1].agents: empty");
    }

    @Test
    void shouldRefuseValuesOfTheWrongType()
    {
        final ConfigException ex = problems(FULL
            .replace("enabled = true", "enabled = \"yes\"")
            .replace("eal_args = [\"--no-huge\", \"-m\", \"512\"]", "eal_args = \"--no-huge\"")
            .replace("[gateway]", "gateway = 3\n[gatewayx]"));

        assertProblem(ex, "journal.enabled: must be true or false (no quotes), is the string \"yes\"");
        assertProblem(ex, "dpdk.eal_args: must be an array of strings");
        assertProblem(ex, "gateway: must be a table ([gateway]), is the number 3");
    }

    @Test
    void shouldParseAndPrintAgentsAndIdleStrategiesBothWays()
    {
        for (final String text : List.of("ingress:p0:3", "session", "journal", "egress", "housekeeping"))
        {
            assertEquals(text, AgentRef.parse(text).toString());
        }
        for (final String text : List.of("busy-spin", "yield", "backoff", "sleep:2ms", "sleep:250us", "market-hours"))
        {
            assertEquals(text, GatewayConfig.Idle.parse(text).toString());
        }
        assertTrue(GatewayConfig.Idle.parse("market-hours").busy());
        assertFalse(GatewayConfig.Idle.parse("backoff").busy());
        assertThrows(IllegalArgumentException.class, () -> AgentRef.parse("ingress:p0"));
        assertThrows(IllegalArgumentException.class, () -> AgentRef.parse("session:1"));
        assertThrows(IllegalArgumentException.class, () -> GatewayConfig.Idle.parse("sleep:0ms"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("3 fortnights"));
    }

    static ConfigException problems(final String toml)
    {
        return assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml));
    }

    static void assertProblem(final ConfigException ex, final String expected)
    {
        assertTrue(ex.problems().stream().anyMatch((p) -> p.contains(expected)),
            "expected a problem containing <" + expected + "> in:\n" + ex.getMessage());
    }
}
