package io.mdgate.app.run;

import io.mdgate.runtime.config.RetransmitPathTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.mdgate.runtime.config.RetransmitPathTest.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate run} with af_xdp on the interface the re-requests go out on (the configuration check's refusal,
 * gateway-runtime's {@link RetransmitPathTest}) exits with a usage error before starting anything.
 */
class RunRetransmitPathTest
{
    @TempDir
    Path dir;

    @Test
    void shouldMakeRunExitWithAUsageErrorBeforeStartingAnythingSayingWhyOnTheFirstLine() throws Exception
    {
        final Path file = dir.resolve("xdp.toml");
        Files.writeString(file, RetransmitPathTest.config(dir, "net_af_xdp0,iface=" + LOOPBACK));
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();

        final int exit = new CommandLine(new RunCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("--config", file.toString(), "--no-pin");

        assertEquals(RunCommand.EXIT_INVALID, exit, err.toString());
        assertEquals(2, exit, "a usage error (README)");
        final String first = err.toString().lines().findFirst().orElse("");
        assertTrue(first.startsWith("mdgate run: refusing to start: " + file + ": feed.retransmit: port 'p0': " +
            "re-requests to 127.0.0.1:26478 go out on " + LOOPBACK), first);
        assertTrue(first.contains("receive that port with af_packet"), first);
        assertFalse(Files.exists(dir.resolve("counters")), "nothing started");
    }
}
