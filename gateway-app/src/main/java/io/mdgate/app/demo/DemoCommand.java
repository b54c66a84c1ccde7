package io.mdgate.app.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.mdgate.app.JsonOutput;
import io.mdgate.app.OutputPaths;
import io.mdgate.app.report.HlogFiles;
import io.mdgate.app.report.LatencySeries;
import io.mdgate.app.sim.SimulatorSettings;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.runtime.config.ConfigException;
import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.SysFs;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import io.mdgate.ingress.DpdkNative;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code mdgate demo}: runs the whole chain on this host for {@code --duration} seconds and prints a summary. As
 * root: two network namespaces joined by a veth, the simulator on one side sending lines A and B with injected
 * loss and serving re-requests, the gateway ({@code mdgate run}, DPDK af_packet) on the other; otherwise kernel
 * sockets on the loopback interface. Four consumers (one slow) read the shm egress; a dashboard follows the
 * counters file. Leaves the journal, the latency logs and the logs of each process under {@code --dir}; removes
 * every namespace and process it started on exit, on Ctrl-C and on failure.
 * <p>
 * Exit codes: 0 every consumer received every published sequence exactly once and no gap was lost, 1 otherwise or
 * when a part failed to start, 2 bad arguments. Runs on the calling thread (consumers on their own threads).
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Run the whole chain on this host: simulated exchange (A and B lines, with loss and a re-request server) -> " +
            "gateway (ingress, session, journal, shm egress) -> four consumers (--consumers), one slow; a live " +
            "dashboard, then a " +
            "summary. As root in two network namespaces with the DPDK af_packet ingress; otherwise kernel sockets " +
            "on loopback.",
        "Example: mdgate demo --duration 20 --json",
        "Latency: mdgate demo --loss 0 --rate 100000 --consumers 1 --consumer-idle yield" })
public final class DemoCommand implements Callable<Integer>
{
    private static final long GATEWAY_START_TIMEOUT_MS = 60_000;
    private static final long CONSUMERS_CONNECT_TIMEOUT_MS = 30_000;
    private static final long DRAIN_TIMEOUT_MS = 30_000;
    private static final int RETRANSMIT_PORT = 26478;
    private static final int SIGTERM_EXIT = 143;
    private static final long SIM_LINGER_MS = 3_000;
    private static final Path TASKSET = Path.of("/usr/bin/taskset");
    /** The demo's own latency log, beside the gateway's stage logs: ingress receive to consumer delivery. */
    static final String END_TO_END_LOG = "ingress_to_consumer.hlog";
    /** The consumers --consumers takes, in order: name and delivery path. */
    private static final String[][] CONSUMER_KINDS =
        { { "fast1", "ring" }, { "fast2", "ring" }, { "stream", "stream" }, { "slow", "ring" } };

