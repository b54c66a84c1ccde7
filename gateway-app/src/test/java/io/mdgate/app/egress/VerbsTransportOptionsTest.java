package io.mdgate.app.egress;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code --transport verbs} on a host without an RDMA device (the development and CI hosts): both commands stop at
 * once with exit code 1 and say that there is no device and how to get one.
 */
class VerbsTransportOptionsTest
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

    private static int run(final Object command, final StringWriter err, final String... args)
    {
        final CommandLine commandLine = new CommandLine(command);
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setOut(new PrintWriter(new StringWriter(), true));
        return commandLine.execute(args);
    }

    @Test
    void shouldStopAConsumeOverVerbsAtOnceSayingThereIsNoRdmaDeviceAndHowToGetOne()
    {
        assumeFalse(hasRdmaDevice(), "this host has an RDMA device");
        final StringWriter err = new StringWriter();
        final long start = System.nanoTime();
        final int exit = run(new ConsumeCommand(), err, "--transport", "verbs", "--rdma-address", "10.77.0.1:7471",
            "--consumer", "a", "--token", "b", "--all");
        assertEquals(1, exit, err.toString());
        assertTrue(err.toString().contains("mdgate consume: no RDMA device"), err.toString());
        assertTrue(err.toString().contains("rdma link add rxe0 type rxe netdev IFACE"), err.toString());
        assertTrue(err.toString().contains("make test-softroce"), err.toString());
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "it must fail at once, not wait for a publisher");
    }

    @Test
    void shouldStopAPublishOverVerbsAtOnceSayingThereIsNoRdmaDevice()
    {
        assumeFalse(hasRdmaDevice(), "this host has an RDMA device");
        final StringWriter err = new StringWriter();
        final int exit = run(new PublishCommand(), err, "--transport", "verbs", "--rdma-address", "10.77.0.1:7471",
            "--token", "a=b", "--messages", "2000");
        assertEquals(1, exit, err.toString());
        assertTrue(err.toString().contains("mdgate publish: no RDMA device"), err.toString());
    }

    @Test
    void shouldRefuseAnUnknownTransportNamingBoth()
    {
        final StringWriter err = new StringWriter();
        assertEquals(2, run(new ConsumeCommand(), err, "--transport", "tcp", "--consumer", "a", "--token", "b",
            "--all"));
        assertTrue(err.toString().contains("--transport must be shm or verbs"), err.toString());
    }

    @Test
    void shouldRefuseAnUnknownRcLibraryNamingBothChoicesBeforeOpeningAnything()
    {
        final StringWriter err = new StringWriter();
        assertEquals(2, run(new ConsumeCommand(), err, "--transport", "verbs", "--rdma-address", "10.77.0.1:7471",
            "--rdma-rc", "ibverbs", "--consumer", "a", "--token", "b", "--all"));
        final String first = err.toString().lines().findFirst().orElse("");
        assertTrue(first.contains("\"disni\"") && first.contains("\"native\"") && first.contains("ibverbs"),
            err.toString());
    }
}
