package io.mdgate.systest;

import io.mdgate.app.run.RunCommand;
import io.mdgate.app.sim.SimCommand;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileException;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole gateway end to end on one host: {@code mdgate sim} sends a generated session as multicast on {@code lo}
 * with independent loss on both lines and serves re-requests; {@code mdgate run} receives it (socket ingress), runs
 * the feed session, journals every tick and publishes over shm to three consumer processes (two on their rings, one
 * on the multicast stream) that record every gateway sequence they deliver. One consumer is killed with SIGKILL in
 * the middle of the stream and started again, resuming from what it recorded. At the end every consumer has every
 * sequence exactly once and in order, the journal holds every tick, and the counters agree from the ingress to the
 * consumers. Skipped, with the reason printed, where multicast cannot loop back on {@code lo}.
 */
@Tag("slow")
@Timeout(value = 240)
class GatewayEndToEndTest
{
    private static final int MESSAGES = 40_000;
    private static final int RATE = 10_000;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "run-to-completion", "pipeline" })
    void shouldDeliverEverySequenceToEveryConsumerExactlyOnceThroughLossAndAConsumerKilled(final String shape)
        throws Exception
    {
        final String prefix = "239.255." + (1 + ProcessHandle.current().pid() % 250) + ".";
        final String problem = loopbackProblem(prefix + 220);
        if (problem != null)
        {
            System.out.println("SKIPPED GatewayEndToEndTest: " + problem);
        }
        Assumptions.assumeTrue(problem == null, problem);
        final String groupA = prefix + 221 + ":" + freePort();
        final String groupB = prefix + 222 + ":" + freePort();
        final int retransmitPort = freePort();
        final String instance = "e2e-" + ProcessHandle.current().pid();
        Files.createDirectories(dir.resolve("shm"));
        final Path config = dir.resolve("gateway.toml");
        Files.writeString(config, config(instance, groupA, groupB, retransmitPort, shape));
        final Path counters = dir.resolve("counters");

        final StringWriter gatewayOut = new StringWriter();
        final RunCommand run = new RunCommand();
        final CompletableFuture<Integer> gateway = CompletableFuture.supplyAsync(() -> new CommandLine(run)
            .setOut(new PrintWriter(gatewayOut)).setErr(new PrintWriter(gatewayOut))
            .execute("--config", config.toString(), "--no-pin"));
        try
        {
            awaitCounter(counters, "gateway.uptime_s", 0, gateway, gatewayOut);

            final Map<String, Path> files = new LinkedHashMap<>();
            final Map<String, Process> consumers = new LinkedHashMap<>();
            for (final String name : List.of("c1", "c2", "c3"))
            {
                files.put(name, dir.resolve(name + ".seq"));
                consumers.put(name, startConsumer(instance, name, name.equals("c3") ? "stream" : "ring",
                    files.get(name)));
            }
            awaitCounter(counters, "egress.consumers", 3, gateway, gatewayOut);

            final StringWriter simOut = new StringWriter();
            final CompletableFuture<Integer> sim = CompletableFuture.supplyAsync(() -> new CommandLine(
                new SimCommand()).setOut(new PrintWriter(simOut)).setErr(new PrintWriter(simOut)).execute(
                "--messages", String.valueOf(MESSAGES), "--seed", "77", "--instruments", "30",
                "--rate", String.valueOf(RATE), "--send", "lo", "--group-a", groupA, "--group-b", groupB,
                "--max-idle-ms", "5", "--loss-a", "0.03", "--loss-b", "0.03", "--loss-burst", "3",
                "--serve-retransmits", String.valueOf(retransmitPort), "--linger-ms", "3000"));

            awaitFileLength(files.get("c2"), 8L * 5_000, 60);
            final Process killed = consumers.get("c2");
            killed.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            final long recordedAtKill = SequenceConsumer.lastRecorded(files.get("c2"));
            consumers.put("c2", startConsumer(instance, "c2", "ring", files.get("c2")));

            assertEquals(0, sim.get(120, TimeUnit.SECONDS), simOut.toString());
            final CountersSnapshot settled = awaitSettled(counters);
            final long ticks = settled.value("session.ticks");
            for (final Map.Entry<String, Path> entry : files.entrySet())
            {
                awaitFileLength(entry.getValue(), 8L * ticks, 60);
            }
            final CountersSnapshot reported = awaitConsumersReported(counters, ticks);

            run.stop();
            assertEquals(0, gateway.get(60, TimeUnit.SECONDS), gatewayOut.toString());
            System.out.println("end to end: " + gatewayOut.toString().trim().replace('\n', ' '));
            System.out.println("end to end: c2 killed after sequence " + recordedAtKill + " of " + ticks);

            for (final Map.Entry<String, Path> entry : files.entrySet())
            {
                final long[] sequences = SequenceConsumer.read(entry.getValue());
                assertEquals(ticks, sequences.length, entry.getKey() + " delivered every tick once");
                for (int i = 0; i < sequences.length; i++)
                {
                    if (sequences[i] != i + 1)
                    {
                        throw new AssertionError(entry.getKey() + " delivered sequence " + sequences[i] +
                            " where " + (i + 1) + " was due");
                    }
                }
                final boolean ring = !entry.getKey().equals("c3");
                assertEquals(ring ? ticks : 0, reported.value("egress.consumer." + entry.getKey() + ".delivered"),
                    "a ring consumer reports what it delivered, a stream consumer nothing");
                assertEquals(ring ? 0 : -1, reported.value("egress.consumer." + entry.getKey() + ".lag"));
                assertEquals(1, reported.value("egress.consumer." + entry.getKey() + ".connected"));
            }
            assertTrue(recordedAtKill > 0 && recordedAtKill < ticks, "c2 was killed mid-stream");

            try (CountersFile file = CountersFile.open(counters))
            {
                final CountersSnapshot s = file.snapshot();
                assertEquals(CountersSnapshot.State.STOPPED, s.state());
                final String feed = s.values().entrySet().stream().filter(e -> e.getKey().startsWith("feed"))
                    .map(Object::toString).collect(java.util.stream.Collectors.joining(" "));
                assertEquals(MESSAGES, s.value("feed.messages.delivered"), "every message of the session: " + feed);
                assertEquals(0, s.value("feed.messages.lost"));
                assertEquals(0, s.value("feed.gaps.lost"));
                assertTrue(s.value("feed.gaps.opened") > 0, "the lines lost packets");
                assertEquals(s.value("feed.gaps.opened"), s.value("feed.gaps.filled_by_other_line") +
                    s.value("feed.gaps.filled_by_same_line") + s.value("feed.gaps.filled_by_rerequest"),
                    "every gap filled by the other line or a re-request");
                assertEquals(s.value("ingress.p0.0.packets"), s.value("feed.A.packets") + s.value("feed.B.packets"),
                    "every packet received reached the session");
                assertEquals(0, s.value("ingress.p0.0.dropped"));
                assertEquals(ticks, s.value("journal.ticks"));
                assertEquals(ticks, s.value("journal.position"));
                assertEquals(ticks, s.value("egress.ticks_published"));
                assertEquals(ticks, s.value("egress.last_sequence"));
                assertEquals(0, s.value("egress.input_gaps"), "the egress was handed every sequence");
                assertEquals(0, s.value("journal.ticks_out_of_sequence"));
                assertEquals(0, s.value("gateway.errors"), gatewayOut.toString());
                assertEquals(s.value("ingress.p0.0.packets"), s.value("journal.packets"), "every packet journaled");
            }
            try (JournalReader reader = JournalReader.open(dir.resolve("journal"));
                TickReplay replay = reader.newTickReplay())
            {
                assertEquals(ticks, replay.count());
                final long[] expected = { 1 };
                final long[] maxExchange = { 0 };
                replay.replay(1, ticks, (buffer, offset) ->
                {
                    assertEquals(expected[0]++, buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
                    maxExchange[0] = Math.max(maxExchange[0], buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN));
                });
                assertEquals(ticks + 1, expected[0], "the journal holds every tick, in order");
                assertEquals(MESSAGES, maxExchange[0], "up to the session's last message");
            }
        }
        finally
        {
            run.stop();
            for (final Process process : processes)
            {
                process.destroyForcibly();
            }
            gateway.get(60, TimeUnit.SECONDS);
        }
    }

    private static String discontinuities(final Path file) throws IOException
    {
        if (!Files.exists(file))
        {
            return "no file";
        }
        final long[] sequences = SequenceConsumer.read(file);
        final StringBuilder text = new StringBuilder("breaks:");
        int shown = 0;
        for (int i = 1; i < sequences.length && shown < 10; i++)
        {
            if (sequences[i] != sequences[i - 1] + 1)
            {
                text.append(' ').append(sequences[i - 1]).append("->").append(sequences[i]).append("@").append(i);
                shown++;
            }
        }
        return text.append(" last ").append(sequences.length == 0 ? 0 : sequences[sequences.length - 1]).toString();
    }

    private String countersText()
    {
        try (CountersFile file = CountersFile.open(dir.resolve("counters")))
        {
            final StringBuilder text = new StringBuilder();
            file.snapshot().values().forEach((label, value) ->
            {
                if (label.startsWith("egress") || label.startsWith("session") || label.startsWith("journal.pos"))
                {
                    text.append(label).append('=').append(value).append(' ');
                }
            });
            return text.toString();
        }
    }

    private Process startConsumer(final String instance, final String name, final String path, final Path file)
        throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (flag.startsWith("--add-") || flag.startsWith("-Dagrona") || flag.startsWith("-Dchronicle"))
            {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SequenceConsumer.class.getName(),
            dir.resolve("shm").toString(), instance, name, "token-" + name, path, file.toString()));
        final Process process = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + "-" + processes.size() + ".log").toFile()))
            .start();
        processes.add(process);
        return process;
    }

    /** The core map of each shape: every agent on one thread, or receive + session and the rest on two. */
    private static String cores(final String shape)
    {
        if ("run-to-completion".equals(shape))
        {
            return """
                [[cores]]
                cpu = 0
                agents = ["ingress:p0:0", "session", "journal", "egress"]
                idle = "backoff"

                [[cores]]
                cpu = 1
                agents = ["housekeeping"]
                idle = "sleep:1ms"
                """;
        }
        return """
            [[cores]]
            cpu = 0
            agents = ["ingress:p0:0", "session"]
            idle = "backoff"

            [[cores]]
            cpu = 1
            agents = ["journal", "egress", "housekeeping"]
            idle = "backoff"
            """;
    }

    private String config(final String instance, final String groupA, final String groupB, final int retransmitPort,
        final String shape)
    {
        final String[] a = groupA.split(":");
        final String[] b = groupB.split(":");
        final StringBuilder consumers = new StringBuilder();
        for (final String name : List.of("c1", "c2", "c3"))
        {
            consumers.append("[[egress.consumers]]\nname = \"").append(name).append("\"\ntoken = \"token-")
                .append(name).append("\"\n\n");
        }
        return """
            [gateway]
            name = "%s"
            counters_file = "%s"
            hlog_dir = "%s"
            ring_bytes = 8388608

            [feed]
            gap_wait_ms = 2
            retry_interval_ms = 50
            retransmit = "127.0.0.1:%d"

            [[feed.lines]]
            name = "A"
            group = "%s"
            port = %s
            port_name = "p0"

            [[feed.lines]]
            name = "B"
            group = "%s"
            port = %s
            port_name = "p0"

            [[ports]]
            name = "p0"
            driver = "socket"
            interface = "lo"

            [journal]
            enabled = true
            dir = "%s"

            [egress]
            transport = "shm"
            shm_dir = "%s"
            instance = "%s"

            %s
            %s
            """.formatted(instance, dir.resolve("counters"), dir.resolve("hlog"), retransmitPort, a[0], a[1], b[0],
            b[1], dir.resolve("journal"), dir.resolve("shm"), instance, consumers, cores(shape));
    }

    private static void awaitCounter(final Path counters, final String label, final long atLeast,
        final CompletableFuture<Integer> gateway, final StringWriter gatewayOut) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline)
        {
            assertFalse(gateway.isDone(), () -> "the gateway ended: " + gatewayOut);
            try (CountersFile file = CountersFile.open(counters))
            {
                if (file.snapshot().value(label, -1) >= atLeast)
                {
                    return;
                }
            }
            catch (final CountersFileException notYet)
            {
                // Still starting.
            }
            Thread.sleep(20);
        }
        throw new AssertionError(label + " did not reach " + atLeast + ": " + gatewayOut);
    }

    private static CountersSnapshot awaitSettled(final Path counters) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (CountersFile file = CountersFile.open(counters))
        {
            while (System.nanoTime() < deadline)
            {
                final CountersSnapshot s = file.snapshot();
                final long ticks = s.value("session.ticks");
                if (s.value("feed.end_of_session") == 1 && ticks > 0 && s.value("journal.position") == ticks &&
                    s.value("egress.last_sequence") == ticks)
                {
                    return s;
                }
                Thread.sleep(50);
            }
            throw new AssertionError("the session did not end and settle: " + file.snapshot().values());
        }
    }

    private static CountersSnapshot awaitConsumersReported(final Path counters, final long ticks)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (CountersFile file = CountersFile.open(counters))
        {
            while (System.nanoTime() < deadline)
            {
                final CountersSnapshot s = file.snapshot();
                if (s.value("egress.consumer.c1.delivered") == ticks &&
                    s.value("egress.consumer.c2.delivered") == ticks &&
                    s.value("egress.consumer.c3.connected") == 1)
                {
                    return s;
                }
                Thread.sleep(50);
            }
            return file.snapshot();
        }
    }

    private void awaitFileLength(final Path file, final long bytes, final int seconds)
        throws InterruptedException, IOException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline)
        {
            if (Files.exists(file) && Files.size(file) >= bytes)
            {
                return;
            }
            Thread.sleep(20);
        }
        final StringBuilder logs = new StringBuilder();
        try (var list = Files.list(dir))
        {
            for (final Path log : list.filter(p -> p.toString().endsWith(".log")).sorted().toList())
            {
                logs.append(log.getFileName()).append(": ").append(Files.readString(log).replace('\n', '|'))
                    .append("; ");
            }
        }
 
        throw new AssertionError(file.getFileName() + " holds " + (Files.exists(file) ? Files.size(file) / 8 : 0) +
            " sequences, expected " + bytes / 8 + "; " + discontinuities(file) + "; logs: " + logs + "; counters: " + countersText());
    }

    static int freePort() throws IOException
    {
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            probe.bind(new InetSocketAddress(0));
            return ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
    }

    /** @return why loopback multicast cannot be used here, or null when a probe came through. */
    static String loopbackProblem(final String group)
    {
        try
        {
            final NetworkInterface lo = NetworkInterface.getByName("lo");
            if (lo == null)
            {
                return "no loopback interface named lo";
            }
            try (DatagramChannel receiver = DatagramChannel.open(StandardProtocolFamily.INET);
                DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET))
            {
                receiver.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                receiver.bind(new InetSocketAddress(InetAddress.getByName(group), 0));
                receiver.join(InetAddress.getByName(group), lo);
                receiver.configureBlocking(false);
                sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, lo);
                sender.send(ByteBuffer.wrap(new byte[] { 1 }), receiver.getLocalAddress());
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                while (receiver.receive(ByteBuffer.allocate(8)) == null)
                {
                    if (System.nanoTime() > deadline)
                    {
                        return "a probe datagram sent to " + group + " on lo never arrived";
                    }
                    Thread.onSpinWait();
                }
                return null;
            }
        }
        catch (final IOException ex)
        {
            return "multicast on lo is unavailable: " + ex;
        }
    }
}
