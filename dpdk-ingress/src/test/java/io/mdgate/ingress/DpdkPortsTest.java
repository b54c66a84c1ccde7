package io.mdgate.ingress;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DpdkPortsTest
{
    @Test
    void shouldStartEalWithoutHugepagesUnlessTheArgumentsChooseMemory()
    {
        final List<String> plain = Arrays.asList(DpdkPorts.ealCommandLine(List.of("--vdev", "net_null0")));

        assertEquals("mdgate", plain.get(0));
        assertEquals("-l", plain.get(1));
        assertTrue(plain.containsAll(List.of("--no-telemetry", "--no-huge", "--no-shconf", "-m", "256")),
            plain.toString());
        assertEquals(List.of("--vdev", "net_null0"), plain.subList(plain.size() - 2, plain.size()));

        final List<String> huge = Arrays.asList(DpdkPorts.ealCommandLine(
            List.of("--huge-dir", "/dev/hugepages", "--in-memory", "-m", "1024", "-l", "3")));

        assertEquals(List.of("mdgate", "--no-telemetry", "--huge-dir", "/dev/hugepages", "--in-memory", "-m", "1024",
            "-l", "3"), huge);
    }

    @Test
    void shouldFormatAMacAddressFirstByteFirst()
    {
        assertEquals("02:00:5e:10:00:0a", DpdkPorts.mac(0x02005e10000aL));
        assertEquals("00:00:00:00:00:00", DpdkPorts.mac(0));
    }
}
