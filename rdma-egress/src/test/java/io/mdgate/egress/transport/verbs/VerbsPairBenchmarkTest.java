package io.mdgate.egress.transport.verbs;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two-host benchmark's command line: what the pair bed's step passes must be read as meant, and a command that
 * could not pair two processes must be refused before any device is opened.
 */
class VerbsPairBenchmarkTest
{
    @Test
    void shouldReadTheRolesAddressesAndDurationThePairBedPasses()
    {
        final VerbsPairBenchmark.Settings writer = VerbsPairBenchmark.parse(new String[] {"--role", "writer",
            "--device", "rxe0", "--address", "10.78.0.1", "--peer", "10.78.0.2", "--seconds", "8"});
        assertTrue(writer.writer());
        assertEquals("rxe0", writer.device());
        assertEquals("10.78.0.1", writer.address());
        assertEquals("10.78.0.2", writer.peer());
        assertEquals(8, writer.seconds());
        assertEquals(18_710, writer.port());

        final VerbsPairBenchmark.Settings receiver = VerbsPairBenchmark.parse(new String[] {"--role", "receiver",
            "--address", "10.78.0.2", "--peer", "10.78.0.1", "--port", "19000", "--connect-seconds", "30"});
        assertFalse(receiver.writer());
        assertEquals(19_000, receiver.port());
        assertEquals(30, receiver.connectSeconds());
    }

    @Test
    void shouldRefuseACommandWithoutARoleOrAPeer()
    {
        final IllegalArgumentException noRole = assertThrows(IllegalArgumentException.class,
            () -> VerbsPairBenchmark.parse(new String[] {"--address", "10.78.0.1", "--peer", "10.78.0.2"}));
        assertTrue(noRole.getMessage().contains("--role"), noRole.getMessage());
        final IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
            () -> VerbsPairBenchmark.parse(new String[] {"--role", "server", "--address", "10.78.0.1",
                "--peer", "10.78.0.2"}));
        assertTrue(server.getMessage().contains("writer or receiver"), server.getMessage());
    }

    @Test
    void shouldRefuseAPortWhoseThreeMeasurementPortsDoNotAllFit()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> VerbsPairBenchmark.parse(new String[] {"--role", "writer", "--address", "10.78.0.1", "--peer",
                "10.78.0.2", "--port", "65534"}));
        assertTrue(error.getMessage().contains("--port"), error.getMessage());
    }

    @Test
    void shouldRefuseAnOptionItDoesNotKnowAndSayWhichOnesItDoes()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> VerbsPairBenchmark.parse(new String[] {"--role", "writer", "--hugepages", "yes"}));
        assertTrue(error.getMessage().contains("unknown option --hugepages"), error.getMessage());
        assertTrue(error.getMessage().contains("--peer PEER_IPV4"), error.getMessage());
    }
}
