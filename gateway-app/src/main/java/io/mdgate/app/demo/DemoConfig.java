package io.mdgate.app.demo;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes the gateway configuration ({@code mdgate run --config}, TOML, docs/CONFIGURATION.md) of one demo run:
 * both lines into one port (DPDK af_packet on the gateway's veth, or a kernel socket), the re-request server of
 * the simulator, journal and hlog files under the demo's directory, shm egress with the demo's consumers, and a
 * core map ({@link CoreMap}): by default run-to-completion, the whole gateway on one busy-spinning thread on the last
 * CPU, the simulator and the consumers on the others (on a one-CPU host the thread backs off, since it shares the
 * CPU with them); or the pipeline, ingress and session busy-spinning on the last CPU, journal and egress on a
 * backing-off thread on the first, beside the simulator and the consumers. Immutable and thread-safe.
 *
 * @param mode           how the lines are received.
 * @param ingressDevice  the interface the port reads: the gateway's veth, or {@code lo}.
 * @param groupA         line A, {@code address:port}.
 * @param groupB         line B, {@code address:port}.
 * @param retransmit     the simulator's re-request server, {@code address:port}.
 * @param directory      the demo's directory (journal, hlog, counters).
 * @param shmInstance    the egress instance name, unique per run.
 * @param consumers      the consumers allowed to connect.
 * @param cpus           the host's online CPUs, ascending.
 * @param map            where the gateway's agents run.
 */
public record DemoConfig(
    IngressMode mode,
    String ingressDevice,
    String groupA,
    String groupB,
    String retransmit,
    Path directory,
    String shmInstance,
    List<DemoConsumer.Spec> consumers,
    List<Integer> cpus,
    CoreMap map)
{
    /** Where the demo gateway's agents run. */
    public enum CoreMap
    {
        /** Ingress, session, journal and egress in one duty cycle on one thread: no hand-off between threads. */
        RUN_TO_COMPLETION,
        /** Ingress and session on one thread, journal and egress on another (two CPUs at least). */
        PIPELINE;

        /** @return the option's spelling, e.g. {@code run-to-completion}. */
        public String optionName()
        {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        /**
         * @param name {@code run-to-completion} or {@code pipeline}.
         * @return the map.
         * @throws IllegalArgumentException for any other name.
         */
        public static CoreMap parse(final String name)
        {
            for (final CoreMap map : values())
            {
                if (map.optionName().equals(name))
                {
                    return map;
                }
            }
            throw new IllegalArgumentException("the core map must be run-to-completion or pipeline, was '" + name +
                "'");
        }
    }

    /**
     * @throws IllegalArgumentException for the pipeline map on a one-CPU host (its two threads need two CPUs).
     */
    public DemoConfig
    {
        cpus = List.copyOf(cpus);
        if (map == CoreMap.PIPELINE && cpus.size() < 2)
        {
            throw new IllegalArgumentException("the pipeline core map needs two CPUs, this host has " + cpus.size() +
                "; use the run-to-completion map");
        }
    }

    /** Name of the gateway in the demo. */
    public static final String GATEWAY_NAME = "demo";

    /** EAL arguments of the demo: no hugepages needed, no PCI scan, nothing shared with other DPDK processes. */
    public static final List<String> EAL_ARGS = List.of("--no-huge", "-m", "256", "--no-pci", "--no-shconf",
        "--no-telemetry");

    /** @return the journal directory the run leaves behind. */
    public Path journalDir()
    {
        return directory.resolve("journal");
    }

    /** @return the directory of the per-stage latency logs. */
    public Path hlogDir()
    {
        return directory.resolve("hlog");
    }

    /** @return the gateway's counters file. */
    public Path countersFile()
    {
        return directory.resolve("counters");
    }

    /** @return the configuration file's text. */
    public String toToml()
    {
        final StringBuilder toml = new StringBuilder(2048);
        toml.append("# mdgate demo gateway: written by 'mdgate demo' for one run (").append(mode.description())
            .append(")\n");
        toml.append("[gateway]\n");
        toml.append("name = ").append(quote(GATEWAY_NAME)).append('\n');
        toml.append("counters_file = ").append(quote(countersFile().toAbsolutePath().toString())).append('\n');
        toml.append("hlog_dir = ").append(quote(hlogDir().toAbsolutePath().toString())).append("\n\n");
        toml.append("[feed]\n");
        toml.append("session = \"\"\n");
        toml.append("gap_wait_ms = 2\n");
        toml.append("retransmit = ").append(quote(retransmit)).append('\n');
        toml.append("stale_after_ms = 2000\n");
        // the demo shares two CPUs between exchange, gateway and consumers: an answer may take tens of ms
        toml.append("retry_interval_ms = 50\n\n");
        line(toml, "A", groupA);
        line(toml, "B", groupB);
        if (mode == IngressMode.NETNS_DPDK)
        {
            toml.append("[dpdk]\n");
            toml.append("eal_args = [").append(EAL_ARGS.stream().map(DemoConfig::quote)
                .collect(Collectors.joining(", "))).append("]\n\n");
            toml.append("[[ports]]\nname = \"p0\"\ndriver = \"dpdk\"\n");
            toml.append("vdev = ").append(quote("net_af_packet0,iface=" + ingressDevice + ",framecnt=32768"))
                .append("\nqueues = 1\n\n");
        }
        else
        {
            toml.append("[[ports]]\nname = \"p0\"\ndriver = \"socket\"\n");
            toml.append("interface = ").append(quote(ingressDevice)).append("\nqueues = 1\n\n");
        }
        toml.append("[journal]\nenabled = true\n");
        toml.append("dir = ").append(quote(journalDir().toAbsolutePath().toString())).append("\n\n");
        toml.append("[egress]\ntransport = \"shm\"\nshm_dir = \"/dev/shm\"\n");
        toml.append("instance = ").append(quote(shmInstance)).append("\nmtu = 4096\n\n");
        for (final DemoConsumer.Spec consumer : consumers)
        {
            toml.append("[[egress.consumers]]\n");
            toml.append("name = ").append(quote(consumer.name())).append('\n');
            toml.append("token = ").append(quote(consumer.token())).append("\n\n");
        }
        cores(toml);
        return toml.toString();
    }

    /** @return the CPUs the gateway's threads do not use, for the simulator and the consumers (empty: share). */
    public List<Integer> otherCpus()
    {
        return cpus.size() < 2 ? List.of() : cpus.subList(0, cpus.size() - 1);
    }

    private void cores(final StringBuilder toml)
    {
        if (map == CoreMap.PIPELINE)
        {
            pipelineCores(toml);
            return;
        }
        // Run-to-completion: ingress, session, journal and egress in one duty cycle on the last CPU, which busy-spins
        // (as a gateway does in market hours) while the simulator and the consumers share the other CPUs. On a
        // one-CPU host the thread backs off instead, or it would starve everything else.
        final int first = cpus.isEmpty() ? 0 : cpus.get(0);
        final int last = cpus.isEmpty() ? 0 : cpus.get(cpus.size() - 1);
        final String pipeline = "\"ingress:p0:0\", \"session\", \"journal\", \"egress\"";
        if (first == last)
        {
            toml.append("[[cores]]\ncpu = ").append(last).append('\n');
            toml.append("agents = [").append(pipeline).append(", \"housekeeping\"]\nidle = \"backoff\"\n");
            return;
        }
        toml.append("[[cores]]\ncpu = ").append(last).append('\n');
        toml.append("agents = [").append(pipeline).append("]\nidle = \"busy-spin\"\n\n");
        toml.append("[[cores]]\ncpu = ").append(first).append('\n');
        toml.append("agents = [\"housekeeping\"]\nidle = \"sleep:1ms\"\n");
    }

    private void pipelineCores(final StringBuilder toml)
    {
        // The shape of the earlier demo: the thread that takes packets busy-spins on the last CPU, journal and egress
        // back off on the first one, which the simulator and the consumers share with them.
        toml.append("[[cores]]\ncpu = ").append(cpus.get(cpus.size() - 1)).append('\n');
        toml.append("agents = [\"ingress:p0:0\", \"session\"]\nidle = \"busy-spin\"\n\n");
        toml.append("[[cores]]\ncpu = ").append(cpus.get(0)).append('\n');
        toml.append("agents = [\"journal\", \"egress\", \"housekeeping\"]\nidle = \"backoff\"\n");
    }

    private static void line(final StringBuilder toml, final String name, final String group)
    {
        final int colon = group.lastIndexOf(':');
        toml.append("[[feed.lines]]\n");
        toml.append("name = ").append(quote(name)).append('\n');
        toml.append("group = ").append(quote(group.substring(0, colon))).append('\n');
        toml.append("port = ").append(group.substring(colon + 1)).append('\n');
        toml.append("port_name = \"p0\"\n\n");
    }

    private static String quote(final String text)
    {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
