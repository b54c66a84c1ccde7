package io.mdgate.runtime.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.HugepageMode;
import io.mdgate.egress.transport.verbs.VerbsContext;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.JournalRollCycle;
import io.mdgate.runtime.counters.RunFiles;
import io.mdgate.runtime.config.GatewayConfig.AgentRef;
import io.mdgate.runtime.config.GatewayConfig.Book;
import io.mdgate.runtime.config.GatewayConfig.Consumer;
import io.mdgate.runtime.config.GatewayConfig.Core;
import io.mdgate.runtime.config.GatewayConfig.Dpdk;
import io.mdgate.runtime.config.GatewayConfig.Driver;
import io.mdgate.runtime.config.GatewayConfig.Egress;
import io.mdgate.runtime.config.GatewayConfig.Feed;
import io.mdgate.runtime.config.GatewayConfig.Gateway;
import io.mdgate.runtime.config.GatewayConfig.Idle;
import io.mdgate.runtime.config.GatewayConfig.Journal;
import io.mdgate.runtime.config.GatewayConfig.Line;
import io.mdgate.runtime.config.GatewayConfig.MarketHours;
import io.mdgate.runtime.config.GatewayConfig.Port;
import io.mdgate.runtime.config.GatewayConfig.Transport;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a gateway configuration file (TOML) into a {@link GatewayConfig}. Every value is checked, and the references
 * between sections (a line's port, names used twice, driver-specific keys); all problems are collected and thrown
 * together in one {@link ConfigException}, each with its key path and what would be right. Unknown keys are
 * problems too (with the closest known key), so a typo never silently falls back to a default. The core map's fit
 * to the host and its completeness are checked separately by {@link CoreMapValidator}. Stateless and thread-safe.
 */
public final class ConfigLoader
{
    /** The default {@code [gateway] name}. */
    public static final String DEFAULT_NAME = "mdgate";
    /** The default {@code [gateway] ring_bytes}: 4 MiB. */
    public static final int DEFAULT_RING_BYTES = 4 * 1024 * 1024;
    /** Free MiB on the journal's filesystem below which it is reported low ({@code [journal] min_free_mb}). */
    public static final long DEFAULT_MIN_FREE_MB = 1024;
    /** The smallest {@code ring_bytes}: 64 KiB. */
    public static final int MIN_RING_BYTES = 64 * 1024;
    /** The largest {@code ring_bytes}: 1 GiB. */
    public static final int MAX_RING_BYTES = 1024 * 1024 * 1024;
    /** The largest {@code [market_hours] outside} park: longer would make the open late. */
    public static final Duration MAX_OUTSIDE_PARK = Duration.ofSeconds(1);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,40}");
    private static final Pattern PORT_NAME = Pattern.compile("[A-Za-z0-9_-]{1,32}");
    private static final Pattern PCI = Pattern.compile("([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
    private static final Set<String> EAL_DEVICE_OR_CORE_ARGS = Set.of(
        "--vdev", "-a", "--allow", "-b", "--block", "-w", "--pci-whitelist", "-l", "--lcores", "-c", "--main-lcore",
        "--master-lcore");

    private static final TomlMapper MAPPER = new TomlMapper();

    private ConfigLoader()
    {
    }

    /**
     * @param file a configuration file.
     * @return the configuration.
     * @throws ConfigException listing every problem, or saying why the file cannot be read.
     */
    public static GatewayConfig load(final Path file)
    {
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException ex)
        {
            throw new ConfigException(file.toString(), List.of("no such file; give the path of a configuration " +
                "file (examples in deploy/conf/)"));
        }
        catch (final CharacterCodingException ex)
        {
            throw new ConfigException(file.toString(), List.of("is not a text file (not UTF-8); give the path of " +
                "a TOML configuration file (examples in deploy/conf/)"));
        }
        catch (final IOException ex)
        {
            throw new ConfigException(file.toString(), List.of(Files.isDirectory(file) ?
                "is a directory; give the path of a configuration file (examples in deploy/conf/)" :
                "cannot be read: " + ex.getMessage()));
        }
        return parse(text, file.toString());
    }

    /**
     * @param toml the text of a configuration file.
     * @return the configuration.
     * @throws ConfigException listing every problem.
     */
    public static GatewayConfig parse(final String toml)
    {
        return parse(toml, "configuration");
    }

    /**
     * @param toml   the text of a configuration file.
     * @param source what to call it in messages, e.g. its file name.
     * @return the configuration.
     * @throws ConfigException listing every problem.
     */
    public static GatewayConfig parse(final String toml, final String source)
    {
        final JsonNode root;
        try
        {
            root = MAPPER.readTree(toml);
        }
        catch (final JacksonException ex)
        {
            final JsonLocation location = ex.getLocation();
            final String where = null == location || location.getLineNr() < 1 ? "" :
                "line " + location.getLineNr() + ": ";
            throw new ConfigException(source, List.of(where + "not valid TOML: " + ex.getOriginalMessage()));
        }
        final List<String> problems = new ArrayList<>();
        final GatewayConfig config = read(
            new TableReader(root instanceof ObjectNode ? (ObjectNode)root : null, "", problems), problems);
        if (!problems.isEmpty())
        {
            throw new ConfigException(source, problems);
        }
        return config;
    }

    private static GatewayConfig read(final TableReader root, final List<String> problems)
    {
        root.refuseUnknownKeys(Set.of("gateway", "feed", "dpdk", "ports", "journal", "egress", "book",
            "market_hours", "cores"));
        final Gateway gateway = gateway(root.table("gateway", false));
        final List<Port> ports = ports(root.tables("ports", true));
        final Feed feed = feed(root.table("feed", true), ports);
        final Dpdk dpdk = dpdk(root.table("dpdk", false));
        final Journal journal = journal(root.table("journal", false), gateway.name());
        final Egress egress = egress(root.table("egress", false), gateway.name());
        final Book book = book(root.table("book", false));
        final MarketHours marketHours = marketHours(root.table("market_hours", false));
        final List<Core> cores = cores(root.tables("cores", false));
        checkRetransmitPath(feed, ports, problems);
        return new GatewayConfig(gateway, feed, dpdk, ports, journal, egress, book, marketHours, cores);
    }

    /**
     * Refuses a re-request server whose answers would come in on an interface an af_xdp port of a line takes
     * ({@link RetransmitPath}): looked up on this host, so it is the routing of the host that runs the gateway.
     */
    private static void checkRetransmitPath(final Feed feed, final List<Port> ports, final List<String> problems)
    {
        if (feed.retransmit().isEmpty())
        {
            return;
        }
        for (final Port port : ports)
        {
            final boolean receivesALine = feed.lines().stream().anyMatch((l) -> l.portName().equals(port.name()));
            if (Driver.DPDK == port.driver() && receivesALine)
            {
                RetransmitPath.refusal(port.vdev(), feed.retransmit().get()).ifPresent((why) ->
                    problems.add("feed.retransmit: port '" + port.name() + "': " + why));
            }
        }
    }

    private static Gateway gateway(final TableReader table)
    {
        table.refuseUnknownKeys(Set.of("name", "counters_file", "hlog_dir", "ring_bytes", "keep_runs"));
        String name = table.string("name", DEFAULT_NAME);
        if (!NAME.matcher(name).matches())
        {
            table.problem("name", "'" + name + "' must be 1 to 40 letters, digits, '.', '_' or '-' (it is used in " +
                "file names), e.g. \"mdgate-a\"");
            name = DEFAULT_NAME;
        }
        final Path countersFile = path(table, "counters_file", "/dev/shm/mdgate-" + name + "/counters");
        final Path hlogDir = path(table, "hlog_dir", "/var/log/mdgate/" + name);
        final long ringBytes = table.integer("ring_bytes", DEFAULT_RING_BYTES, MIN_RING_BYTES, MAX_RING_BYTES);
        if (Long.bitCount(ringBytes) != 1)
        {
            table.problem("ring_bytes", ringBytes + " is not a power of two; use e.g. " +
                Long.highestOneBit(ringBytes) + " or " + Long.highestOneBit(ringBytes) * 2);
        }
        final long keepRuns = table.integer("keep_runs", RunFiles.DEFAULT_KEEP_RUNS, 0, RunFiles.MAX_KEEP_RUNS);
        return new Gateway(name, countersFile, hlogDir, (int)ringBytes, (int)keepRuns);
    }

    private static Feed feed(final TableReader table, final List<Port> ports)
    {
        table.refuseUnknownKeys(Set.of("session", "gap_wait_ms", "retransmit", "stale_after_ms", "retry_interval_ms",
            "lines"));
        final String session = table.string("session", "");
        if (session.length() > 10 || !session.chars().allMatch((c) -> c >= 0x20 && c < 0x7F))
        {
            table.problem("session", "'" + session + "' must be at most 10 printable ASCII characters (a " +
                "MoldUDP64 session), or \"\" to accept the first session seen");
        }
        final long gapWaitMs = table.integer("gap_wait_ms", 2, 0, 60_000);
        Optional<InetSocketAddress> retransmit = Optional.empty();
        if (table.has("retransmit"))
        {
            final String text = table.string("retransmit", "");
            if (!text.isEmpty())
            {
                retransmit = Optional.ofNullable(socketAddress(table, "retransmit", text));
            }
        }
        final long staleAfterMs = table.integer("stale_after_ms", 2000, 1, 3_600_000);
        final long retryIntervalMs = table.integer("retry_interval_ms", Feed.DEFAULT_RETRY_INTERVAL_MS, 1, 60_000);
        final List<Line> lines = lines(table.tables("lines", true), ports);
        return new Feed(session, gapWaitMs, retransmit, staleAfterMs, lines, retryIntervalMs);
    }

    private static List<Line> lines(final List<TableReader> tables, final List<Port> ports)
    {
        final List<Line> lines = new ArrayList<>();
        for (final TableReader table : tables)
        {
            table.refuseUnknownKeys(Set.of("name", "group", "port", "port_name"));
            final String name = table.string("name", null);
            if (!"A".equals(name) && !"B".equals(name) && table.has("name"))
            {
                table.problem("name", "'" + name + "' is not a line; the lines are named \"A\" and \"B\"");
            }
            else if (lines.stream().anyMatch((l) -> l.name().equals(name)))
            {
                table.problem("name", "line " + name + " is configured twice; keep one [[feed.lines]] per line");
            }
            final Inet4Address group = multicastGroup(table);
            final int port = (int)table.requiredInteger("port", 1, 65535, "26477");
            final String portName = linePort(table, ports);
            if (null != group && ("A".equals(name) || "B".equals(name)))
            {
                for (final Line other : lines)
                {
                    if (other.group().equals(group) && other.port() == port && other.portName().equals(portName))
                    {
                        table.problem("group", "lines " + other.name() + " and " + name + " both use " +
                            other.endpoint() + " on port " + portName + "; give each line its own group or UDP port");
                    }
                }
                lines.add(new Line(name, group, port, portName));
            }
        }
        if (!tables.isEmpty() && lines.stream().noneMatch((l) -> "A".equals(l.name())) &&
            tables.stream().allMatch((t) -> t.has("name")))
        {
            tables.get(0).problem("name", "there is no line A; name the first line \"A\" (line B is optional)");
        }
        lines.sort((a, b) -> a.name().compareTo(b.name()));
        return lines;
    }

    private static Inet4Address multicastGroup(final TableReader table)
    {
        if (!table.has("group"))
        {
            table.problem("group", "missing; add group = \"233.54.12.111\" (the line's IPv4 multicast group)");
            return null;
        }
        final String text = table.string("group", "");
        final InetAddress address = ipv4Literal(text);
        if (!(address instanceof Inet4Address) || !address.isMulticastAddress())
        {
            table.problem("group", "'" + text + "' is not an IPv4 multicast group; use an address in 224.0.0.0/4, " +
                "e.g. \"233.54.12.111\"");
            return null;
        }
        return (Inet4Address)address;
    }

    private static String linePort(final TableReader table, final List<Port> ports)
    {
        if (!table.has("port_name"))
        {
            if (1 == ports.size())
            {
                return ports.get(0).name();
            }
            table.problem("port_name", "missing; say which [[ports]] entry receives this line, one of " +
                portNames(ports));
            return "";
        }
        final String portName = table.string("port_name", "");
        if (ports.stream().noneMatch((p) -> p.name().equals(portName)))
        {
            table.problem("port_name", "'" + portName + "' is not a port; use one of the [[ports]] names: " +
                portNames(ports));
        }
        return portName;
    }

    private static List<Port> ports(final List<TableReader> tables)
    {
        final List<Port> ports = new ArrayList<>();
        final Set<String> names = new HashSet<>();
        for (final TableReader table : tables)
        {
            table.refuseUnknownKeys(Set.of("name", "driver", "vdev", "pci", "interface", "queues"));
            final String name = table.string("name", null);
            if (table.has("name") && !PORT_NAME.matcher(name).matches())
            {
                table.problem("name", "'" + name + "' must be 1 to 32 letters, digits, '_' or '-', e.g. \"p0\"");
            }
            else if (table.has("name") && !names.add(name))
            {
                table.problem("name", "port '" + name + "' is configured twice; give each [[ports]] its own name");
            }
            final Driver driver = table.parsed("driver", null, ConfigLoader::driver, null);
            final String vdev = table.string("vdev", "");
            final String pci = table.string("pci", "");
            final String interfaceName = table.string("interface", "");
            final int queues = (int)table.integer("queues", 1, 1, 64);
            if (Driver.DPDK == driver)
            {
                checkDpdkPort(table, vdev, pci, interfaceName);
            }
            else if (Driver.SOCKET == driver)
            {
                checkSocketPort(table, vdev, pci, interfaceName, queues);
            }
            ports.add(new Port(name, null == driver ? Driver.DPDK : driver, vdev, pci, interfaceName, queues));
        }
        return ports;
    }

    private static void checkDpdkPort(
        final TableReader table, final String vdev, final String pci, final String interfaceName)
    {
        if (vdev.isEmpty() == pci.isEmpty())
        {
            table.problem("vdev", "a dpdk port needs exactly one of vdev (e.g. \"net_af_packet0,iface=veth-a\") " +
                "and pci (e.g. \"0000:3b:00.0\")" + (vdev.isEmpty() ? "" : "; both are set"));
        }
        if (!pci.isEmpty() && !PCI.matcher(pci).matches())
        {
            table.problem("pci", "'" + pci + "' is not a PCI address; write domain:bus:device.function, e.g. " +
                "\"0000:3b:00.0\" (see lspci -D)");
        }
        if (!interfaceName.isEmpty())
        {
            table.problem("interface", "only socket ports have an interface; for a dpdk port on an interface use " +
                "vdev = \"net_af_packet0,iface=" + interfaceName + "\" or \"net_af_xdp0,iface=" + interfaceName + "\"");
        }
    }

    private static void checkSocketPort(
        final TableReader table, final String vdev, final String pci, final String interfaceName, final int queues)
    {
        if (interfaceName.isEmpty())
        {
            table.problem("interface", "a socket port needs the interface to join the groups on, e.g. " +
                "interface = \"eth1\"");
        }
        if (!vdev.isEmpty() || !pci.isEmpty())
        {
            table.problem(vdev.isEmpty() ? "pci" : "vdev", "only dpdk ports have a vdev or pci; remove it, or set " +
                "driver = \"dpdk\"");
        }
        if (1 != queues)
        {
            table.problem("queues", "a socket port has one queue (it reads every line's socket), is " + queues +
                "; remove queues or set it to 1");
        }
    }

    private static Driver driver(final String text)
    {
        for (final Driver driver : Driver.values())
        {
            if (driver.label().equals(text))
            {
                return driver;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a driver; use \"dpdk\" or \"socket\"");
    }

    private static Dpdk dpdk(final TableReader table)
    {
        table.refuseUnknownKeys(Set.of("eal_args"));
        final List<String> args = table.strings("eal_args", List.of());
        for (final String arg : args)
        {
            final String option = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (EAL_DEVICE_OR_CORE_ARGS.contains(option))
            {
                table.problem("eal_args", "'" + arg + "' is set by mdgate: devices come from [[ports]] (vdev, pci) " +
                    "and cores from [[cores]]; remove it");
            }
        }
        return new Dpdk(args);
    }

    private static Book book(final TableReader table)
    {
        table.refuseUnknownKeys(Set.of("max_orders", "max_levels", "reference_window", "depth_levels"));
        final long maxOrders = table.integer("max_orders", BookContext.DEFAULT_MAX_ORDERS, 1, BookContext.MAX_CAPACITY);
        final long maxLevels = table.integer("max_levels", BookContext.DEFAULT_MAX_LEVELS, 1, BookContext.MAX_CAPACITY);
        final long window = table.integer("reference_window", BookContext.DEFAULT_REFERENCE_WINDOW,
            BookContext.MIN_REFERENCE_WINDOW, BookContext.MAX_REFERENCE_WINDOW);
        if (Long.bitCount(window) != 1)
        {
            table.problem("reference_window", window + " is not a power of two; use e.g. " +
                Long.highestOneBit(window) + " or " + Long.highestOneBit(window) * 2);
        }
        final long depth = table.integer("depth_levels", 0, 0, Normalizer.MAX_DEPTH_LEVELS);
        return new Book((int)maxOrders, (int)maxLevels, (int)window, (int)depth);
    }

    private static Journal journal(final TableReader table, final String name)
    {
        table.refuseUnknownKeys(Set.of("enabled", "dir", "roll_cycle", "retain_cycles", "min_free_mb"));
        final boolean enabled = table.bool("enabled", true);
        final Path dir = path(table, "dir", "/var/lib/mdgate/" + name + "/journal");
        final String cycleName = table.string("roll_cycle", JournalContext.DEFAULT_ROLL_CYCLE.name().toLowerCase(
            java.util.Locale.ROOT));
        JournalRollCycle rollCycle = JournalContext.DEFAULT_ROLL_CYCLE;
        try
        {
            rollCycle = JournalRollCycle.parse(cycleName);
        }
        catch (final IllegalArgumentException ex)
        {
            table.problem("roll_cycle", ex.getMessage());
        }
        final long retainCycles = table.integer("retain_cycles", JournalContext.RETAIN_ALL, 0, 1_000_000);
        final long minFreeMb = table.integer("min_free_mb", DEFAULT_MIN_FREE_MB, 0, 1L << 40);
        return new Journal(enabled, dir, rollCycle, (int)retainCycles, minFreeMb);
    }

    private static Egress egress(final TableReader table, final String name)
    {
        table.refuseUnknownKeys(Set.of("transport", "shm_dir", "instance", "shm_group", "mtu", "rdma_device",
            "rdma_address", "rdma_rc", "consumers", "order_snapshots", "snapshot_ticks", "snapshot_records_per_cycle", "hugepages",
            "hugepage_dir"));
        final Transport transport = table.parsed("transport", "shm", ConfigLoader::transport, Transport.SHM);
        final Path shmDir = path(table, "shm_dir", "/dev/shm");
        final String instance = table.string("instance", name);
        if (!NAME.matcher(instance).matches())
        {
            table.problem("instance", "'" + instance + "' must be 1 to 40 letters, digits, '.', '_' or '-', e.g. " +
                "\"mdgate\"");
        }
        final String shmGroup = table.string("shm_group", "");
        final int mtu = (int)table.integer("mtu", 4096, 128, 65536);
        final String rdmaDevice = table.string("rdma_device", "");
        final String rdmaAddress = table.string("rdma_address", "");
        final List<Consumer> consumers = new ArrayList<>();
        for (final TableReader consumer : table.tables("consumers", false))
        {
            consumer.refuseUnknownKeys(Set.of("name", "token"));
            final String consumerName = consumer.string("name", null);
            final String token = consumer.string("token", null);
            if (consumer.has("name") && !NAME.matcher(consumerName).matches())
            {
                consumer.problem("name", "'" + consumerName + "' must be 1 to 40 letters, digits, '.', '_' or '-'");
            }
            else if (consumers.stream().anyMatch((c) -> c.name().equals(consumerName)))
            {
                consumer.problem("name", "consumer '" + consumerName + "' is configured twice; names must differ");
            }
            if (consumer.has("token") && token.isEmpty())
            {
                consumer.problem("token", "empty; give the consumer a secret token, e.g. from " +
                    "`openssl rand -hex 16`");
            }
            consumers.add(new Consumer(consumerName, token));
        }
        final boolean orderSnapshots = table.bool("order_snapshots", false);
        final long snapshotTicks = table.integer("snapshot_ticks", PublisherContext.DEFAULT_SNAPSHOT_TICKS,
            PublisherContext.MIN_SNAPSHOT_TICKS, PublisherContext.MAX_SNAPSHOT_TICKS);
        final long snapshotRecordsPerCycle = table.integer("snapshot_records_per_cycle",
            PublisherContext.DEFAULT_SNAPSHOT_RECORDS_PER_CYCLE, 1, PublisherContext.MAX_SNAPSHOT_RECORDS_PER_CYCLE);
        final VerbsContext.Rc rdmaRc = table.parsed("rdma_rc", "disni", VerbsContext.Rc::of, VerbsContext.Rc.DISNI);
        return new Egress(transport, shmDir, instance, shmGroup, mtu, rdmaDevice, rdmaAddress, rdmaRc, consumers,
            orderSnapshots, (int)snapshotTicks, (int)snapshotRecordsPerCycle,
            table.parsed("hugepages", "auto", HugepageMode::of, HugepageMode.AUTO),
            table.has("hugepage_dir") ? path(table, "hugepage_dir", "") : null);
    }

    private static Transport transport(final String text)
    {
        for (final Transport transport : Transport.values())
        {
            if (transport.label().equals(text))
            {
                return transport;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a transport; use \"shm\" or \"verbs\"");
    }

    private static MarketHours marketHours(final TableReader table)
    {
        table.refuseUnknownKeys(Set.of("zone", "open", "close", "outside"));
        final ZoneId zone = table.parsed("zone", "America/New_York", ConfigLoader::zone, ZoneId.of("America/New_York"));
        final LocalTime open = table.parsed("open", "09:25", ConfigLoader::time, LocalTime.of(9, 25));
        final LocalTime close = table.parsed("close", "16:05", ConfigLoader::time, LocalTime.of(16, 5));
        if (!open.isBefore(close))
        {
            table.problem("close", close + " is not after open " + open + "; the hours are within one day, e.g. " +
                "open = \"09:25\", close = \"16:05\"");
        }
        final Duration outside = table.parsed("outside", "park:1ms", ConfigLoader::outside, Duration.ofMillis(1));
        return new MarketHours(zone, open, close, outside);
    }

    private static ZoneId zone(final String text)
    {
        try
        {
            return ZoneId.of(text);
        }
        catch (final java.time.DateTimeException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a time zone; use a region id, e.g. " +
                "\"America/New_York\"");
        }
    }

    private static LocalTime time(final String text)
    {
        try
        {
            return LocalTime.parse(text);
        }
        catch (final DateTimeParseException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a time of day; write HH:MM, e.g. \"09:25\"");
        }
    }

    private static Duration outside(final String text)
    {
        if (!text.startsWith("park:"))
        {
            throw new IllegalArgumentException("'" + text + "' is not an outside-hours strategy; write " +
                "park:<longest wake-up>, e.g. \"park:1ms\"");
        }
        final Duration park = Durations.parse(text.substring("park:".length()));
        if (park.isZero() || park.compareTo(MAX_OUTSIDE_PARK) > 0)
        {
            throw new IllegalArgumentException("'" + text + "' must park more than 0 and at most " +
                Durations.format(MAX_OUTSIDE_PARK) + ", e.g. \"park:1ms\"");
        }
        return park;
    }

    private static List<Core> cores(final List<TableReader> tables)
    {
        final List<Core> cores = new ArrayList<>();
        for (final TableReader table : tables)
        {
            table.refuseUnknownKeys(Set.of("cpu", "agents", "idle"));
            final int cpu = (int)table.requiredInteger("cpu", 0, 4095, "1");
            final List<AgentRef> agents = new ArrayList<>();
            if (!table.has("agents"))
            {
                table.problem("agents", "missing; list the agents of this core, e.g. agents = [\"session\"]");
            }
            final List<String> names = table.strings("agents", List.of());
            for (int i = 0; i < names.size(); i++)
            {
                try
                {
                    agents.add(AgentRef.parse(names.get(i)));
                }
                catch (final IllegalArgumentException ex)
                {
                    table.problem("agents[" + i + "]", ex.getMessage());
                }
            }
            if (table.has("agents") && names.isEmpty())
            {
                table.problem("agents", "empty; list at least one agent, or remove this [[cores]] entry");
            }
            final Idle idle = table.parsed("idle", "busy-spin", Idle::parse, Idle.BUSY_SPIN);
            cores.add(new Core(cpu, agents, idle));
        }
        return cores;
    }

    private static Path path(final TableReader table, final String key, final String defaultValue)
    {
        final String text = table.string(key, defaultValue);
        if (text.isEmpty())
        {
            table.problem(key, "empty; give a path, e.g. \"" + defaultValue + "\", or remove the key for that default");
            return Path.of(defaultValue);
        }
        try
        {
            return Path.of(text);
        }
        catch (final java.nio.file.InvalidPathException ex)
        {
            table.problem(key, "'" + text + "' is not a path: " + ex.getReason());
            return Path.of(defaultValue);
        }
    }

    private static InetSocketAddress socketAddress(final TableReader table, final String key, final String text)
    {
        final int colon = text.lastIndexOf(':');
        final InetAddress address = colon > 0 ? ipv4Literal(text.substring(0, colon)) : null;
        int port = -1;
        if (colon > 0)
        {
            try
            {
                port = Integer.parseInt(text.substring(colon + 1));
            }
            catch (final NumberFormatException ex)
            {
                port = -1;
            }
        }
        if (!(address instanceof Inet4Address) || port < 1 || port > 65535)
        {
            table.problem(key, "'" + text + "' is not an IPv4 address and UDP port; write e.g. \"10.0.0.1:26478\"");
            return null;
        }
        return new InetSocketAddress(address, port);
    }

    /**
     * @return the address of a dotted-quad IPv4 literal, or null when the text is not one (never a DNS lookup).
     */
    static InetAddress ipv4Literal(final String text)
    {
        final String[] parts = text.split("\\.", -1);
        if (4 != parts.length)
        {
            return null;
        }
        final byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++)
        {
            if (parts[i].isEmpty() || parts[i].length() > 3 || !parts[i].chars().allMatch(Character::isDigit))
            {
                return null;
            }
            final int value = Integer.parseInt(parts[i]);
            if (value > 255)
            {
                return null;
            }
            bytes[i] = (byte)value;
        }
        try
        {
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException ex)
        {
            return null;
        }
    }

    private static String portNames(final List<Port> ports)
    {
        final List<String> names = new ArrayList<>();
        for (final Port port : ports)
        {
            names.add(port.name());
        }
        return names.isEmpty() ? "(none: add a [[ports]] table)" : String.join(", ", names);
    }
}
