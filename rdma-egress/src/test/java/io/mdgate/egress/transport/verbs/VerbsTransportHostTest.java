package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.TransportException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * How the verbs transport behaves on a host like the development and CI machines: no RDMA device.
 */
class VerbsTransportHostTest
{
    private static boolean hasRdmaDevice()
    {
        final Path devices = Path.of("/sys/class/infiniband");
        if (!Files.isDirectory(devices))
        {
            return false;
        }
        try (Stream<Path> list = Files.list(devices))
        {
            return list.findAny().isPresent();
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    @Test
    void shouldFailAtOnceSayingThereIsNoRdmaDeviceAndHowToGetOne()
    {
        assumeFalse(hasRdmaDevice(), "this host has an RDMA device; the no-device behaviour cannot be seen here");
        final long start = System.nanoTime();
        final TransportException error = assertThrows(TransportException.class,
            () -> new VerbsTransport(new VerbsContext().controlAddress("10.77.0.1:7471")));
        final long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(error.getMessage().contains("no RDMA device"), error.getMessage());
        assertTrue(error.getMessage().contains("rdma link add rxe0 type rxe netdev"), error.getMessage());
        assertTrue(error.getMessage().contains("make test-softroce"), error.getMessage());
        assertTrue(millis < 5_000, "took " + millis + " ms");
    }

    @Test
    void shouldSayTheDeviceIsMissingBeforeComplainingAboutSettings()
    {
        assumeFalse(hasRdmaDevice(), "this host has an RDMA device");
        final TransportException error = assertThrows(TransportException.class,
            () -> new VerbsTransport(new VerbsContext()));
        assertTrue(error.getMessage().contains("no RDMA device"), error.getMessage());
    }

    @Test
    void shouldReportTheSameReasonWithoutThrowingWhenProbed()
    {
        assumeFalse(hasRdmaDevice(), "this host has an RDMA device");
        final String reason = VerbsTransport.unavailabilityReason(null);
        assertNotNull(reason);
        assertTrue(reason.contains("no RDMA device"), reason);
    }

    @Test
    void shouldRefuseSettingsThatCannotWorkSayingWhatWouldBeRight()
    {
        final IllegalArgumentException noAddress = assertThrows(IllegalArgumentException.class,
            () -> new VerbsContext().conclude());
        assertTrue(noAddress.getMessage().contains("--rdma-address"), noAddress.getMessage());
        final IllegalArgumentException notMulticast = assertThrows(IllegalArgumentException.class,
            () -> new VerbsContext().controlAddress("10.0.0.1:7471").multicastGroup("10.1.1.1").conclude());
        assertTrue(notMulticast.getMessage().contains("not an IPv4 multicast address"), notMulticast.getMessage());
        final IllegalArgumentException badPort = assertThrows(IllegalArgumentException.class,
            () -> new VerbsContext().controlAddress("10.0.0.1:0").conclude());
        assertTrue(badPort.getMessage().contains("port 1..65535"), badPort.getMessage());
    }

    @Test
    void shouldGiveEachStreamItsOwnGroupAboveTheBase()
    {
        final VerbsContext context = new VerbsContext().controlAddress("10.0.0.1:7471").multicastGroup("239.77.0.250")
            .conclude();
        assertEquals("239.77.0.251", context.groupOf(1));
        assertEquals("239.77.1.4", context.groupOf(10));
    }
}
