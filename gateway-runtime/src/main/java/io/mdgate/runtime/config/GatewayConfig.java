package io.mdgate.runtime.config;

import io.mdgate.egress.transport.shm.HugepageMode;
import io.mdgate.egress.transport.verbs.VerbsContext;
import io.mdgate.journal.JournalRollCycle;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A gateway's whole configuration, as read from its TOML file by {@link ConfigLoader}: the feed and its lines, the
 * ports that receive them, the journal, the egress and its consumers, the market hours and the core map. Every
 * record is immutable (lists are copied) and safe to share between threads. The loader checks each value on its
 * own and the references between sections; whether the core map fits the host is {@link CoreMapValidator}'s job.
 * The TOML keys are in docs/CONFIGURATION.md.
 *
 * @param gateway     {@code [gateway]}: name, counters file, latency logs, ring size.
 * @param feed        {@code [feed]} and its {@code [[feed.lines]]}.
 * @param dpdk        {@code [dpdk]}: EAL arguments.
 * @param ports       {@code [[ports]]}: the ports that receive the lines, in file order.
 * @param journal     {@code [journal]}.
 * @param egress      {@code [egress]} and its {@code [[egress.consumers]]}.
 * @param book        {@code [book]}: the order books' capacities and the depth published.
 * @param marketHours {@code [market_hours]}: the schedule of the market-hours idle strategy.
 * @param cores       {@code [[cores]]}: the core map, in file order.
 */
