package io.mdgate.app.config;

import io.mdgate.runtime.config.CoreMapValidatorTest;
import io.mdgate.runtime.config.FakeHost;

import com.fasterxml.jackson.databind.JsonNode;
import io.mdgate.app.JsonFields;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoresCommandTest
{
    @TempDir
    Path dir;

    Path sysfs;

    @BeforeEach
    void setUp()
    {
        sysfs = dir.resolve("host");
        FakeHost.standard(sysfs);
    }

    @Test
    void shouldShowEveryCpuWithItsNodeSiblingsIsolationAndInterrupts()
    {
        final CommandRun run = CommandRun.run(new CoresCommand(), "--sysfs-root", sysfs.toString());

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().startsWith("CPUs 0-6 online of 0-7; NUMA nodes: 0 (0-3), 1 (4-7)\n"), run.out());
        assertTrue(run.out().contains("     0  yes        0  0-1       no        no                 1040\n"), run.out());
        assertTrue(run.out().contains("     5  yes        1  4-5       yes       yes                   5\n"), run.out());
        assertTrue(run.out().contains("     7  no         1  6-7       no        no                    0\n"), run.out());
        assertTrue(run.out().contains("isolated CPUs that took device interrupts: [2, 5]"), run.out());
    }

    @Test
    void shouldShowTheAgentsOfACoreMap() throws Exception
    {
        final Path config = dir.resolve("gw.toml");
        Files.writeString(config, CoreMapValidatorTest.CONFIG);

        final CommandRun run = CommandRun.run(new CoresCommand(), "--sysfs-root", sysfs.toString(), "-c",
            config.toString());

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("  ingress:p0:0, ingress:p0:1\n"), run.out());
        assertTrue(run.out().contains("1040  journal, egress, housekeeping\n"), run.out());
        assertTrue(run.out().contains("  10  -\n"), run.out());
    }

    @Test
    void shouldPrintJson() throws Exception
    {
        final CommandRun run = CommandRun.run(new CoresCommand(), "--sysfs-root", sysfs.toString(), "--json");

        assertEquals(0, run.exitCode(), run.toString());
        final JsonNode json = JsonFields.oneObjectLine(run.out());
        assertEquals(List.of("online", "isolated", "nohzFull", "numaNodes", "cpus"), JsonFields.names(json));
        assertEquals(List.of("cpu", "online", "node", "siblings", "isolated", "nohzFull", "deviceInterrupts"),
            JsonFields.names(json.get("cpus").get(0)));
        assertEquals("[2,3,4,5,6]", json.get("isolated").toString());
        assertEquals("[4,5,6,7]", json.get("numaNodes").get("1").toString());
        assertEquals(8, json.get("cpus").size());
        assertEquals(1, json.get("cpus").get(4).get("node").asInt());
        assertEquals("[4,5]", json.get("cpus").get(4).get("siblings").toString());
        assertFalse(json.get("cpus").get(7).get("online").asBoolean());
        assertEquals(1040, json.get("cpus").get(0).get("deviceInterrupts").asLong());
    }

    @Test
    void shouldSayWhenNoCpuIsIsolated()
    {
        new FakeHost(dir.resolve("plain")).file("/sys/devices/system/cpu/online", "0-1");

        final CommandRun run = CommandRun.run(new CoresCommand(), "--sysfs-root", dir.resolve("plain").toString());

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("no CPU is isolated"), run.out());
    }

    @Test
    void shouldFailWhenNoCpusCanBeRead()
    {
        final CommandRun run = CommandRun.run(new CoresCommand(), "--sysfs-root", dir.resolve("empty").toString());

        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.err().contains("no CPUs found"), run.err());
    }

    @Test
    void shouldShowThisHost()
    {
        final CommandRun run = CommandRun.run(new CoresCommand());

        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().startsWith("CPUs "), run.out());
    }
}
