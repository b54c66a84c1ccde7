package io.mdgate.runtime.config;

import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.HugepageMode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotConfigTest
{
    @Test
    void shouldKeepNoOrderMirrorByDefault()
    {
        final GatewayConfig.Egress egress = ConfigLoader.parse(ConfigLoaderTest.MINIMAL).egress();

        assertFalse(egress.orderSnapshots());
        assertEquals(PublisherContext.DEFAULT_SNAPSHOT_TICKS, egress.snapshotTicks());
        assertEquals(PublisherContext.DEFAULT_SNAPSHOT_RECORDS_PER_CYCLE, egress.snapshotRecordsPerCycle());
    }

    @Test
    void shouldReadTheSnapshotSettings()
    {
        final String toml = ConfigLoaderTest.MINIMAL + "\n[egress]\norder_snapshots = true\nsnapshot_ticks = 4096\n" +
            "snapshot_records_per_cycle = 256\n";

        final GatewayConfig.Egress egress = ConfigLoader.parse(toml).egress();
        assertTrue(egress.orderSnapshots());
        assertEquals(4096, egress.snapshotTicks());
        assertEquals(256, egress.snapshotRecordsPerCycle());
    }

    @Test
    void shouldRefuseASnapshotBufferOutsideItsRange()
    {
        final String toml = ConfigLoaderTest.MINIMAL + "\n[egress]\nsnapshot_ticks = 10\n";

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml));
        assertTrue(ex.getMessage().contains("egress.snapshot_ticks"), ex.getMessage());
    }

    @Test
    void shouldRefuseASnapshotBudgetOutsideItsRange()
    {
        final String toml = ConfigLoaderTest.MINIMAL + "\n[egress]\nsnapshot_records_per_cycle = 0\n";

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml));
        assertTrue(ex.getMessage().contains("egress.snapshot_records_per_cycle"), ex.getMessage());
    }

    @Test
    void shouldAskForHugepagesWhenTheHostHasThemByDefaultAndReadTheSetting()
    {
        assertEquals(HugepageMode.AUTO, ConfigLoader.parse(ConfigLoaderTest.MINIMAL).egress().hugepages());
        assertNull(ConfigLoader.parse(ConfigLoaderTest.MINIMAL).egress().hugepageDir());
        final GatewayConfig.Egress egress = ConfigLoader.parse(ConfigLoaderTest.MINIMAL +
            "\n[egress]\nhugepages = \"required\"\nhugepage_dir = \"/dev/hugepages\"\n").egress();
        assertEquals(HugepageMode.REQUIRED, egress.hugepages());
        assertEquals(java.nio.file.Path.of("/dev/hugepages"), egress.hugepageDir());
    }

    @Test
    void shouldRefuseAHugepageModeItDoesNotKnow()
    {
        final String toml = ConfigLoaderTest.MINIMAL + "\n[egress]\nhugepages = \"always\"\n";

        final ConfigException ex = assertThrows(ConfigException.class, () -> ConfigLoader.parse(toml));
        assertTrue(ex.getMessage().contains("egress.hugepages") && ex.getMessage().contains("\"required\""),
            ex.getMessage());
    }
}
