package io.mdgate.ingress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EalArgumentsTest
{
    @TempDir
    Path dir;

    @Test
    void shouldStartWithoutHugepagesOrSharedFilesAndLeaveAVirtualDeviceToHotPlug()
    {
        final DpdkIngress.Context context = new DpdkIngress.Context()
            .device("net_pcap0,rx_pcap=/tmp/s.pcap")
            .lines(DpdkTests.lines())
            .lcores("1")
            .memoryMegabytes(128);

        assertEquals(List.of("mdgate", "-l", "1", "-m", "128", "--no-huge", "--no-shconf", "--no-telemetry",
            "--no-pci"), List.of(EalArguments.of(context)));
    }

    @Test
    void shouldUseAHugeDirInMemoryAndAllowListAPciDeviceThenTheExtraArguments()
    {
        final DpdkIngress.Context context = new DpdkIngress.Context()
            .device("0000:03:00.0")
            .lines(DpdkTests.lines())
            .lcores("0-1")
            .hugeDir(dir)
            .extraEalArguments(List.of("--log-level=pmd.net.*:debug"));

        assertEquals(List.of("mdgate", "-l", "0-1", "-m", "256", "--huge-dir", dir.toString(), "--in-memory",
            "--no-telemetry", "-a", "0000:03:00.0", "--log-level=pmd.net.*:debug"), List.of(EalArguments.of(context)));
    }

    @Test
    void shouldTellPciAddressesFromVirtualDevices()
    {
        assertTrue(EalArguments.isPci("0000:03:00.0"));
        assertTrue(EalArguments.isPci("3b:00.1"));
        assertFalse(EalArguments.isPci("net_pcap0"));
        assertFalse(EalArguments.isPci("0000:03:00.8"));
    }

    @Test
    void shouldTakeTheFirstCpuOfASimpleCoreListAsTheMainLcore()
    {
        assertEquals(3, EalArguments.firstCpu("3"));
        assertEquals(1, EalArguments.firstCpu("1-3"));
        assertEquals(12, EalArguments.firstCpu("12,14"));
        assertEquals(-1, EalArguments.firstCpu("(0-1)@2"));
        assertEquals(-1, EalArguments.firstCpu(""));
    }

    @Test
    void shouldFindTheLastOnlineCpu()
    {
        final int last = EalArguments.lastOnlineCpu();

        assertTrue(last >= 0 && last < 4096, "cpu " + last);
    }
}
