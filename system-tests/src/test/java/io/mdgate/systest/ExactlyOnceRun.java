package io.mdgate.systest;

import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.capture.ReadJson;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileException;
import io.mdgate.runtime.counters.CountersSnapshot;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One exactly-once scenario on this host: {@code mdgate run} as a process of its own (so it can be killed with
 * SIGKILL and started again on the same configuration and journal), two {@link TickRecordingConsumer} processes
 * (one on its ring, one on the multicast stream) that stay up whatever the gateway does, and {@code mdgate sim}
 * in this JVM sending both lines as multicast on {@code lo} and serving re-requests. {@link #close()} kills every
 * process it started, by PID, even when the test failed. Not thread-safe: one test thread drives it.
 */
final class ExactlyOnceRun implements AutoCloseable
{
    static final List<String> CONSUMERS = List.of("ring", "stream");
    private static final long START_SECONDS = 60;

    final Path dir;
    final String instance;
    final String groupA;
    final String groupB;
    final int retransmitPort;
    final Path config;
    final Path counters;
    final Path journal;
    private final String journalKeys;
    private final List<Process> processes = new ArrayList<>();
    private final Map<String, Path> recordings = new LinkedHashMap<>();
    private final Map<String, Process> consumers = new LinkedHashMap<>();
    private Process gateway;
    private int gateways;
    private CompletableFuture<Integer> sim;
    private final StringWriter simOut = new StringWriter();
    private final StringWriter simErr = new StringWriter();

    /** @return why the scenario cannot run here (no loopback multicast), or null. */
    static String unavailable(final String group)
    {
        return GatewayEndToEndTest.loopbackProblem(group);
    }

    static String groupPrefix()
    {
        return "239.255." + (1 + ProcessHandle.current().pid() % 250) + ".";
    }

    ExactlyOnceRun(final Path dir, final String tag) throws IOException
    {
        this(dir, tag, dir.resolve("journal"), "");
    }

    /**
     * @param journal     the journal directory (e.g. on a filesystem the test made).
     * @param journalKeys more {@code [journal]} keys, one a line.
     */
    ExactlyOnceRun(final Path dir, final String tag, final Path journal, final String journalKeys) throws IOException
    {
        this.dir = dir;
        this.journalKeys = journalKeys;
        this.instance = "x1-" + tag + "-" + ProcessHandle.current().pid();
        this.groupA = groupPrefix() + 231 + ":" + GatewayEndToEndTest.freePort();
        this.groupB = groupPrefix() + 232 + ":" + GatewayEndToEndTest.freePort();
        this.retransmitPort = GatewayEndToEndTest.freePort();
        this.config = dir.resolve("gateway.toml");
        this.counters = dir.resolve("counters");
        this.journal = journal;
        Files.createDirectories(dir.resolve("shm"));
        Files.writeString(config, configText());
    }

    /** Starts {@code mdgate run} and waits until it says it is running and its counters file is its own. */
    Process startGateway() throws IOException, InterruptedException
    {
        final Path log = dir.resolve("gateway-" + (++gateways) + ".log");
        gateway = start(List.of("io.mdgate.app.Main", "run", "--config", config.toString(), "--no-pin"), log);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline)
        {
            if (!gateway.isAlive())
            {
                throw new AssertionError("gateway " + gateways + " exited with " + gateway.exitValue() +
                    " before it ran: " + Files.readString(log));
            }
            final CountersSnapshot s = counters();
            if (Files.readString(log).contains("mdgate run: gateway") && s != null && s.pid() == gateway.pid() &&
                s.has("gateway.uptime_s"))
            {
                return gateway;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("gateway " + gateways + " did not start within " + START_SECONDS + " s: " +
            Files.readString(log));
    }

    /**
     * Starts {@code mdgate run} and waits for it to end on its own (a start it must refuse).
     *
     * @return its exit code; its output is in {@link #gatewayLog()}.
     */
    int runGatewayToExit(final long seconds) throws IOException, InterruptedException
    {
        gateway = start(List.of("io.mdgate.app.Main", "run", "--config", config.toString(), "--no-pin"),
            dir.resolve("gateway-" + (++gateways) + ".log"));
        return awaitGatewayExit(seconds);
    }

    /** Waits for the running gateway to end on its own. @return its exit code. */
    int awaitGatewayExit(final long seconds) throws InterruptedException
    {
        if (!gateway.waitFor(seconds, TimeUnit.SECONDS))
        {
            throw new AssertionError("the gateway did not end by itself within " + seconds + " s: " + logs());
        }
        return gateway.exitValue();
    }

    /** @return the output (stdout and stderr) of the gateway started last. */
    Path gatewayLog()
    {
        return dir.resolve("gateway-" + gateways + ".log");
    }

    /** Kills the gateway with SIGKILL, as a crash would, and waits for it to be gone. */
    void killGateway() throws InterruptedException
    {
        gateway.destroyForcibly();
        if (!gateway.waitFor(30, TimeUnit.SECONDS))
        {
            throw new AssertionError("the gateway survived SIGKILL for 30 s");
        }
    }

    /** Stops the gateway with SIGTERM. @return its exit code. */
    int stopGateway() throws InterruptedException
    {
        gateway.destroy();
        if (!gateway.waitFor(40, TimeUnit.SECONDS))
        {
            gateway.destroyForcibly();
            throw new AssertionError("the gateway did not stop within 40 s of SIGTERM");
        }
        return gateway.exitValue();
    }

    /** Starts both consumers and waits until the gateway counts them connected. */
    void startConsumers() throws IOException, InterruptedException
    {
        for (final String name : CONSUMERS)
        {
            final Path file = dir.resolve(name + ".ticks");
            recordings.put(name, file);
            consumers.put(name, start(List.of(TickRecordingConsumer.class.getName(), dir.resolve("shm").toString(), instance, name,
                "token-" + name, name, file.toString()), dir.resolve("consumer-" + name + ".log")));
        }
        awaitCounters(s -> s.value("egress.consumers", 0) == CONSUMERS.size(), "both consumers connected");
    }

    Map<String, Path> recordings()
    {
        return recordings;
    }

    /** @return the consumers whose process ended (they must stay up whatever the gateway does). */
    List<String> consumersGone()
    {
        final List<String> gone = new ArrayList<>();
        for (final Map.Entry<String, Process> consumer : consumers.entrySet())
        {
            if (!consumer.getValue().isAlive())
            {
                gone.add(consumer.getKey() + " (exit " + consumer.getValue().exitValue() + ")");
            }
        }
        return gone;
    }

    /** Starts {@code mdgate sim} in this JVM, sending to the gateway's groups and serving its re-requests. */
    void startSim(final String... arguments)
    {
        final List<String> args = new ArrayList<>(List.of("--send", "lo", "--group-a", groupA, "--group-b", groupB,
            "--max-idle-ms", "5", "--serve-retransmits", String.valueOf(retransmitPort), "--json"));
        args.addAll(List.of(arguments));
        sim = CompletableFuture.supplyAsync(() -> new CommandLine(new SimCommand())
            .setOut(new PrintWriter(simOut)).setErr(new PrintWriter(simErr)).execute(args.toArray(String[]::new)));
    }

    /** Waits for the simulator to finish. @return its summary. */
    Map<String, Object> awaitSim(final long seconds) throws Exception
    {
        final int exit = sim.get(seconds, TimeUnit.SECONDS);
        if (exit != 0)
        {
            throw new AssertionError("mdgate sim exited with " + exit + ": " + simErr);
        }
        System.out.println(dir.getFileName() + " sim: " + simOut.toString().trim());
        return ReadJson.parseObject(simOut.toString().trim());
    }

    boolean simDone()
    {
        return sim.isDone();
    }

    /** @return each session the simulator sent, by name, with its number of messages. */
    static Map<String, Long> sessions(final Map<String, Object> summary)
    {
        final Map<String, Long> sessions = new LinkedHashMap<>();
        for (final Object session : (List<?>)summary.get("sessions"))
        {
            final Map<?, ?> s = (Map<?, ?>)session;
            sessions.put((String)s.get("session"), (Long)s.get("messages"));
        }
        return sessions;
    }

    /** @return the sum over both lines of one of the summary's per-line fault counts. */
    static long injected(final Map<String, Object> summary, final String fault)
    {
        final Map<?, ?> faults = (Map<?, ?>)summary.get("faults");
        return (Long)((Map<?, ?>)faults.get("A")).get(fault) + (Long)((Map<?, ?>)faults.get("B")).get(fault);
    }

    /** @return a snapshot of the counters file as it is now, or null while there is none to read. */
    CountersSnapshot counters()
    {
        try (CountersFile file = CountersFile.open(counters))
        {
            return file.snapshot();
        }
        catch (final CountersFileException | IllegalStateException ex)
        {
            return null;
        }
    }

    /** Waits (up to 120 s) until the running gateway's counters satisfy the condition. */
    CountersSnapshot awaitCounters(final Predicate<CountersSnapshot> condition, final String what)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        CountersSnapshot s = null;
        while (System.nanoTime() < deadline)
        {
            s = counters();
            if (s != null && gateway != null && s.pid() == gateway.pid() && condition.test(s))
            {
                return s;
            }
            if (gateway != null && !gateway.isAlive())
            {
                throw new AssertionError("the gateway exited with " + gateway.exitValue() + " waiting for " + what +
                    ": " + logs());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("waited 120 s for " + what + "; counters: " + (s == null ? "none" : feed(s)));
    }

    /**
     * After the simulator finished: waits until the journal and the egress have stopped moving (the same position,
     * equal, for 2 s) and both consumers recorded up to that position.
     *
     * @return the last counters.
     */
    CountersSnapshot awaitQuiet() throws InterruptedException, IOException
    {
        long last = -1;
        long since = System.nanoTime();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        CountersSnapshot s = null;
        while (System.nanoTime() < deadline)
        {
            s = counters();
            final long position = s == null ? -1 : s.value("journal.position", -1);
            if (s == null || position != last || position != s.value("egress.last_sequence", -2))
            {
                last = position;
                since = System.nanoTime();
            }
            else if (System.nanoTime() - since > TimeUnit.SECONDS.toNanos(2))
            {
                break;
            }
            Thread.sleep(50);
        }
        final long consumersDeadline = Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
        while (System.nanoTime() < consumersDeadline && !recorded(last))
        {
            Thread.sleep(50);
        }
        return s;
    }

    private boolean recorded(final long ticks) throws IOException
    {
        for (final Path file : recordings.values())
        {
            if (!Files.exists(file) || Files.size(file) / TickLedger.TICK < ticks)
            {
                return false;
            }
        }
        return true;
    }

    /** @return the feed, journal and egress counters, for messages. */
    static String feed(final CountersSnapshot s)
    {
        return s.values().entrySet().stream()
            .filter(e -> e.getKey().startsWith("feed") || e.getKey().startsWith("journal") ||
                e.getKey().startsWith("egress.") && !e.getKey().contains("latency") || e.getKey().startsWith("session"))
            .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }

    /** @return every log this run wrote, for messages. */
    String logs()
    {
        final StringBuilder text = new StringBuilder();
        try (var list = Files.list(dir))
        {
            for (final Path log : list.filter(p -> p.toString().endsWith(".log")).sorted().toList())
            {
                final String content = Files.readString(log);
                text.append("\n--- ").append(log.getFileName()).append(":\n")
                    .append(content.length() > 4000 ? "..." + content.substring(content.length() - 4000) : content);
            }
        }
        catch (final IOException ex)
        {
            text.append(ex);
        }
        return text.toString();
    }

    private Process start(final List<String> mainAndArguments, final Path log) throws IOException
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
        command.addAll(List.of("-cp", System.getProperty("java.class.path")));
        command.addAll(mainAndArguments);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        processes.add(process);
        return process;
    }

    /** Kills every process this run started, by PID (descendants first), and the simulator's wait. */
    @Override
    public void close()
    {
        for (final Process process : processes)
        {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        for (final Process process : processes)
        {
            try
            {
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        if (sim != null)
        {
            try
            {
                sim.get(120, TimeUnit.SECONDS);
            }
            catch (final Exception ex)
            {
                System.err.println("mdgate sim did not end cleanly: " + ex);
            }
        }
    }

    private String configText()
    {
        final String[] a = groupA.split(":");
        final String[] b = groupB.split(":");
        final StringBuilder consumers = new StringBuilder();
        for (final String name : CONSUMERS)
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
            %s

            [egress]
            transport = "shm"
            shm_dir = "%s"
            instance = "%s"

            %s
            [[cores]]
            cpu = 0
            agents = ["ingress:p0:0", "session"]
            idle = "backoff"

            [[cores]]
            cpu = 1
            agents = ["journal", "egress", "housekeeping"]
            idle = "backoff"
            """.formatted(instance, counters, dir.resolve("hlog"), retransmitPort, a[0], a[1], b[0], b[1], journal,
            journalKeys, dir.resolve("shm"), instance, consumers);
    }
}
