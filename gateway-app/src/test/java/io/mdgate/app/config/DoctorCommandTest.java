package io.mdgate.app.config;

import io.mdgate.runtime.config.CoreMapValidatorTest;
import io.mdgate.runtime.config.FakeHost;

import com.fasterxml.jackson.databind.JsonNode;
import io.mdgate.app.JsonFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DoctorCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldPassAWellTunedHost()
    {
        final Path root = tunedHost();

        final CommandRun run = doctor(root);

        assertEquals(0, run.exitCode(), run.toString());
        assertLine(run, "ok    dpdk-drivers    3 network drivers, e.g. af_packet, af_xdp, mlx5");
        assertLine(run, "ok    hugepages       1024 x 2048kB (1000 free)");
        assertLine(run, "ok    hugetlbfs       mounted");
        assertLine(run, "ok    rdma            rxe0 port 1: 4: ACTIVE, Ethernet, GID fe80:0000:0000:0000:5054:00ff:" +
            "fe12:3456, netdev eth0 MTU 9000");
        assertLine(run, "ok    isolated-cpus   2-6");
        assertLine(run, "ok    nohz-full       2-6");
        assertLine(run, "ok    nic-numa        eth0 on node 0, eth1 on node 1; map each port's ingress");
        assertLine(run, "ok    memlock         unlimited");
        assertLine(run, "ok    clocksource     tsc");
        assertLine(run, "ok    cpu-governor    performance");
        assertTrue(run.out().contains("dpdk-library"), run.out());
    }

    @Test
    void shouldWarnAboutEachMissingTuningWithWhatToDo()
    {
        final Path root = dir.resolve("bare");
        new FakeHost(root)
            .file("/sys/devices/system/cpu/online", "0-3")
            .file("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave")
            .file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance")
            .file("/sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet")
            .file("/proc/self/limits", "Max open files            1024                 4096                 files\n" +
                "Max locked memory         8388608              8388608              bytes")
            .file("/proc/mounts", "proc /proc proc rw 0 0")
            .file("/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0/librte_net_pcap.so", "");

        final CommandRun run = doctor(root);

        assertEquals(0, run.exitCode(), run.toString());
        assertLine(run, "warn  dpdk-drivers    1 network driver, e.g. pcap; missing af_packet, af_xdp");
        assertLine(run, "warn  hugepages       none reserved");
        assertLine(run, "                      do: reserve some: echo 1024 > /sys/kernel/mm/hugepages/hugepages-2048kB/" +
            "nr_hugepages (deploy/tune-host.sh --apply)");
        assertLine(run, "warn  hugetlbfs       not mounted");
        assertLine(run, "warn  rdma            no RDMA device");
        assertLine(run, "                      do: for Soft-RoCE: modprobe rdma_rxe; rdma link add rxe0 type rxe " +
            "netdev IFACE");
        assertLine(run, "warn  isolated-cpus   no CPU is isolated");
        assertLine(run, "warn  memlock         locked-memory limit 8 MiB, too low");
        assertLine(run, "warn  clocksource     hpet: reading the clock is slow");
        assertLine(run, "warn  cpu-governor    CPUs 1 use [performance, powersave]");
        assertTrue(run.out().endsWith(" failures\n") || run.out().endsWith(" failure\n"), run.out());
    }

    @Test
    void shouldFailWithoutDpdkDrivers()
    {
        final Path root = dir.resolve("nodpdk");
        new FakeHost(root).file("/sys/devices/system/cpu/online", "0");

        final CommandRun run = doctor(root);

        assertEquals(1, run.exitCode(), run.toString());
        assertLine(run, "fail  dpdk-drivers    no DPDK network drivers");
    }

    @Test
    void shouldCheckAConfigurationItsCoreMapAndTheIrqsOfItsCpus() throws Exception
    {
        final Path root = tunedHost();
        final Path config = dir.resolve("gw.toml");
        Files.writeString(config, CoreMapValidatorTest.CONFIG);

        final CommandRun run = doctor(root, "--config", config.toString());

        assertEquals(0, run.exitCode(), run.toString());
        assertLine(run, "ok    config          " + config + " is valid");
        assertLine(run, "ok    core-map        valid on this host");
        assertLine(run, "warn  irq-affinity    IRQs [25] may be delivered to CPUs 2-6; CPUs [2, 5] have taken device " +
            "interrupts");
        assertLine(run, "ok    nic-numa        p0 on node 0, p1 on node 1");

        Files.writeString(config, CoreMapValidatorTest.CONFIG.replace("cpu = 6", "cpu = 7"));
        final CommandRun offline = doctor(root, "--config", config.toString());
        assertEquals(1, offline.exitCode(), offline.toString());
        assertLine(offline, "fail  core-map        error: cores[2].cpu: CPU 7 is offline");

        Files.writeString(config, CoreMapValidatorTest.CONFIG.replace("queues = 2", "queues = 0"));
        final CommandRun invalid = doctor(root, "--config", config.toString());
        assertEquals(1, invalid.exitCode(), invalid.toString());
        assertLine(invalid, "fail  config          ports[0].queues: must be from 1 to 64, is 0");
    }

    @Test
    void shouldFailPortsCpusAndHugepagesTheConfigurationNeedsButTheHostLacks() throws Exception
    {
        final Path root = tunedHost();
        final Path config = dir.resolve("gw.toml");
        Files.writeString(config, "[dpdk]\neal_args = [\"--in-memory\", \"-m\", \"4096\"]\n" +
            CoreMapValidatorTest.CONFIG.replace("0000:3b:00.0", "0000:3b:00.1").replace("\"eth1\"", "\"ens9\"")
            .replace("cpu = 6", "cpu = 9"));

        final CommandRun run = doctor(root, "--config", config.toString());

        assertEquals(1, run.exitCode(), run.toString());
        assertLine(run, "fail  nic-numa        port p0: PCI device 0000:3b:00.1 does not exist on this host; port p1: " +
            "network interface ens9 does not exist on this host");
        assertLine(run, "                      do: set [[ports]] pci or interface to a device of this host: PCI " +
            "network devices none; interfaces eth0, eth1");
        assertLine(run, "fail  irq-affinity    the configuration maps cores to CPUs 9, which this host does not " +
            "have online (online: 0-6)");
        assertLine(run, "fail  hugepages       the configuration's DPDK ports need 4096 MiB of hugepages, 2000 MiB " +
            "free (1024 x 2048kB (1000 free))");
        assertLine(run, "                      do: reserve them: echo 2048 > /sys/kernel/mm/hugepages/");
    }

    @Test
    void shouldFailTheShippedApplianceConfigurationOnAHostWithoutItsDevicesOrHugepages() throws Exception
    {
        final Path appliance = Path.of("..", "deploy", "conf", "appliance.toml");
        assumeTrue(Files.isRegularFile(appliance), "deploy/conf/appliance.toml not found");
        final Path root = dir.resolve("small");
        FakeHost.standard(root).file("/sys/devices/system/cpu/online", "0-1");

        final CommandRun run = doctor(root, "--config", appliance.toString());

        assertEquals(1, run.exitCode(), run.toString());
        assertLine(run, "fail  nic-numa        port p1: PCI device 0000:3b:00.1 does not exist on this host");
        assertLine(run, "fail  irq-affinity    the configuration maps cores to CPUs ");
        assertLine(run, "fail  hugepages       the configuration's DPDK ports need 1024 MiB of hugepages, none " +
            "reserved");
    }

    @Test
    void shouldPrintJson() throws Exception
    {
        final CommandRun run = doctor(dir.resolve("empty"), "--json");

        assertEquals(1, run.exitCode(), run.toString());
        final JsonNode json = JsonFields.oneObjectLine(run.out());
        assertEquals(List.of("ok", "checks"), JsonFields.names(json));
        assertEquals(List.of("check", "status", "detail", "action"), JsonFields.names(json.get("checks").get(0)));
        assertFalse(json.get("ok").asBoolean());
        boolean sawDrivers = false;
        for (final JsonNode check : json.get("checks"))
        {
            if ("dpdk-drivers".equals(check.get("check").asText()))
            {
                sawDrivers = true;
                assertEquals("fail", check.get("status").asText());
                assertTrue(check.get("action").asText().contains("deploy/setup.sh"));
            }
        }
        assertTrue(sawDrivers, run.out());
    }

    @Test
    void shouldCheckThisHost()
    {
        final CommandRun run = CommandRun.run(new DoctorCommand());

        assertTrue(run.out().contains("clocksource"), run.toString());
        assertTrue(run.out().matches("(?s).*\\d+ ok, \\d+ warnings?, \\d+ failures?\\n"), run.out());
    }

    private Path tunedHost()
    {
        final Path root = dir.resolve("tuned");
        final FakeHost host = FakeHost.standard(root)
            .file("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", "1024")
            .file("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "1000")
            .file("/proc/mounts", "hugetlbfs /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0")
            .file("/sys/class/infiniband/rxe0/ports/1/state", "4: ACTIVE")
            .file("/sys/class/infiniband/rxe0/ports/1/link_layer", "Ethernet")
            .file("/sys/class/infiniband/rxe0/ports/1/gids/0", "fe80:0000:0000:0000:5054:00ff:fe12:3456")
            .file("/sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0", "eth0")
            .file("/sys/class/net/eth0/mtu", "9000")
            .file("/proc/self/limits", "Max locked memory         unlimited            unlimited            bytes")
            .file("/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc");
        for (final String driver : new String[] {"af_packet", "af_xdp", "mlx5"})
        {
            host.file("/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0/librte_net_" + driver + ".so", "");
        }
        for (int cpu = 0; cpu < 7; cpu++)
        {
            host.file("/sys/devices/system/cpu/cpu" + cpu + "/cpufreq/scaling_governor", "performance");
        }
        return root;
    }

    private static CommandRun doctor(final Path root, final String... args)
    {
        final String[] all = new String[args.length + 2];
        all[0] = "--sysfs-root";
        all[1] = root.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return CommandRun.run(new DoctorCommand(), all);
    }

    private static void assertLine(final CommandRun run, final String start)
    {
        assertTrue(run.out().lines().anyMatch((l) -> l.startsWith(start)), "no line starting <" + start + "> in\n" +
            run.out());
    }
}
