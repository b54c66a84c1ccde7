package io.mdgate.runtime.config;

import io.mdgate.runtime.config.CoreMapValidator.Finding;
import io.mdgate.runtime.config.CoreMapValidator.Severity;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class CoreMapValidatorTest
{
    /** A valid map for {@link FakeHost#standard}: busy threads on isolated CPUs 2, 4, 6 of three physical cores. */
    public static final String CONFIG = """
        [feed]
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

        [[ports]]
        name = "p0"
        driver = "dpdk"
        pci = "0000:3b:00.0"
        queues = 2
        [[ports]]
        name = "p1"
        driver = "socket"
        interface = "eth1"

        [[cores]]
        cpu = 2
        agents = ["ingress:p0:0", "ingress:p0:1"]
        [[cores]]
        cpu = 4
        agents = ["ingress:p1:0"]
        [[cores]]
        cpu = 6
        agents = ["session"]
        [[cores]]
        cpu = 0
        agents = ["journal", "egress", "housekeeping"]
        idle = "backoff"
        """;

    @TempDir
    Path root;

    HostTopology topology;

    @BeforeEach
    void setUp()
    {
        topology = FakeHost.standard(root).topology();
    }

    @Test
    void shouldAcceptAMapThatFitsTheHost()
    {
        assertEquals(List.of(), validate(CONFIG, true));
    }

    @Test
    void shouldRefuseACoreThatDoesNotExist()
    {
        final List<Finding> findings = validate(CONFIG.replace("cpu = 6", "cpu = 9"), false);

        assertOnly(findings, Severity.ERROR, "cores[2].cpu",
            "CPU 9 does not exist on this host; use one of its online CPUs: 0-6");
    }

    @Test
    void shouldRefuseACoreThatIsOffline()
    {
        final List<Finding> findings = validate(CONFIG.replace("cpu = 6", "cpu = 7"), false);

        assertOnly(findings, Severity.ERROR, "cores[2].cpu", "CPU 7 is offline; bring it online " +
            "(echo 1 > /sys/devices/system/cpu/cpu7/online)");
    }

    @Test
    void shouldRefuseTwoBusySpinningCoresOnOneCpu()
    {
        final List<Finding> findings = validate(CONFIG.replace("cpu = 6", "cpu = 2"), false);

        assertOnly(findings, Severity.ERROR, "cores[2].cpu", "CPU 2 is mapped by cores[0], cores[2] and a " +
            "busy-spinning thread there starves the other");
    }

    @Test
    void shouldWarnAboutTwoIdlingCoresOnOneCpu()
    {
        final String config = CONFIG.replace("agents = [\"journal\", \"egress\", \"housekeeping\"]",
            "agents = [\"journal\", \"egress\"]") +
            "[[cores]]\ncpu = 0\nagents = [\"housekeeping\"]\nidle = \"yield\"\n";

        assertOnly(validate(config, true), Severity.WARNING, "cores[4].cpu",
            "CPU 0 is mapped by cores[3], cores[4], two threads taking turns");
    }

    @Test
    void shouldWarnAboutABusySpinOnACpuThatIsNotIsolatedAndRefuseItWhenStrict()
    {
        final String config = CONFIG.replace("idle = \"backoff\"", "idle = \"busy-spin\"");

        assertOnly(validate(config, false), Severity.WARNING, "cores[3].cpu",
            "CPU 0 runs a busy thread (idle = \"busy-spin\") but is not isolated (isolated CPUs: 2-6)");
        assertTrue(validate(config, false).get(0).message().contains("refused with --strict"));
        assertOnly(validate(config, true), Severity.ERROR, "cores[3].cpu", "isolcpus=0 nohz_full=0");
    }

    @Test
    void shouldTreatTheMarketHoursStrategyAsBusy()
    {
        final String config = CONFIG.replace("idle = \"backoff\"", "idle = \"market-hours\"");

        assertOnly(validate(config, true), Severity.ERROR, "cores[3].cpu", "CPU 0 runs a busy thread");
    }

    @Test
    void shouldRefuseBusyThreadsOnHyperthreadSiblings()
    {
        final List<Finding> findings = validate(CONFIG.replace("cpu = 6", "cpu = 5"), false);

        assertOnly(findings, Severity.ERROR, "cores[2].cpu",
            "CPU 5 is a hyperthread sibling of CPU 4 (cores[1]) and both run busy threads");
    }

    @Test
    void shouldAllowAnIdlingThreadOnTheSiblingOfABusyOne()
    {
        final String config = CONFIG.replace("cpu = 0\n", "cpu = 5\n");

        assertEquals(List.of(), validate(config, true));
    }

    @Test
    void shouldRefuseAnIngressOnAnotherNumaNodeThanItsPort()
    {
        final String config = CONFIG
            .replace("agents = [\"ingress:p0:0\", \"ingress:p0:1\"]", "agents = [\"ingress:p0:0\"]")
            .replace("agents = [\"ingress:p1:0\"]", "agents = [\"ingress:p1:0\", \"ingress:p0:1\"]");

        assertOnly(validate(config, false), Severity.ERROR, "cores[1].cpu", "ingress:p0:1 runs on CPU 4 (NUMA " +
            "node 1) but port p0's NIC is on NUMA node 0, so every packet crosses between nodes; map it to a CPU " +
            "of node 0: 0-3");
    }

    @Test
    void shouldRefuseAPortQueueMappedTwice()
    {
        final String config = CONFIG.replace("agents = [\"journal\",", "agents = [\"ingress:p0:1\", \"journal\",");

        assertOnly(validate(config, false), Severity.ERROR, "cores[3].agents",
            "ingress:p0:1 is mapped twice, here and on cores[0] (CPU 2)");
    }

    @Test
    void shouldRefuseAnyAgentMappedTwice()
    {
        final String config = CONFIG.replace("agents = [\"session\"]", "agents = [\"session\", \"housekeeping\"]");

        assertOnly(validate(config, false), Severity.ERROR, "cores[3].agents", "housekeeping is mapped twice");
    }

    @Test
    void shouldAcceptEveryAgentOnOneThreadAndNameItRunToCompletion()
    {
        final String config = CONFIG.substring(0, CONFIG.indexOf("[[cores]]")) + """
            [[cores]]
            cpu = 2
            agents = ["egress", "ingress:p0:0", "session", "journal", "ingress:p0:1", "ingress:p1:0"]
            [[cores]]
            cpu = 0
            agents = ["housekeeping"]
            idle = "backoff"
            """;

        final GatewayConfig parsed = ConfigLoader.parse(config);
        // This host's two NICs sit on two NUMA nodes, which one CPU cannot both be near: that finding is not about
        // the shape.
        assertEquals(List.of(), CoreMapValidator.validate(parsed, topology, false).stream()
            .filter(f -> Severity.ERROR == f.severity() && CoreMapValidator.Check.NUMA != f.check()).toList());
        assertTrue(CoreMapValidator.shape(parsed).startsWith("shape: run-to-completion"),
            CoreMapValidator.shape(parsed));
        assertTrue(CoreMapValidator.shape(ConfigLoader.parse(CONFIG)).startsWith("shape: pipeline: ingress:p0:0, " +
            "ingress:p0:1, ingress:p1:0, journal, egress on other threads"), CoreMapValidator.shape(ConfigLoader.parse(CONFIG)));
    }

    @Test
    void shouldRefuseAMapThatLeavesAnAgentOut()
    {
        final String config = CONFIG.replace("agents = [\"ingress:p0:0\", \"ingress:p0:1\"]",
            "agents = [\"ingress:p0:0\"]").replace("\"journal\", ", "");

        final List<Finding> findings = validate(config, false);

        assertEquals(2, findings.size(), findings.toString());
        assertHas(findings, Severity.ERROR, "cores", "agent ingress:p0:1 is on no core; add \"ingress:p0:1\" to " +
            "the agents of a [[cores]] entry (or `mdgate map --port p0 --queue 1 --core N`)");
        assertHas(findings, Severity.ERROR, "cores", "agent journal is on no core");
    }

    @Test
    void shouldRefuseIngressAgentsOfUnknownPortsAndQueues()
    {
        final String config = CONFIG.replace("agents = [\"session\"]",
            "agents = [\"session\", \"ingress:p9:0\", \"ingress:p0:2\"]");

        final List<Finding> findings = validate(config, false);

        assertEquals(2, findings.size(), findings.toString());
        assertHas(findings, Severity.ERROR, "cores[2].agents",
            "ingress:p9:0 names port 'p9', which is not in [[ports]]; use one of p0, p1");
        assertHas(findings, Severity.ERROR, "cores[2].agents",
            "ingress:p0:2 names queue 2 but port p0 has 2 queues (0..1)");
    }

    @Test
    void shouldRefuseAnIngressOfAPortWithoutLinesAndAJournalThatIsDisabled()
    {
        final String config = CONFIG.replace("port_name = \"p1\"", "port_name = \"p0\"\nport = 26478")
            .replace("port = 26477\nport_name = \"p0\"\nport = 26478", "port_name = \"p0\"\nport = 26478") +
            "[journal]\nenabled = false\n";

        final List<Finding> findings = validate(config, false);

        assertHas(findings, Severity.ERROR, "cores[1].agents", "ingress:p1:0: port p1 receives no feed line");
        assertHas(findings, Severity.ERROR, "cores[3].agents", "journal is mapped but the journal is disabled");
    }

    @Test
    void shouldRefuseAnEmptyMapListingTheAgentsToPlace()
    {
        final String config = CONFIG.substring(0, CONFIG.indexOf("[[cores]]"));

        assertOnly(validate(config, false), Severity.ERROR, "cores", "the core map is empty; add [[cores]] entries " +
            "that place every agent: ingress:p0:0, ingress:p0:1, ingress:p1:0, session, journal, egress, housekeeping");
    }

    @Test
    void shouldReportEveryProblemOfAMapAtOnce()
    {
        final String config = CONFIG.replace("cpu = 6", "cpu = 9").replace("cpu = 4", "cpu = 3")
            .replace("\"journal\", ", "");

        final List<Finding> findings = validate(config, false);

        assertTrue(CoreMapValidator.hasErrors(findings));
        assertHas(findings, Severity.ERROR, "cores[2].cpu", "CPU 9 does not exist");
        assertHas(findings, Severity.ERROR, "cores[1].cpu", "CPU 3 is a hyperthread sibling of CPU 2");
        assertHas(findings, Severity.ERROR, "cores[1].cpu", "port p1's NIC is on NUMA node 1");
        assertHas(findings, Severity.ERROR, "cores", "agent journal is on no core");
        assertFalse(CoreMapValidator.hasErrors(validate(CONFIG, false)));
    }

    @Test
    void shouldTagEachFindingWithWhatItIsAbout()
    {
        assertEquals(List.of(CoreMapValidator.Check.CPU_MISSING),
            checks(validate(CONFIG.replace("cpu = 6", "cpu = 9"), false)));
        assertEquals(List.of(CoreMapValidator.Check.CPU_OFFLINE),
            checks(validate(CONFIG.replace("cpu = 6", "cpu = 7"), false)));
        assertEquals(List.of(CoreMapValidator.Check.SHARED_CPU),
            checks(validate(CONFIG.replace("cpu = 6", "cpu = 2"), false)));
        assertEquals(List.of(CoreMapValidator.Check.SIBLINGS),
            checks(validate(CONFIG.replace("cpu = 6", "cpu = 5"), false)));
        assertEquals(List.of(CoreMapValidator.Check.NOT_ISOLATED),
            checks(validate(CONFIG.replace("idle = \"backoff\"", "idle = \"busy-spin\""), false)));
        assertEquals(List.of(CoreMapValidator.Check.MAPPED_TWICE, CoreMapValidator.Check.AGENT_MISSING),
            checks(validate(CONFIG.replace("agents = [\"session\"]", "agents = [\"egress\"]"), false)));
        assertEquals(List.of(CoreMapValidator.Check.AGENT_UNKNOWN),
            checks(validate(CONFIG.replace("agents = [\"session\"]", "agents = [\"session\", \"ingress:p2:0\"]"),
                false)));
    }

    private static List<CoreMapValidator.Check> checks(final List<Finding> findings)
    {
        return findings.stream().map(Finding::check).toList();
    }

    private List<Finding> validate(final String toml, final boolean strict)
    {
        return CoreMapValidator.validate(ConfigLoader.parse(toml), topology, strict);
    }

    private static void assertOnly(
        final List<Finding> findings, final Severity severity, final String where, final String message)
    {
        assertEquals(1, findings.size(), findings.toString());
        assertHas(findings, severity, where, message);
    }

    private static void assertHas(
        final List<Finding> findings, final Severity severity, final String where, final String message)
    {
        assertTrue(findings.stream().anyMatch((f) -> f.severity() == severity && f.where().equals(where) &&
            f.message().contains(message)), "expected " + severity + " at " + where + " containing <" + message +
            "> in " + findings);
    }
}
