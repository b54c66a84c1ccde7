package io.mdgate.app.config;

import io.mdgate.runtime.config.FakeHost;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
 * Runs deploy/tune-host.sh against a fake /sys and /proc (MDGATE_HOST_ROOT), so its report and --apply are tested
 * without touching this host.
 */
class TuneHostScriptTest
{
    static final Path SCRIPT = Path.of("..", "deploy", "tune-host.sh");

    @TempDir
    Path root;

    @BeforeEach
    void setUp()
    {
        assumeTrue(Files.isExecutable(SCRIPT), "deploy/tune-host.sh not found from " + Path.of("").toAbsolutePath());
        new FakeHost(root)
            .file("/sys/devices/system/cpu/online", "0-3")
            .file("/sys/devices/system/cpu/isolated", "2-3")
            .file("/proc/cmdline", "root=/dev/sda isolcpus=managed_irq,domain,2-3 nohz_full=2-3")
            .file("/proc/irq/24/smp_affinity_list", "0-3")
            .file("/proc/irq/25/smp_affinity_list", "0")
            .file("/proc/irq/26/smp_affinity_list", "3")
            .file("/proc/mounts", "hugetlbfs /dev/hugepages hugetlbfs rw 0 0")
            .file("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", "0")
            .file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave")
            .file("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance");
    }

    @Test
    void shouldReportWhatItWouldChangeWithoutChangingAnything() throws Exception
    {
        final Result result = run();

        assertEquals(1, result.exitCode, result.output);
        assertTrue(result.output.contains("would change: reserve 1024 x 2 MiB hugepages (now 0)"), result.output);
        assertTrue(result.output.contains("ok: isolcpus covers 2,3"), result.output);
        assertTrue(result.output.contains("add 'rcu_nocbs=2,3' to GRUB_CMDLINE_LINUX"), result.output);
        assertTrue(result.output.contains("would change: IRQ 24 from CPUs 0-3 to 0,1"), result.output);
        assertTrue(result.output.contains("would change: IRQ 26 from CPUs 3 to 0,1"), result.output);
        assertTrue(!result.output.contains("IRQ 25"), result.output);
        assertTrue(result.output.contains("would change: CPU 0 governor powersave -> performance"), result.output);
        assertTrue(result.output.contains("run with --apply"), result.output);
        assertEquals("0-3", read("/proc/irq/24/smp_affinity_list"));
        assertEquals("0", read("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"));
        assertEquals("powersave", read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
    }

    @Test
    void shouldApplyWhatCanChangeAtRunTime() throws Exception
    {
        final Result result = run("--apply", "--hugepages", "512");

        assertTrue(result.output.contains("changed: IRQ 24 from CPUs 0-3 to 0,1"), result.output);
        assertEquals("0,1", read("/proc/irq/24/smp_affinity_list"));
        assertEquals("0", read("/proc/irq/25/smp_affinity_list"));
        assertEquals("0,1", read("/proc/irq/26/smp_affinity_list"));
        assertEquals("512", read("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"));
        assertEquals("performance", read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
        assertEquals(1, result.exitCode, "the kernel command line still needs a reboot: " + result.output);
    }

    @Test
    void shouldTakeTheGatewayCpusFromTheCommandLine() throws Exception
    {
        final Result result = run("--cpus", "1-3", "--hugepages", "0");

        assertTrue(result.output.contains("add 'isolcpus=1-3 nohz_full=1-3 rcu_nocbs=1-3'"), result.output);
        assertTrue(result.output.contains("would change: IRQ 24 from CPUs 0-3 to 0"), result.output);
        assertTrue(result.output.contains("left alone (--hugepages 0)"), result.output);
    }

    @Test
    void shouldRefuseWrongUsage() throws Exception
    {
        assertEquals(2, run("--cpus", "two").exitCode);
        assertEquals(2, run("--hugepages", "-1").exitCode);
        assertEquals(2, run("--reboot").exitCode);
    }

    private String read(final String absolute) throws IOException
    {
        return Files.readString(root.resolve(absolute.substring(1))).trim();
    }

    private Result run(final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("MDGATE_HOST_ROOT", root.toString());
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        return new Result(process.exitValue(), output);
    }

    private record Result(int exitCode, String output)
    {
    }
}
