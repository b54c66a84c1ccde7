package io.mdgate.app.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCommandTest
{
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--duration|2|--duration must be 5..3600",
        "--rate|10|--rate must be 100..5000000",
        "--loss|0.5|--loss must be 0..0.1",
        "--ingress|xdp|--ingress must be auto, dpdk or socket",
        "--map|one-core|--map must be run-to-completion or pipeline",
        "--consumers|0|--consumers must be 1..4",
        "--consumers|5|--consumers must be 1..4",
        "--consumer-idle|park|--consumer-idle must be spin, yield or backoff",
        "--packet-window-us|-1|--packet-window-us must be 0 to 1000000 us",
        "--sim-cpus|9999|--sim-cpus must name online CPUs",
        "--sim-cpus|one|--sim-cpus must be a CPU list such as 0 or 0-1" })
    void shouldRefuseBadArgumentsBeforeStartingAnything(final String option, final String value, final String message)
    {
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(new DemoCommand());
        commandLine.setErr(new PrintWriter(err, true));

        final int exitCode = commandLine.execute(option, value);

        assertEquals(2, exitCode, err.toString());
        assertTrue(err.toString().contains(message), err.toString());
    }

    @Test
    void shouldAlternateTheSlowConsumerBetweenPollingAndStalling()
    {
        assertFalse(DemoConsumer.stalled(1_000_000_000L), "polls during the first 3 s");
        assertTrue(DemoConsumer.stalled(3_100_000_000L), "stalls from 3 s");
        assertTrue(DemoConsumer.stalled(4_400_000_000L));
        assertFalse(DemoConsumer.stalled(4_600_000_000L), "polls again after 1.5 s");
        assertTrue(DemoConsumer.stalled(9_200_000_000L), "stalls again 6 s later");
    }

    @Test
    void shouldNotCallARunDrainedBeforeTheGatewayTookTheEndOfTheSessionHoweverQuietItWas()
    {
        assertFalse(DemoCommand.drained(0, 1_043_022, 1_043_022, 5_000), "ticks may still come: gaps not settled");
        assertFalse(DemoCommand.drained(1, 1_043_140, 1_043_022, 5_000), "a consumer is behind");
        assertFalse(DemoCommand.drained(1, 1_043_140, 1_043_140, 900), "not quiet for a second yet");
        assertTrue(DemoCommand.drained(1, 1_043_140, 1_043_140, 1_000));
    }
}
