package io.mdgate.ingress;

import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.time.MonotonicEpochClock;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The DPDK ingress: one port of a poll-mode driver (a NIC, or a virtual device such as {@code net_pcap},
 * {@code net_af_packet}, {@code net_af_xdp} or {@code net_ring}) read through the project's JNI library. Each
 * {@link #poll(PacketHandler)} is one JNI crossing: up to {@link RxBurstDescriptor#MAX_PACKETS} frames are taken
 * off the port, parsed in C (Ethernet with VLAN tags, IPv4 without fragments, UDP), and the payloads of the
 * configured (group, port) pairs copied into a region this object owns, laid out as {@link RxBurstDescriptor}
 * says, before being handed to the handler with their line and receive timestamp. Everything else is counted
 * per reason ({@link #stats()}) and dropped. The ingress joins its multicast groups with IGMPv3 reports at start
 * (and answers queries), and leaves them at {@link #close()}.
 * <p>
 * Threading: confined to the receive thread, which must call {@link #start()}, {@link #poll(PacketHandler)} and
 * {@link #close()}. {@link #start()} starts EAL if this is the process's first DPDK ingress (see
 * {@link DpdkEal}), pins the thread to {@link Context#receiveCpu()} and registers it with EAL so it has an lcore
 * and a mempool cache. {@link #stats()} may be called from any thread, also after {@link #close()}.
 */
public final class DpdkIngress implements Ingress
{
    /** What {@link #poll(PacketHandler)} returns before {@link #start()} and after {@link #close()}: -ENODEV. */
    public static final int NOT_STARTED = -19;

    private static final int TX_STAGING_CAPACITY = 2048;

    private final Context context;
    private final ByteBuffer regionMemory;
    private final UnsafeBuffer region;
    private final long regionAddress;
    private final int regionCapacity;
    private final UnsafeBuffer txStaging;
    private final long[] statsValues = new long[DpdkStatsDescriptor.LENGTH];
    private final Object lifecycle = new Object();

    private long handle;
    private boolean closed;
    private Thread receiveThread;
    private int lcore = -1;
    private String driver = "";
    private IngressStats finalStats;

    /**
     * @param context the settings, validated here; nothing is opened before {@link #start()}.
     * @throws IllegalArgumentException when a setting is out of range, saying which and what is accepted.
     */
    public DpdkIngress(final Context context)
    {
        this.context = context.conclude();
        regionMemory = BufferUtil.allocateDirectAligned(context.handOverCapacity(), 64);
        region = new UnsafeBuffer(regionMemory);
        regionAddress = region.addressOffset();
        regionCapacity = region.capacity();
        txStaging = new UnsafeBuffer(BufferUtil.allocateDirectAligned(TX_STAGING_CAPACITY, 64));
    }

    /** @return the settings. */
    public Context context()
    {
        return context;
    }

    @Override
    public void start()
    {
        synchronized (lifecycle)
        {
            if (closed || handle != 0)
            {
                throw new IllegalStateException("DPDK ingress on '" + context.deviceName() + "' is " +
                    (closed ? "closed" : "started already") + "; start it once");
            }
            DpdkEal.initialise(context);
            registerThread();
            final long opened = DpdkNative.portOpen0(
                context.device(), context.deviceName(), PortSettings.of(context), PortSettings.lineTable(context));
            if (opened < 0)
            {
                final String log = DpdkNative.lastLog0();
                unregisterThread();
                throw new IllegalStateException(DpdkErrors.message("DPDK port '" + context.deviceName() +
                    "' did not open", (int)opened, log,
                    DpdkErrors.portRemedy((int)opened, context, DpdkNative.portNames0())));
            }
            final int started = DpdkNative.portStart0(opened, context.linkTimeoutMillis(),
                context.clock().offsetNanos());
            if (started < 0)
            {
                final String log = DpdkNative.lastLog0();
                DpdkNative.portClose0(opened);
                unregisterThread();
                throw new IllegalStateException(DpdkErrors.message("DPDK port '" + context.deviceName() +
                    "' did not start", started, log, DpdkErrors.portRemedy(started, context, "")));
            }
            handle = opened;
            driver = DpdkNative.portDriver0(opened);
            DpdkNative.stats0(opened, statsValues);
            noteMulticastMode();
        }
    }

    private void registerThread()
    {
        final int cpu = context.receiveCpu();
        final int id = DpdkNative.threadRegister0(cpu);
        if (id < 0)
        {
            throw new IllegalStateException(DpdkErrors.message("cannot make " + Thread.currentThread().getName() +
                " a DPDK receive thread on CPU " + cpu, id, "", "give a CPU this process may run on " +
                "(see taskset -p " + ProcessHandle.current().pid() + ") as the receive CPU"));
        }
        lcore = id;
        receiveThread = Thread.currentThread();
    }

    private void unregisterThread()
    {
        if (Thread.currentThread() == receiveThread)
        {
            DpdkNative.threadUnregister0();
        }
        receiveThread = null;
    }

    private void noteMulticastMode()
    {
        final boolean joinsGroups = hasMulticastGroup(context.lines());
        if (joinsGroups && statsValues[DpdkStatsDescriptor.MULTICAST_MODE] == DpdkStatsDescriptor.MULTICAST_NONE)
        {
            context.log().accept("mdgate: DPDK port '" + context.deviceName() + "' (" + driver + "): all-multicast " +
                "and multicast address lists are not supported; the groups' frames arrive only if the device " +
                "delivers them anyway (a promiscuous interface, a capture replay)");
        }
    }

    private static boolean hasMulticastGroup(final IngressLines lines)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.isMulticast(i))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public int poll(final PacketHandler handler)
    {
        final long handle = this.handle;
        if (handle == 0)
        {
            return NOT_STARTED;
        }
        final int count = DpdkNative.rxBurst0(handle, regionAddress, regionCapacity);
        final UnsafeBuffer region = this.region;
        for (int i = 0; i < count; i++)
        {
            final int descriptor = i * RxBurstDescriptor.LENGTH;
            handler.onPacket(
                region.getShort(descriptor + RxBurstDescriptor.LINE_OFFSET) & 0xFFFF,
                region,
                region.getInt(descriptor + RxBurstDescriptor.PAYLOAD_OFFSET_OFFSET),
                region.getShort(descriptor + RxBurstDescriptor.PAYLOAD_LENGTH_OFFSET) & 0xFFFF,
                region.getLong(descriptor + RxBurstDescriptor.TIMESTAMP_OFFSET));
        }
        return count;
    }

    /**
     * Sends one raw Ethernet frame through the port's TX queue (the one IGMP reports use). On the receive thread
     * only.
     *
     * @param frame  holding the frame.
     * @param offset of the frame.
     * @param length of the frame, at most 2048 bytes.
     * @return 1 when queued, 0 when the TX queue was full, {@link #NOT_STARTED}, or another -errno.
     */
    public int transmit(final DirectBuffer frame, final int offset, final int length)
    {
        if (handle == 0)
        {
            return NOT_STARTED;
        }
        if (length <= 0 || length > TX_STAGING_CAPACITY)
        {
            return -22;
        }
        txStaging.putBytes(0, frame, offset, length);
        return DpdkNative.sendFrame0(handle, txStaging.addressOffset(), length);
    }

    /**
     * Writes the IGMPv3 report this ingress sends, for checking it.
     *
     * @param recordType 2 (answer to a query), 3 (leave) or 4 (join).
     * @param target     a direct buffer.
     * @return the frame's length, or a -errno.
     */
    int igmpReport(final int recordType, final UnsafeBuffer target)
    {
        return handle == 0 ? NOT_STARTED :
            DpdkNative.igmpReport0(handle, recordType, target.addressOffset(), target.capacity());
    }

    @Override
    public IngressStats stats()
    {
        synchronized (lifecycle)
        {
            if (handle != 0)
            {
                return snapshot();
            }
            return finalStats != null ? finalStats : IngressStats.builder(source()).build();
        }
    }

    @Override
    public void readDropped(final long[] counts)
    {
        synchronized (lifecycle)
        {
            if (handle != 0)
            {
                DpdkNative.stats0(handle, statsValues);
                DpdkStats.dropped(statsValues, counts);
            }
            else
            {
                for (int i = 0; i < IngressStats.REASONS.size(); i++)
                {
                    counts[i] = finalStats != null ? finalStats.dropped(IngressStats.REASONS.get(i)) : 0;
                }
            }
        }
    }

    private IngressStats snapshot()
    {
        DpdkNative.stats0(handle, statsValues);
        return DpdkStats.of(source(), statsValues);
    }

    private String source()
    {
        return "dpdk " + context.deviceName() + (driver.isEmpty() ? "" : " (" + driver + ")");
    }

    /** @return the PMD's name, e.g. {@code net_pcap}, once started. */
    public String driver()
    {
        return driver;
    }

    /** @return the lcore id of the receive thread once started, -1 before. */
    public int lcore()
    {
        return lcore;
    }

    /** @return true when receive timestamps come from the device (or a capture file) rather than the burst's clock reading. */
    public boolean hardwareTimestamps()
    {
        synchronized (lifecycle)
        {
            return statsValues[DpdkStatsDescriptor.HW_TIMESTAMPS] != 0;
        }
    }

    /** @return how multicast reaches the port: a {@code DpdkStatsDescriptor.MULTICAST_*} value. */
    public int multicastMode()
    {
        synchronized (lifecycle)
        {
            return (int)statsValues[DpdkStatsDescriptor.MULTICAST_MODE];
        }
    }

    /** @return DPDK's log of the last start-up step in this process (EAL start, port open, start or close). */
    public static String lastDpdkLog()
    {
        return DpdkEal.lastLog();
    }

    @Override
    public void close()
    {
        synchronized (lifecycle)
        {
            closed = true;
            if (handle == 0)
            {
                return;
            }
            finalStats = snapshot();
            final int result = DpdkNative.portClose0(handle);
            handle = 0;
            unregisterThread();
            if (result < 0)
            {
                context.log().accept("mdgate: " + DpdkErrors.message("DPDK port '" + context.deviceName() +
                    "' did not stop cleanly", result, DpdkNative.lastLog0(), null));
            }
        }
    }

    /**
     * Settings of a {@link DpdkIngress}, with defaults, validated once by its constructor ({@link #conclude()}).
     * The EAL settings apply when this is the process's first DPDK ingress (EAL starts once per process). Not
     * thread-safe: configure on one thread, then hand over.
     */
    public static final class Context
    {
        /** Most bytes of the hand-over region. */
        public static final int MAX_HAND_OVER_CAPACITY = 64 << 20;
        /** Fewest bytes of the hand-over region: the descriptors and one full-size Ethernet payload. */
        public static final int MIN_HAND_OVER_CAPACITY = RxBurstDescriptor.PAYLOAD_AREA_OFFSET + 2048;

        private String device;
        private IngressLines lines;
        private String lcores = Integer.toString(EalArguments.lastOnlineCpu());
        private int receiveCpu = -1;
        private int memoryMegabytes = 256;
        private Path hugeDir;
        private List<String> extraEalArguments = List.of();
        private int mbufs = 8191;
        private int mbufCache = 256;
        private int rxDescriptors = 1024;
        private int txDescriptors = 256;
        private int linkTimeoutMillis = 5000;
        private boolean hardwareTimestamps = true;
        private MonotonicEpochClock clock;
        private boolean igmp = true;
        private int igmpSourceAddress;
        private int handOverCapacity = 128 << 10;
        private Consumer<String> log = System.err::println;

        /** @return the port's device: a virtual device with its arguments, or a PCI address. */
        public String device()
        {
            return device;
        }

        /**
         * @param device a virtual device as EAL's {@code --vdev} takes it ({@code net_pcap0,rx_pcap=FILE},
         *               {@code net_af_packet0,iface=eth1}, {@code net_af_xdp0,iface=eth1},
         *               {@code net_ring0}), or a PCI address ({@code 0000:03:00.0}) bound to a DPDK driver.
         * @return this.
         */
        public Context device(final String device)
        {
            this.device = device;
            return this;
        }

        /** @return the port's name: the device up to its first comma. */
        public String deviceName()
        {
            final int comma = device.indexOf(',');
            return (comma < 0 ? device : device.substring(0, comma)).trim();
        }

        public IngressLines lines()
        {
            return lines;
        }

        /**
         * @param lines the (group, port) pairs to keep and the line each feeds.
         * @return this.
         */
        public Context lines(final IngressLines lines)
        {
            this.lines = lines;
            return this;
        }

        public String lcores()
        {
            return lcores;
        }

        /**
         * @param lcores EAL's core list ({@code -l}), e.g. {@code 1} or {@code 1-3}; default the last CPU.
         * @return this.
         */
        public Context lcores(final String lcores)
        {
            this.lcores = lcores;
            return this;
        }

        /** @return the CPU the receive thread is pinned to: as set, else the first CPU of {@link #lcores()}. */
        public int receiveCpu()
        {
            return receiveCpu >= 0 ? receiveCpu : EalArguments.firstCpu(lcores);
        }

        /**
         * @param cpu the CPU to pin the receive thread to; -1 (default) for the first of {@link #lcores()}.
         * @return this.
         */
        public Context receiveCpu(final int cpu)
        {
            this.receiveCpu = cpu;
            return this;
        }

        public int memoryMegabytes()
        {
            return memoryMegabytes;
        }

        /**
         * @param megabytes memory EAL reserves ({@code -m}), default 256.
         * @return this.
         */
        public Context memoryMegabytes(final int megabytes)
        {
            this.memoryMegabytes = megabytes;
            return this;
        }

        public Path hugeDir()
        {
            return hugeDir;
        }

        /**
         * @param dir a mounted hugetlbfs directory ({@code --huge-dir}, with {@code --in-memory}); null (default)
         *            for {@code --no-huge}, which works anywhere but is slower and needs a page per mbuf.
         * @return this.
         */
        public Context hugeDir(final Path dir)
        {
            this.hugeDir = dir;
            return this;
        }

        public List<String> extraEalArguments()
        {
            return extraEalArguments;
        }

        /**
         * @param arguments more EAL arguments, appended as given (e.g. {@code --log-level=pmd.net.af_xdp:debug}).
         * @return this.
         */
        public Context extraEalArguments(final List<String> arguments)
        {
            this.extraEalArguments = List.copyOf(arguments);
            return this;
        }

        public int mbufs()
        {
            return mbufs;
        }

        /**
         * @param mbufs in the port's pool, default 8191. {@code net_pcap} with {@code infinite_rx=1} needs more
         *              than the capture has packets.
         * @return this.
         */
        public Context mbufs(final int mbufs)
        {
            this.mbufs = mbufs;
            return this;
        }

        public int mbufCache()
        {
            return mbufCache;
        }

        /**
         * @param mbufs kept in the receive lcore's pool cache, default 256, at most 512.
         * @return this.
         */
        public Context mbufCache(final int mbufs)
        {
            this.mbufCache = mbufs;
            return this;
        }

        public int rxDescriptors()
        {
            return rxDescriptors;
        }

        /**
         * @param descriptors of the RX ring, default 1024 (the PMD may round it).
         * @return this.
         */
        public Context rxDescriptors(final int descriptors)
        {
            this.rxDescriptors = descriptors;
            return this;
        }

        public int txDescriptors()
        {
            return txDescriptors;
        }

        /**
         * @param descriptors of the TX ring (IGMP only), default 256.
         * @return this.
         */
        public Context txDescriptors(final int descriptors)
        {
            this.txDescriptors = descriptors;
            return this;
        }

        public int linkTimeoutMillis()
        {
            return linkTimeoutMillis;
        }

        /**
         * @param millis how long start waits for the link to come up, default 5000; a link still down is an error.
         * @return this.
         */
        public Context linkTimeoutMillis(final int millis)
        {
            this.linkTimeoutMillis = millis;
            return this;
        }

        public boolean hardwareTimestamps()
        {
            return hardwareTimestamps;
        }

        /**
         * @param use true (default) to take receive timestamps from the device where it stamps packets (a NIC's
         *            RX timestamp offload, calibrated at start; {@code net_pcap}'s capture times); false for
         *            {@link #clock()}, read once per burst.
         * @return this.
         */
        public Context hardwareTimestamps(final boolean use)
        {
            this.hardwareTimestamps = use;
            return this;
        }

        /** @return the clock receive timestamps are taken on. */
        public MonotonicEpochClock clock()
        {
            return clock;
        }

        /**
         * @param clock the clock of the stages that follow (default: a new one): the receive path reads
         *              CLOCK_MONOTONIC and adds this clock's offset, so a packet's receive timestamp is on the same
         *              time base as every later stage's.
         * @return this.
         */
        public Context clock(final MonotonicEpochClock clock)
        {
            this.clock = clock;
            return this;
        }

        public boolean igmp()
        {
            return igmp;
        }

        /**
         * @param send true (default) to join the groups with IGMPv3 reports at start, answer queries and leave
         *             at close.
         * @return this.
         */
        public Context igmp(final boolean send)
        {
            this.igmp = send;
            return this;
        }

        public int igmpSourceAddress()
        {
            return igmpSourceAddress;
        }

        /**
         * @param address IPv4 source of IGMP reports as a big-endian int; default 0.0.0.0 (RFC 3376 lets a host
         *                without an address report from 0.0.0.0, and routers accept it).
         * @return this.
         */
        public Context igmpSourceAddress(final int address)
        {
            this.igmpSourceAddress = address;
            return this;
        }

        public int handOverCapacity()
        {
            return handOverCapacity;
        }

        /**
         * @param bytes of the hand-over region (descriptors and payloads), default 128 KiB: a burst of 32
         *              payloads of 4 KiB. A burst that does not fit is handed over in several polls.
         * @return this.
         */
        public Context handOverCapacity(final int bytes)
        {
            this.handOverCapacity = bytes;
            return this;
        }

        public Consumer<String> log()
        {
            return log;
        }

        /**
         * @param log where start-up and shutdown notices go (once each), default standard error.
         * @return this.
         */
        public Context log(final Consumer<String> log)
        {
            this.log = log;
            return this;
        }

        /**
         * Checks every setting.
         *
         * @return this.
         * @throws IllegalArgumentException naming the first bad setting and what is accepted.
         */
        public Context conclude()
        {
            Objects.requireNonNull(log, "log");
            if (null == clock)
            {
                clock = new MonotonicEpochClock();
            }
            if (device == null || device.isBlank())
            {
                throw new IllegalArgumentException("no DPDK device given; give a virtual device such as " +
                    "net_pcap0,rx_pcap=FILE or net_af_packet0,iface=eth1, or a PCI address such as 0000:03:00.0");
            }
            final String name = deviceName();
            if (!EalArguments.isPci(name) && !name.startsWith("net_"))
            {
                throw new IllegalArgumentException("DPDK device '" + device + "' is neither a virtual network " +
                    "device (net_pcap0,rx_pcap=FILE, net_af_packet0,iface=IF, net_af_xdp0,iface=IF, net_ring0) " +
                    "nor a PCI address (0000:03:00.0)");
            }
            if (lines == null)
            {
                throw new IllegalArgumentException("no lines given; give e.g. A=233.54.12.111:26477,B=...");
            }
            if (lcores == null || !lcores.matches("[0-9,\\-@()]+"))
            {
                throw new IllegalArgumentException("lcores '" + lcores + "' is not an EAL core list such as 1 or 1-3");
            }
            if (receiveCpu() < 0 || receiveCpu() >= 1024)
            {
                throw new IllegalArgumentException("the receive CPU " + receiveCpu() + " is outside 0..1023 (with " +
                    "lcores '" + lcores + "', give it explicitly)");
            }
            range("memory (MB)", memoryMegabytes, 16, 1 << 20);
            if (hugeDir != null && !Files.isDirectory(hugeDir))
            {
                throw new IllegalArgumentException("huge page directory " + hugeDir + " does not exist; mount " +
                    "hugetlbfs there (mount -t hugetlbfs -o pagesize=2M nodev " + hugeDir + ") or use --no-huge");
            }
            range("RX descriptors", rxDescriptors, 32, 32768);
            range("TX descriptors", txDescriptors, 32, 32768);
            range("mbuf cache", mbufCache, 0, 512);
            range("mbufs", mbufs, rxDescriptors + RxBurstDescriptor.MAX_PACKETS + 2 * mbufCache, 1 << 26);
            range("link timeout (ms)", linkTimeoutMillis, 0, 600_000);
            range("hand-over capacity (bytes)", handOverCapacity, MIN_HAND_OVER_CAPACITY, MAX_HAND_OVER_CAPACITY);
            return this;
        }

        private static void range(final String what, final int value, final int min, final int max)
        {
            if (value < min || value > max)
            {
                throw new IllegalArgumentException(what + " " + value + " is outside " + min + ".." + max);
            }
        }
    }
}
