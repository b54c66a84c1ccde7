package io.mdgate.app.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole demo, as an operator runs it, for a few seconds: namespaces and the DPDK ingress as root, sockets on
 * loopback otherwise.
 */
@Tag("slow")
class DemoRunTest
{
    @TempDir
    Path dir;

    @Test
    void shouldDeliverEveryPublishedSequenceToEveryConsumerOnceAndCleanUp() throws Exception
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = new CommandLine(new DemoCommand());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));

        final int exitCode = commandLine.execute("--duration", "5", "--rate", "5000", "--json", "--no-dashboard",
            "--dir", dir.toString());

        final String logs = "\n--- stderr\n" + err + "\n--- gateway log\n" +
            DemoCommand.tail(dir.resolve("logs/gateway.log"), 30) + "\n--- stdout\n" + out;
        assertEquals(0, exitCode, logs);
        final JsonNode summary = new ObjectMapper().readTree(out.toString());
        assertTrue(summary.path("ok").asBoolean(), logs);
        final long published = summary.path("messagesPublished").asLong();
        assertTrue(published >= 25_000, "5 s at 5000 msg/s make at least as many ticks: " + published);
        assertEquals(0, summary.path("gaps").path("lost").asLong());
        final Iterator<Map.Entry<String, JsonNode>> consumers = summary.path("consumers").fields();
        int count = 0;
        while (consumers.hasNext())
        {
            final JsonNode consumer = consumers.next().getValue();
            assertEquals(published, consumer.path("received").asLong(), consumer.toString());
            assertEquals(1, consumer.path("firstSequence").asLong(), consumer.toString());
            assertEquals(0, consumer.path("missing").asLong());
            assertEquals(0, consumer.path("duplicates").asLong());
            count++;
        }
        assertEquals(4, count);
        assertTrue(Files.isDirectory(dir.resolve("journal")), "the journal stays for replay");
        assertTrue(Files.size(dir.resolve("hlog").resolve(DemoCommand.END_TO_END_LOG)) > 0,
            "the end-to-end latency is logged beside the stages' for mdgate report");
        final long pid = ProcessHandle.current().pid();
        if (null == DemoNetwork.unavailableReason())
        {
            assertFalse(DemoNetwork.exists("mdg-" + pid + "-ex"), "namespaces removed");
            assertFalse(DemoNetwork.exists("mdg-" + pid + "-gw"), "namespaces removed");
        }
        assertTrue(ProcessHandle.current().children().noneMatch(ProcessHandle::isAlive), "no child process left");
    }
}