    @Spec
    CommandSpec spec;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "30",
        description = "How long the simulator sends (default ${DEFAULT-VALUE}; the whole run takes ~15 s more).")
    long duration;

    @Option(names = "--rate", paramLabel = "MSG_PER_S", defaultValue = "20000",
        description = "Messages per second the simulator sends (default ${DEFAULT-VALUE}).")
    long rate;

    @Option(names = "--loss", paramLabel = "P", defaultValue = "0.002",
        description = "Probability a packet starts a loss, on each line (default ${DEFAULT-VALUE}).")
    double loss;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Simulator seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--ingress", paramLabel = "auto|dpdk|socket", defaultValue = "auto",
        description = "auto (default): DPDK af_packet in namespaces as root, kernel sockets otherwise.")
    String ingress;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "target/demo",
        description = "Where the run leaves its configuration, journal, latency logs and logs (default ${DEFAULT-VALUE}); " +
            "emptied of a previous run's files first.")
    Path dir;

    @Option(names = "--map", paramLabel = "run-to-completion|pipeline", defaultValue = "run-to-completion",
        description = "Where the gateway's agents run: run-to-completion (default: ingress, session, journal and " +
            "egress on one busy-spinning thread on the last CPU) or pipeline (ingress and session busy-spinning on " +
            "the last CPU, journal and egress backing off on the first; two CPUs at least).")
    String map;

    @Option(names = "--consumers", paramLabel = "N", defaultValue = "4",
        description = "How many consumers, 1..4, taken in this order: fast1 (ring), fast2 (ring), stream, slow " +
            "(ring, stalls now and then) (default ${DEFAULT-VALUE}).")
    int consumerCount;

    @Option(names = "--consumer-idle", paramLabel = "spin|yield|backoff", defaultValue = "backoff",
        description = "How each consumer thread waits after an empty poll: spin, yield, or backoff (default: spins, " +
            "yields, then parks up to 200 us, which adds that much latency after a quiet spell).")
    String consumerIdle;

    @Option(names = "--packet-window-us", paramLabel = "US", defaultValue = "10",
        description = "The simulator puts the messages of this much exchange time into one packet (default " +
            "${DEFAULT-VALUE}; larger windows mean fewer, fuller packets).")
    long packetWindowMicros;

    @Option(names = "--sim-cpus", paramLabel = "LIST",
        description = "CPUs the simulator runs on, e.g. 1 or 0-1 (default: the CPUs the gateway's busy core does " +
            "not use, which the consumers share).")
    String simCpus;

    @Option(names = "--json", description = "Print the summary as one JSON object (the dashboard goes to stderr).")
    boolean json;

    @Option(names = "--no-dashboard", description = "No live dashboard, only the summary.")
    boolean noDashboard;

    private long sendMillis;

    @Override
    public Integer call()
    {
        validate();
        OutputPaths.checkDirectory(spec.commandLine(), "--dir", dir);
        final IngressMode mode = mode();
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final PrintWriter screen = json ? err : out;
        final long startMs = System.currentTimeMillis();
        final String suffix = Long.toString(ProcessHandle.current().pid());
        final ChildProcesses children = new ChildProcesses(10_000);
        final DemoNetwork[] network = new DemoNetwork[1];
        final List<DemoConsumer> consumers = new ArrayList<>();
        final Thread hook = new Thread(() -> cleanUp(children, network[0]), "demo-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            prepareDirectory();
            if (mode.namespaces())
            {
                network[0] = DemoNetwork.create(suffix);
            }
            final DemoConfig config = config(mode, network[0], suffix);
            final Path configFile = dir.resolve("gateway.toml");
            Files.writeString(configFile, config.toToml());
            ConfigLoader.load(configFile);
            say(screen, "mdgate demo: " + mode.description() + ", " + config.map().optionName() + " core map, " +
                config.consumers().size() + " consumer(s) idling by " + consumerIdle + "; files in " + dir);

            final ChildProcesses.Child gateway = children.start("gateway", inside(mode, network[0], false,
                DemoLauncher.javaCommand("run", List.of("--config", configFile.toAbsolutePath().toString()))),
                dir.resolve("logs/gateway.log"));
            final CountersFile counters = awaitGateway(gateway, config.countersFile());
            try (counters)
            {
                for (final DemoConsumer.Spec consumerSpec : config.consumers())
                {
                    final DemoConsumer consumer = new DemoConsumer(consumerSpec, Path.of("/dev/shm"),
                        config.shmInstance(), DemoConsumer.Idle.parse(consumerIdle), new TreeSet<>(config.otherCpus()));
                    consumers.add(consumer);
                    consumer.start();
                }
                awaitConsumers(consumers, gateway);
                final ChildProcesses.Child sim = children.start("simulator", inside(mode, network[0], true,
                    onCpus(simCpus(config), DemoLauncher.javaCommand("sim", simArguments(mode, network[0])))),
                    dir.resolve("logs/sim.log"),
                    dir.resolve("logs/sim.json"));
                final long sendStartMs = System.currentTimeMillis();
                watch(screen, mode, counters, consumers, gateway, sim, sendStartMs);
                sendMillis = Math.max(1, System.currentTimeMillis() - sendStartMs - SIM_LINGER_MS);
                drain(counters, consumers, gateway);
            }
            final List<DemoConsumer.Result> results = new ArrayList<>();
            for (final DemoConsumer consumer : consumers)
            {
                results.add(consumer.join(10_000));
            }
            consumers.clear();
            final int gatewayExit = children.stop(gateway);
            final DemoSummary summary = summary(mode, config, results, gatewayExit, startMs);
            out.print(json ? summary.toJson() + System.lineSeparator() : summary.toText());
            out.flush();
            return summary.problems().isEmpty() ? 0 : 1;
        }
        catch (final ConfigException ex)
        {
            err.println("mdgate demo: the generated gateway configuration was refused: " + ex.getMessage());
            return 1;
        }
        catch (final DemoFailure | IllegalStateException | UncheckedIOException | IOException ex)
        {
            err.println("mdgate demo: " + ex.getMessage());
            return 1;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err.println("mdgate demo: interrupted");
            return 1;
        }
        finally
        {
            for (final DemoConsumer consumer : consumers)
            {
                stopQuietly(consumer);
            }
            cleanUp(children, network[0]);
            removeHook(hook);
            err.flush();
        }
    }

    private void validate()
    {
        if (duration < 5 || duration > 3_600)
        {
            throw new ParameterException(spec.commandLine(), "--duration must be 5..3600 seconds, was " + duration);
        }
        if (rate < 100 || rate > 5_000_000)
        {
            throw new ParameterException(spec.commandLine(), "--rate must be 100..5000000 messages/s, was " + rate);
        }
        if (!(loss >= 0 && loss <= 0.1))
        {
            throw new ParameterException(spec.commandLine(), "--loss must be 0..0.1 (a probability), was " + loss);
        }
        if (!List.of("auto", "dpdk", "socket").contains(ingress))
        {
            throw new ParameterException(spec.commandLine(), "--ingress must be auto, dpdk or socket, was '" +
                ingress + "'");
        }
        if (consumerCount < 1 || consumerCount > CONSUMER_KINDS.length)
        {
            throw new ParameterException(spec.commandLine(), "--consumers must be 1.." + CONSUMER_KINDS.length +
                ", was " + consumerCount);
        }
        if (null != simCpus)
        {
            final java.util.SortedSet<Integer> cpus;
            try
            {
                cpus = SysFs.parseCpuList(simCpus);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new ParameterException(spec.commandLine(), "--sim-cpus must be a CPU list such as 0 or 0-1, " +
                    "was '" + simCpus + "'");
            }
            if (cpus.isEmpty())
            {
                throw new ParameterException(spec.commandLine(), "--sim-cpus must be a CPU list such as 0 or 0-1, " +
                    "was '" + simCpus + "'");
            }
            if (!onlineCpus().containsAll(cpus))
            {
                throw new ParameterException(spec.commandLine(), "--sim-cpus must name online CPUs (" +
                    SysFs.formatCpuList(new TreeSet<>(onlineCpus())) + "), was '" + simCpus + "'");
            }
        }
        if (packetWindowMicros < 0 || packetWindowMicros > 1_000_000)
        {
            throw new ParameterException(spec.commandLine(), "--packet-window-us must be 0 to 1000000 us, was " +
                packetWindowMicros);
        }
        try
        {
            DemoConsumer.Idle.parse(consumerIdle);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), "--consumer-idle must be spin, yield or backoff, was '" +
                consumerIdle + "'");
        }
        final DemoConfig.CoreMap coreMap;
        try
        {
            coreMap = DemoConfig.CoreMap.parse(map);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), "--map must be run-to-completion or pipeline, was '" +
                map + "'");
        }
        if (coreMap == DemoConfig.CoreMap.PIPELINE && onlineCpus().size() < 2)
        {
            throw new ParameterException(spec.commandLine(), "--map pipeline needs two CPUs, this host has " +
                onlineCpus().size() + "; use --map run-to-completion");
        }
    }

    private IngressMode mode()
    {
        final String noNamespaces = DemoNetwork.unavailableReason();
        final boolean dpdk = DpdkNative.isAvailable();
        if ("dpdk".equals(ingress))
        {
            if (null != noNamespaces || !dpdk)
            {
                throw new ParameterException(spec.commandLine(), "--ingress dpdk needs " + (null != noNamespaces ?
                    "network namespaces: " + noNamespaces : "the DPDK library: " + DpdkNative.unavailabilityCause()) +
                    "; use --ingress socket (or auto)");
            }
            return IngressMode.NETNS_DPDK;
        }
        if (null != noNamespaces)
        {
            return IngressMode.LOOPBACK_SOCKET;
        }
        return "auto".equals(ingress) && dpdk ? IngressMode.NETNS_DPDK : IngressMode.NETNS_SOCKET;
    }

    private void prepareDirectory() throws IOException
    {
        Files.createDirectories(dir);
        for (final String previous : List.of("journal", "hlog", "logs", "counters", "gateway.toml"))
        {
            deleteRecursively(dir.resolve(previous));
        }
        Files.createDirectories(dir.resolve("logs"));
    }

    private DemoConfig config(final IngressMode mode, final DemoNetwork network, final String suffix)
    {
        final SecureRandom random = new SecureRandom();
        final List<DemoConsumer.Spec> specs = new ArrayList<>();
        for (int i = 0; i < consumerCount; i++)
        {
            final String[] kind = CONSUMER_KINDS[i];
            final byte[] token = new byte[16];
            random.nextBytes(token);
            specs.add(new DemoConsumer.Spec(kind[0], HexFormat.of().formatHex(token),
                "ring".equals(kind[1]) ? DeliveryPath.RING : DeliveryPath.STREAM, "slow".equals(kind[0])));
        }
        final String device = mode.namespaces() ? network.gatewayInterface() : "lo";
        final String retransmitHost = mode.namespaces() ? DemoNetwork.EXCHANGE_ADDRESS : "127.0.0.1";
        return new DemoConfig(mode, device, SimulatorSettings.DEFAULT_GROUP_A.toString(),
            SimulatorSettings.DEFAULT_GROUP_B.toString(),
            retransmitHost + ":" + RETRANSMIT_PORT, dir, "mdgate-demo-" + suffix, specs, onlineCpus(),
            DemoConfig.CoreMap.parse(map));
    }

    private List<String> simArguments(final IngressMode mode, final DemoNetwork network)
    {
        final List<String> args = new ArrayList<>(List.of(
            "--send", mode.namespaces() ? network.exchangeInterface() : "lo",
            "--messages", Long.toString(rate * duration),
            "--rate", Long.toString(rate),
            "--seed", Long.toString(seed),
            "--loss-a", Double.toString(loss),
            "--loss-b", Double.toString(loss),
            "--loss-burst", "3",
            "--max-idle-ms", "20",
            "--packet-window-us", Long.toString(packetWindowMicros),
            "--pacing", "sleep",
            "--serve-retransmits", Integer.toString(RETRANSMIT_PORT),
            "--retransmit-address", mode.namespaces() ? DemoNetwork.EXCHANGE_ADDRESS : "127.0.0.1",
            "--linger-ms", Long.toString(SIM_LINGER_MS),
            "--json"));
        return args;
    }

    private List<Integer> simCpus(final DemoConfig config)
    {
        return null == simCpus ? config.otherCpus() : List.copyOf(SysFs.parseCpuList(simCpus));
    }

    /** Keeps the simulator off the gateway's CPU (taskset), so that it shares only the consumers' CPUs. */
    private static List<String> onCpus(final List<Integer> cpus, final List<String> command)
    {
        if (cpus.isEmpty() || !Files.isExecutable(TASKSET))
        {
            return command;
        }
        final List<String> line = new ArrayList<>(List.of(TASKSET.toString(), "-c",
            String.join(",", cpus.stream().map(String::valueOf).toList())));
        line.addAll(command);
        return line;
    }

    private static List<String> inside(final IngressMode mode, final DemoNetwork network, final boolean exchange,
        final List<String> command)
    {
        if (!mode.namespaces())
        {
            return command;
        }
        return DemoNetwork.inside(exchange ? network.exchangeNamespace() : network.gatewayNamespace(), command);
    }

    private CountersFile awaitGateway(final ChildProcesses.Child gateway, final Path countersFile)
        throws InterruptedException
    {
        final long end = System.currentTimeMillis() + GATEWAY_START_TIMEOUT_MS;
        String lastProblem = "no counters file yet";
        while (System.currentTimeMillis() < end)
        {
            if (!gateway.process().isAlive())
            {
                throw new DemoFailure("the gateway exited (code " + gateway.process().exitValue() + ") before it " +
                    "started; its log " + gateway.log() + " ends with:\n" + tail(gateway.log(), 15));
            }
            if (Files.exists(countersFile))
            {
                try
                {
                    final CountersFile counters = CountersFile.open(countersFile);
                    if (counters.snapshot().state() == CountersSnapshot.State.RUNNING)
                    {
                        return counters;
                    }
                    counters.close();
                }
                catch (final RuntimeException ex)
                {
                    lastProblem = ex.getMessage();
                }
            }
            Thread.sleep(100);
        }
        throw new DemoFailure("the gateway did not start in " + GATEWAY_START_TIMEOUT_MS / 1000 + " s (" +
            lastProblem + "); its log " + gateway.log() + " ends with:\n" + tail(gateway.log(), 15));
    }

    private void awaitConsumers(final List<DemoConsumer> consumers, final ChildProcesses.Child gateway)
        throws InterruptedException
    {
        final long end = System.currentTimeMillis() + CONSUMERS_CONNECT_TIMEOUT_MS;
        while (System.currentTimeMillis() < end)
        {
            if (consumers.stream().allMatch(DemoConsumer::connected))
            {
                return;
            }
            for (final DemoConsumer consumer : consumers)
            {
                if (null != consumer.error())
                {
                    throw new DemoFailure("consumer " + consumer.spec().name() + " failed: " + consumer.error());
                }
            }
            if (!gateway.process().isAlive())
            {
                throw new DemoFailure("the gateway exited (code " + gateway.process().exitValue() + ") while the " +
                    "consumers connected; its log " + gateway.log() + " ends with:\n" + tail(gateway.log(), 15));
            }
            Thread.sleep(50);
        }
        throw new DemoFailure("consumers not connected after " + CONSUMERS_CONNECT_TIMEOUT_MS / 1000 + " s: " +
            consumers.stream().filter(c -> !c.connected()).map(c -> c.spec().name()).toList());
    }

    private void watch(final PrintWriter screen, final IngressMode mode, final CountersFile counters,
        final List<DemoConsumer> consumers, final ChildProcesses.Child gateway, final ChildProcesses.Child sim,
        final long sendStartMs) throws InterruptedException
    {
        final boolean interactive = null != System.console() && !noDashboard;
        final long end = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(duration * 2 + 60);
        Map<String, Long> previous = Map.of();
        long previousMs = System.currentTimeMillis();
        long nextLine = previousMs;
        while (sim.process().isAlive())
        {
            if (!gateway.process().isAlive())
            {
                throw new DemoFailure("the gateway exited (code " + gateway.process().exitValue() + ") while " +
                    "running; its log " + gateway.log() + " ends with:\n" + tail(gateway.log(), 15));
            }
            if (System.currentTimeMillis() > end)
            {
                throw new DemoFailure("the simulator is still sending after " + (duration * 2 + 60) + " s; see " +
                    sim.log());
            }
            sim.process().waitFor(1, TimeUnit.SECONDS);
            final long nowMs = System.currentTimeMillis();
            final Map<String, Long> now = values(counters, consumers);
            if (interactive)
            {
                screen.print(Dashboard.CLEAR_SCREEN + Dashboard.render(header(mode, gateway, sim, sendStartMs), now,
                    previous, (nowMs - previousMs) / 1e3));
                screen.flush();
            }
            else if (!noDashboard && nowMs >= nextLine)
            {
                screen.println(progressLine(now, sendStartMs));
                screen.flush();
                nextLine = nowMs + 5_000;
            }
            previous = now;
            previousMs = nowMs;
        }
        if (sim.process().exitValue() != 0)
        {
            throw new DemoFailure("the simulator failed (exit " + sim.process().exitValue() + "); its log " +
                sim.log() + " ends with:\n" + tail(sim.log(), 15));
        }
    }

    /**
     * Waits until the gateway has taken the session's end, every consumer has the last published sequence, and the
     * gateway published nothing new for 1 s (or {@link #DRAIN_TIMEOUT_MS} passed).
     */
    private void drain(final CountersFile counters, final List<DemoConsumer> consumers,
        final ChildProcesses.Child gateway) throws InterruptedException
    {
        final long end = System.currentTimeMillis() + DRAIN_TIMEOUT_MS;
        long stableSince = System.currentTimeMillis();
        long lastPublished = -1;
        while (System.currentTimeMillis() < end && gateway.process().isAlive())
        {
            final CountersSnapshot snapshot = counters.snapshot();
            final long published = snapshot.value("egress.last_sequence", -1);
            if (published != lastPublished)
            {
                lastPublished = published;
                stableSince = System.currentTimeMillis();
            }
            final long slowest = consumers.stream().mapToLong(DemoConsumer::lastSequence).min().orElse(published);
            if (drained(snapshot.value("feed.end_of_session", 0), published, slowest,
                System.currentTimeMillis() - stableSince))
            {
                return;
            }
            Thread.sleep(50);
        }
    }

    /**
     * Whether a run has drained. A quiet second alone is not enough: a gateway short of CPU may publish the last
     * ticks of a session (gaps filled or declared lost) seconds after the rest.
     *
     * @param endOfSession    the gateway's {@code feed.end_of_session} count.
     * @param published       the last sequence the gateway published.
     * @param slowestConsumer the lowest last sequence among the consumers.
     * @param quietMillis     how long {@code published} has not changed.
     * @return true when the session ended, every consumer has {@code published}, and it was quiet for 1 s.
     */
    static boolean drained(final long endOfSession, final long published, final long slowestConsumer,
        final long quietMillis)
    {
        return endOfSession > 0 && slowestConsumer >= published && quietMillis >= 1_000;
    }

    private static Map<String, Long> values(final CountersFile counters, final List<DemoConsumer> consumers)
    {
        final Map<String, Long> values = new LinkedHashMap<>(counters.snapshot().values());
        for (final DemoConsumer consumer : consumers)
        {
            values.put("demo.consumer." + consumer.spec().name() + ".received", consumer.delivered());
        }
        return values;
    }

    private List<String> header(final IngressMode mode, final ChildProcesses.Child gateway,
        final ChildProcesses.Child sim, final long sendStartMs)
    {
        return List.of(
            "mdgate demo: " + mode.description(),
            String.format(Locale.ROOT, "sending %d s of %d, %,d msg/s, loss %.2f%% of packets per line | gateway pid " +
                "%d, simulator pid %d | Ctrl-C stops", (System.currentTimeMillis() - sendStartMs) / 1000, duration, rate,
                loss * 100, gateway.pid(), sim.pid()));
    }

    private static String progressLine(final Map<String, Long> now, final long startMs)
    {
        return String.format(Locale.ROOT, "mdgate demo: sending %3d s | published %,d | gaps opened %,d, lost %,d | " +
            "journal ticks %,d", (System.currentTimeMillis() - startMs) / 1000,
            now.getOrDefault("egress.ticks_published", 0L), now.getOrDefault("feed.gaps.opened", 0L),
            now.getOrDefault("feed.gaps.lost", 0L), now.getOrDefault("journal.ticks", 0L));
    }

    private DemoSummary summary(final IngressMode mode, final DemoConfig config,
        final List<DemoConsumer.Result> results, final int gatewayExit, final long startMs)
    {
        final Map<String, Long> finalCounters;
        try (CountersFile counters = CountersFile.open(config.countersFile()))
        {
            finalCounters = counters.snapshot().values();
        }
        final JsonNode sim = readJson(dir.resolve("logs/sim.json"));
        List<LatencySeries> stages = List.of();
        if (Files.isDirectory(config.hlogDir()))
        {
            try
            {
                stages = HlogFiles.read(HlogFiles.expand(List.of(config.hlogDir())));
            }
            catch (final IllegalArgumentException | UncheckedIOException ex)
            {
                stages = List.of();
            }
        }
        final List<String> problems = new ArrayList<>();
        // run stops on SIGTERM through a shutdown hook, so the JVM's exit code is 128 + 15 after a clean stop
        if (gatewayExit != 0 && gatewayExit != SIGTERM_EXIT)
        {
            problems.add("the gateway exited with code " + gatewayExit + " after SIGTERM (see " +
                dir.resolve("logs/gateway.log") + ")");
        }
        final long lost = finalCounters.getOrDefault("feed.gaps.lost", 0L);
        if (lost > 0)
        {
            problems.add(lost + " gaps were declared lost");
        }
        final long lastSequence = finalCounters.getOrDefault("egress.last_sequence", -1L);
        for (final DemoConsumer.Result r : results)
        {
            if (null != r.error())
            {
                problems.add("consumer " + r.name() + ": " + r.error());
            }
            if (r.missing() > 0 || r.repeated() > 0)
            {
                problems.add("consumer " + r.name() + " missed " + r.missing() + " and repeated " + r.repeated() +
                    " sequences");
            }
            if (lastSequence > 0 && r.first() != 1)
            {
                problems.add("consumer " + r.name() + " started at sequence " + r.first() + ", not 1");
            }
            if (r.last() != lastSequence)
            {
                problems.add("consumer " + r.name() + " ended at sequence " + r.last() + ", the gateway published up " +
                    "to " + lastSequence);
            }
            if (null != r.counters() && r.counters().unrecovered() > 0)
            {
                problems.add("consumer " + r.name() + " could not recover " + r.counters().unrecovered() + " ticks");
            }
        }
        if (null == sim)
        {
            problems.add("the simulator printed no summary (see " + dir.resolve("logs/sim.log") + ")");
        }
        final DemoSummary summary = new DemoSummary(mode, config.map(), DemoConsumer.Idle.parse(consumerIdle),
            duration, rate, System.currentTimeMillis() - startMs,
            sendMillis, sim, finalCounters, results, stages, config.journalDir(), problems);
        writeEndToEndLog(config.hlogDir(), summary.endToEnd());
        return summary;
    }

    /** Adds the consumers' ingress-to-consumer latency to the gateway's stage logs, for {@code mdgate report}. */
    private static void writeEndToEndLog(final Path hlogDir, final Histogram endToEnd)
    {
        if (endToEnd.getTotalCount() == 0)
        {
            return;
        }
        try
        {
            Files.createDirectories(hlogDir);
            try (PrintStream stream = new PrintStream(Files.newOutputStream(hlogDir.resolve(END_TO_END_LOG)), false,
                StandardCharsets.US_ASCII))
            {
                final HistogramLogWriter writer = new HistogramLogWriter(stream);
                writer.outputLogFormatVersion();
                writer.outputLegend();
                endToEnd.setTag("ingress_to_consumer");
                writer.outputIntervalHistogram(endToEnd);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + hlogDir.resolve(END_TO_END_LOG), ex);
        }
    }

    private JsonNode readJson(final Path file)
    {
        try
        {
            final String text = Files.exists(file) ? Files.readString(file).trim() : "";
            return text.isEmpty() ? null : JsonOutput.mapper().readTree(text);
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    private static List<Integer> onlineCpus()
    {
        final Path online = Path.of("/sys/devices/system/cpu/online");
        final List<Integer> cpus = new ArrayList<>();
        try
        {
            for (final String range : Files.readString(online).trim().split(","))
            {
                final String[] bounds = range.split("-");
                final int from = Integer.parseInt(bounds[0].trim());
                final int to = bounds.length > 1 ? Integer.parseInt(bounds[1].trim()) : from;
                for (int cpu = from; cpu <= to; cpu++)
                {
                    cpus.add(cpu);
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            cpus.clear();
            cpus.add(0);
        }
        return cpus;
    }

    static String tail(final Path file, final int lines)
    {
        try
        {
            final List<String> all = Files.readAllLines(file);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return "(no log: " + ex.getMessage() + ")";
        }
    }

    private static void deleteRecursively(final Path path) throws IOException
    {
        if (!Files.exists(path))
        {
            return;
        }
        try (Stream<Path> walk = Files.walk(path))
        {
            for (final Path p : walk.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(p);
            }
        }
    }

    private static void say(final PrintWriter screen, final String line)
    {
        screen.println(line);
        screen.flush();
    }

    private static void stopQuietly(final DemoConsumer consumer)
    {
        try
        {
            consumer.join(2_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void cleanUp(final ChildProcesses children, final DemoNetwork network)
    {
        children.close();
        if (null != network)
        {
            network.close();
        }
    }

    private static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ex)
        {
            // the JVM is shutting down: the hook runs (or ran) and cleans up the same things
        }
    }

    /** A part of the demo failed; the message says which and where its log is. */
    static final class DemoFailure extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        DemoFailure(final String message)
        {
            super(message);
        }
    }
}