public record GatewayConfig(
    Gateway gateway,
    Feed feed,
    Dpdk dpdk,
    List<Port> ports,
    Journal journal,
    Egress egress,
    Book book,
    MarketHours marketHours,
    List<Core> cores)
{
    public GatewayConfig
    {
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(feed, "feed");
        Objects.requireNonNull(dpdk, "dpdk");
        ports = List.copyOf(ports);
        Objects.requireNonNull(journal, "journal");
        Objects.requireNonNull(egress, "egress");
        Objects.requireNonNull(book, "book");
        Objects.requireNonNull(marketHours, "marketHours");
        cores = List.copyOf(cores);
    }

    /**
     * @param name a port's name.
     * @return the {@code [[ports]]} entry of that name, if there is one.
     */
    public Optional<Port> port(final String name)
    {
        return ports.stream().filter((p) -> p.name().equals(name)).findFirst();
    }

    /**
     * @param newCores the new core map.
     * @return this configuration with its core map replaced.
     */
    public GatewayConfig withCores(final List<Core> newCores)
    {
        return new GatewayConfig(gateway, feed, dpdk, ports, journal, egress, book, marketHours, newCores);
    }

    /**
     * Every agent the configuration needs: one ingress per queue of every port a line uses, then session,
     * journal (when enabled), egress and housekeeping. The core map must place each exactly once.
     *
     * @return the agents, in that order.
     */
    public List<AgentRef> requiredAgents()
    {
        final List<AgentRef> agents = new ArrayList<>();
        for (final Port port : ports)
        {
            if (feed.lines().stream().anyMatch((l) -> l.portName().equals(port.name())))
            {
                for (int queue = 0; queue < port.queues(); queue++)
                {
                    agents.add(AgentRef.ingress(port.name(), queue));
                }
            }
        }
        agents.add(AgentRef.of(AgentKind.SESSION));
        if (journal.enabled())
        {
            agents.add(AgentRef.of(AgentKind.JOURNAL));
        }
        agents.add(AgentRef.of(AgentKind.EGRESS));
        agents.add(AgentRef.of(AgentKind.HOUSEKEEPING));
        return agents;
    }

    /**
     * {@code [gateway]}.
     *
     * @param name         the gateway's name (letters, digits, {@code . _ -}); used in default paths.
     * @param countersFile the memory-mapped counters file ({@code counters_file}).
     * @param hlogDir      the directory of the per-stage latency histogram logs ({@code hlog_dir}).
     * @param ringBytes    data capacity in bytes of each ring between agents ({@code ring_bytes}), a power of two.
     * @param keepRuns     previous runs whose counters file and latency logs are kept beside the current run's
     *                     ({@code keep_runs}).
     */
    public record Gateway(String name, Path countersFile, Path hlogDir, int ringBytes, int keepRuns)
    {
        public Gateway
        {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(countersFile, "countersFile");
            Objects.requireNonNull(hlogDir, "hlogDir");
        }
    }

    /**
     * {@code [feed]}.
     *
     * @param session      the MoldUDP64 session to accept; empty means the first one seen.
     * @param gapWaitMs    how long to wait for the other line before re-requesting ({@code gap_wait_ms}).
     * @param retransmit   the re-request server ({@code retransmit}), if any.
     * @param staleAfterMs a line silent this long is reported stale ({@code stale_after_ms}).
     * @param lines        line A and, optionally, line B, in that order.
     * @param retryIntervalMs how long to wait for a re-request's answer before asking again; a gap is given up
     *                     after the first request and 5 retries ({@code retry_interval_ms}).
     */
    public record Feed(
        String session, long gapWaitMs, Optional<InetSocketAddress> retransmit, long staleAfterMs, List<Line> lines,
        long retryIntervalMs)
    {
        /** Default of {@code retry_interval_ms}: the feed session's own default. */
        public static final long DEFAULT_RETRY_INTERVAL_MS = 2;

        public Feed
        {
            Objects.requireNonNull(session, "session");
            Objects.requireNonNull(retransmit, "retransmit");
            lines = List.copyOf(lines);
        }

        /**
         * A feed with the default re-request retry interval.
         */
        public Feed(
            final String session, final long gapWaitMs, final Optional<InetSocketAddress> retransmit,
            final long staleAfterMs, final List<Line> lines)
        {
            this(session, gapWaitMs, retransmit, staleAfterMs, lines, DEFAULT_RETRY_INTERVAL_MS);
        }

        /**
         * @param name {@code "A"} or {@code "B"}.
         * @return that line, if configured.
         */
        public Optional<Line> line(final String name)
        {
            return lines.stream().filter((l) -> l.name().equals(name)).findFirst();
        }
    }

    /**
     * {@code [[feed.lines]]}: one feed line.
     *
     * @param name     {@code "A"} or {@code "B"}.
     * @param group    the IPv4 multicast group.
     * @param port     the UDP port.
     * @param portName the {@code [[ports]]} entry that receives it ({@code port_name}).
     */
    public record Line(String name, Inet4Address group, int port, String portName)
    {
        public Line
        {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(portName, "portName");
        }

        /**
         * @return the line index used across mdgate: 0 for A, 1 for B (see {@code FeedLines}).
         */
        public int index()
        {
            return "A".equals(name) ? 0 : 1;
        }

        /**
         * @return {@code group:port}, e.g. {@code 233.54.12.111:26477}.
         */
        public String endpoint()
        {
            return group.getHostAddress() + ":" + port;
        }
    }

    /**
     * {@code [dpdk]}.
     *
     * @param ealArgs EAL arguments other than devices and cores, which come from {@code [[ports]]} and the core map.
     */
    public record Dpdk(List<String> ealArgs)
    {
        public Dpdk
        {
            ealArgs = List.copyOf(ealArgs);
        }
    }

    /**
     * The receive path of a port.
     */
    public enum Driver
    {
        /** A DPDK poll-mode driver, by vdev or PCI address. */
        DPDK,
        /** Kernel UDP sockets joined on an interface. */
        SOCKET;

        /**
         * @return the name used in the file.
         */
        public String label()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * {@code [[ports]]}: one receiving port.
     *
     * @param name          the port's name, referred to by lines and ingress agents.
     * @param driver        dpdk or socket.
     * @param vdev          dpdk: a virtual device, e.g. {@code net_af_packet0,iface=veth-a}; empty when by PCI.
     * @param pci           dpdk: a PCI address, e.g. {@code 0000:3b:00.0}; empty when a vdev.
     * @param interfaceName socket: the interface to join the groups on ({@code interface}).
     * @param queues        receive queues, one ingress agent each.
     */
    public record Port(String name, Driver driver, String vdev, String pci, String interfaceName, int queues)
    {
        public Port
        {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(driver, "driver");
            Objects.requireNonNull(vdev, "vdev");
            Objects.requireNonNull(pci, "pci");
            Objects.requireNonNull(interfaceName, "interfaceName");
        }
    }

    /**
     * {@code [book]}: what the feed core's order books hold, sized once at start-up (docs/CONFIGURATION.md).
     *
     * @param maxOrders       live orders across all instruments ({@code max_orders}).
     * @param maxLevels       non-empty price levels across all instruments and sides ({@code max_levels}).
     * @param referenceWindow records addressed directly by order reference, a power of two
     *                        ({@code reference_window}).
     * @param depthLevels     price levels per side published as LEVEL ticks, 0 for none ({@code depth_levels}).
     */
    public record Book(int maxOrders, int maxLevels, int referenceWindow, int depthLevels)
    {
    }

    /**
     * {@code [journal]}.
     *
     * @param enabled      whether ticks are journaled.
     * @param dir          the journal directory.
     * @param rollCycle    the period one journal file covers ({@code roll_cycle}).
     * @param retainCycles cycle files kept, the oldest deleted as a new one starts; 0 keeps all
     *                     ({@code retain_cycles}).
     * @param minFreeMb    free space, in MiB, below which the journal's filesystem is reported low
     *                     ({@code min_free_mb}); 0 turns the check off.
     */
    public record Journal(boolean enabled, Path dir, JournalRollCycle rollCycle, int retainCycles, long minFreeMb)
    {
        public Journal
        {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(rollCycle, "rollCycle");
        }
    }

    /**
     * The egress transport.
     */
    public enum Transport
    {
        /** Shared memory on this host. */
        SHM,
        /** RDMA verbs. */
        VERBS;

        /**
         * @return the name used in the file.
         */
        public String label()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * {@code [egress]}.
     *
     * @param transport   shm or verbs.
     * @param shmDir      shm: directory of the files and control socket ({@code shm_dir}).
     * @param instance    shm: the instance name that prefixes its files.
     * @param shmGroup    shm: group given access to the files ({@code shm_group}); empty for none.
     * @param mtu         largest multicast datagram in bytes.
     * @param rdmaDevice  verbs: the RDMA device, e.g. {@code rxe0} ({@code rdma_device}); empty when unused.
     * @param rdmaAddress verbs: the address to listen on ({@code rdma_address}); empty when unused.
     * @param rdmaRc      verbs: the library of the RC path, DiSNI or the project's own ({@code rdma_rc}).
     * @param consumers   the consumers allowed to connect.
     * @param orderSnapshots whether the egress keeps a mirror of the books so late joiners' snapshots carry the live
     *                       orders ({@code order_snapshots}).
     * @param snapshotTicks  ticks a consumer's snapshot can stage, so the largest instrument's part
     *                       ({@code snapshot_ticks}).
     * @param snapshotRecordsPerCycle snapshot work per egress duty cycle, across consumers
     *                       ({@code snapshot_records_per_cycle}).
     * @param hugepages      shm files and verbs regions of 1 MiB and more: {@code auto}, {@code off} or
     *                       {@code required} ({@code hugepages}).
     * @param hugepageDir    shm: the hugetlbfs directory for the files ({@code hugepage_dir}); null for the first
     *                       2 MiB hugetlbfs mount.
     */
    public record Egress(
        Transport transport,
        Path shmDir,
        String instance,
        String shmGroup,
        int mtu,
        String rdmaDevice,
        String rdmaAddress,
        VerbsContext.Rc rdmaRc,
        List<Consumer> consumers,
        boolean orderSnapshots,
        int snapshotTicks,
        int snapshotRecordsPerCycle,
        HugepageMode hugepages,
        Path hugepageDir)
    {
        public Egress
        {
            Objects.requireNonNull(transport, "transport");
            Objects.requireNonNull(shmDir, "shmDir");
            Objects.requireNonNull(instance, "instance");
            Objects.requireNonNull(shmGroup, "shmGroup");
            Objects.requireNonNull(rdmaDevice, "rdmaDevice");
            Objects.requireNonNull(rdmaAddress, "rdmaAddress");
            Objects.requireNonNull(rdmaRc, "rdmaRc");
            Objects.requireNonNull(hugepages, "hugepages");
            consumers = List.copyOf(consumers);
        }
    }

    /**
     * {@code [[egress.consumers]]}.
     *
     * @param name  the consumer's name.
     * @param token the token it authenticates with.
     */
    public record Consumer(String name, String token)
    {
        public Consumer
        {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(token, "token");
        }

        @Override
        public String toString()
        {
            return "Consumer[name=" + name + ", token=***]";
        }
    }

    /**
     * {@code [market_hours]}: when the market-hours idle strategy busy-polls (when the feed's own system events say
     * nothing else).
     *
     * @param zone        the exchange's time zone.
     * @param open        busy from this local time.
     * @param close       until this local time.
     * @param outsidePark outside those hours, the longest park between polls ({@code outside = "park:1ms"}), which
     *                    bounds the wake-up latency.
     */
    public record MarketHours(ZoneId zone, LocalTime open, LocalTime close, Duration outsidePark)
    {
        public MarketHours
        {
            Objects.requireNonNull(zone, "zone");
            Objects.requireNonNull(open, "open");
            Objects.requireNonNull(close, "close");
            Objects.requireNonNull(outsidePark, "outsidePark");
        }
    }

    /**
     * {@code [[cores]]}: one thread, pinned to {@code cpu}, running its agents (a composite when several).
     *
     * @param cpu    the CPU number, as in /sys/devices/system/cpu.
     * @param agents the agents on this core.
     * @param idle   the thread's idle strategy.
     */
    public record Core(int cpu, List<AgentRef> agents, Idle idle)
    {
        public Core
        {
            agents = List.copyOf(agents);
            Objects.requireNonNull(idle, "idle");
        }
    }

    /**
     * The kinds of agent.
     */
    public enum AgentKind
    {
        /** Polls one receive queue of a port. */
        INGRESS,
        /** Feed session, decode, book and normalize. */
        SESSION,
        /** Writes ticks to the journal. */
        JOURNAL,
        /** Publishes ticks to consumers. */
        EGRESS,
        /** Timers, heartbeats and counters. */
        HOUSEKEEPING;

        /**
         * @return the name used in the file.
         */
        public String label()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One agent in the core map: {@code ingress:<port>:<queue>}, {@code session}, {@code journal}, {@code egress} or
     * {@code housekeeping}.
     *
     * @param kind  the kind.
     * @param port  ingress: the port's name; empty otherwise.
     * @param queue ingress: the queue; 0 otherwise.
     */
    public record AgentRef(AgentKind kind, String port, int queue)
    {
        public AgentRef
        {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(port, "port");
        }

        /**
         * @param port  the port's name.
         * @param queue the receive queue.
         * @return the ingress agent of that queue.
         */
        public static AgentRef ingress(final String port, final int queue)
        {
            return new AgentRef(AgentKind.INGRESS, port, queue);
        }

        /**
         * @param kind any kind but {@link AgentKind#INGRESS}.
         * @return the agent of that kind.
         */
        public static AgentRef of(final AgentKind kind)
        {
            if (AgentKind.INGRESS == kind)
            {
                throw new IllegalArgumentException("an ingress agent needs a port and a queue");
            }
            return new AgentRef(kind, "", 0);
        }

        /**
         * @param text e.g. {@code ingress:p0:0} or {@code journal}.
         * @return the agent.
         * @throws IllegalArgumentException saying what is wrong and what the forms are.
         */
        public static AgentRef parse(final String text)
        {
            final String[] parts = text.trim().split(":", -1);
            final String kindName = parts[0].toLowerCase(Locale.ROOT);
            if ("ingress".equals(kindName))
            {
                if (3 != parts.length || parts[1].isEmpty())
                {
                    throw new IllegalArgumentException("'" + text + "' is not an ingress agent; write " +
                        "ingress:<port>:<queue>, e.g. ingress:p0:0");
                }
                try
                {
                    final int queue = Integer.parseInt(parts[2]);
                    if (queue < 0)
                    {
                        throw new NumberFormatException();
                    }
                    return ingress(parts[1], queue);
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalArgumentException("'" + text + "' has queue '" + parts[2] +
                        "'; the queue is a number from 0, e.g. ingress:" + parts[1] + ":0");
                }
            }
            for (final AgentKind kind : AgentKind.values())
            {
                if (AgentKind.INGRESS != kind && kind.label().equals(kindName))
                {
                    if (1 != parts.length)
                    {
                        throw new IllegalArgumentException("'" + text + "' takes no arguments; write " + kind.label());
                    }
                    return of(kind);
                }
            }
            throw new IllegalArgumentException("'" + text + "' is not an agent; use ingress:<port>:<queue>, " +
                "session, journal, egress or housekeeping");
        }

        @Override
        public String toString()
        {
            return AgentKind.INGRESS == kind ? "ingress:" + port + ":" + queue : kind.label();
        }
    }

    /**
     * The kinds of idle strategy of a core's thread.
     */
    public enum IdleKind
    {
        /** Never gives the CPU up. */
        BUSY_SPIN("busy-spin"),
        /** Yields the CPU between idle polls. */
        YIELD("yield"),
        /** Spins, yields, then parks for growing periods. */
        BACKOFF("backoff"),
        /** Sleeps a fixed period between idle polls. */
        SLEEP("sleep"),
        /** Busy while the market is open, parks with a bounded wake-up outside. */
        MARKET_HOURS("market-hours");

        private final String label;

        IdleKind(final String label)
        {
            this.label = label;
        }

        /**
         * @return the name used in the file.
         */
        public String label()
        {
            return label;
        }
    }

    /**
     * A core's idle strategy: {@code busy-spin}, {@code yield}, {@code backoff}, {@code sleep:<duration>} or
     * {@code market-hours}.
     *
     * @param kind  the kind.
     * @param sleep for {@link IdleKind#SLEEP} the period; {@link Duration#ZERO} otherwise.
     */
    public record Idle(IdleKind kind, Duration sleep)
    {
        /** The default: busy-spin. */
        public static final Idle BUSY_SPIN = new Idle(IdleKind.BUSY_SPIN, Duration.ZERO);

        public Idle
        {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(sleep, "sleep");
        }

        /**
         * @param text e.g. {@code busy-spin} or {@code sleep:1ms}.
         * @return the idle strategy.
         * @throws IllegalArgumentException saying what is wrong and what the forms are.
         */
        public static Idle parse(final String text)
        {
            final String value = text.trim().toLowerCase(Locale.ROOT);
            if (value.startsWith("sleep:"))
            {
                final Duration period = Durations.parse(value.substring("sleep:".length()));
                if (period.isZero())
                {
                    throw new IllegalArgumentException("'" + text + "' sleeps for zero; give a period, e.g. sleep:1ms");
                }
                return new Idle(IdleKind.SLEEP, period);
            }
            for (final IdleKind kind : IdleKind.values())
            {
                if (IdleKind.SLEEP != kind && kind.label().equals(value))
                {
                    return new Idle(kind, Duration.ZERO);
                }
            }
            throw new IllegalArgumentException("'" + text + "' is not an idle strategy; use busy-spin, yield, " +
                "backoff, sleep:<duration> (e.g. sleep:1ms) or market-hours");
        }

        /**
         * @return whether the thread keeps its CPU busy while there is nothing to do (busy-spin, and market-hours
         *         while the market is open), so it needs a CPU of its own.
         */
        public boolean busy()
        {
            return IdleKind.BUSY_SPIN == kind || IdleKind.MARKET_HOURS == kind;
        }

        @Override
        public String toString()
        {
            return IdleKind.SLEEP == kind ? "sleep:" + Durations.format(sleep) : kind.label();
        }
    }
}
