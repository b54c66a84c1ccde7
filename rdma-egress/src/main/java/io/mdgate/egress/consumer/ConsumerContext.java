package io.mdgate.egress.consumer;

import io.mdgate.egress.EventLog;
import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.HelloFlyweight;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import io.mdgate.core.time.MonotonicEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Settings of an {@link EgressConsumer}, with defaults, checked once by {@link #conclude()}; docs/CONFIGURATION.md
 * lists them. Set up on one thread before connecting.
 */
public final class ConsumerContext
{
    public static final int DEFAULT_RING_SLOTS = 8192;
    public static final int DEFAULT_TABLE_SLOTS = 256;
    /** Levels per side of each depth table slot (the publisher's default depth). */
    public static final int DEFAULT_DEPTH_LEVELS = 10;
    public static final long DEFAULT_CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);
    public static final long DEFAULT_CONTROL_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    public static final long DEFAULT_RECONNECT_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    public static final long DEFAULT_RECONNECT_MAX_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(4);
    public static final int DEFAULT_PENDING_TICKS = 65536;

    private String name;
    private String token;
    private DeliveryPath path = DeliveryPath.RING;
    private int ringSlots = DEFAULT_RING_SLOTS;
    private int tableSlots = DEFAULT_TABLE_SLOTS;
    private int depthLevels = DEFAULT_DEPTH_LEVELS;
    private long connectTimeoutNanos = DEFAULT_CONNECT_TIMEOUT_NANOS;
    private long controlPollNanos = DEFAULT_CONTROL_POLL_NANOS;
    private long reconnectIntervalNanos = DEFAULT_RECONNECT_INTERVAL_NANOS;
    private long reconnectMaxIntervalNanos = DEFAULT_RECONNECT_MAX_INTERVAL_NANOS;
    private boolean reconnect = true;
    private long resumeFromSequence;
    private int pendingTicks = DEFAULT_PENDING_TICKS;
    private boolean recordLatency = true;
    private boolean snapshotOnConnect;
    private boolean directoryOnConnect;
    private EpochNanoClock epochClock = new MonotonicEpochClock();
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private EventLog eventLog = EventLog.STDERR;

    /**
     * @return this, checked.
     * @throws IllegalArgumentException saying what is wrong and what would be right.
     */
    public ConsumerContext conclude()
    {
        require(null != name && !name.isEmpty() && name.length() <= HelloFlyweight.MAX_NAME_LENGTH &&
            name.chars().allMatch(c -> c > 32 && c < 127),
            "the consumer name must be 1 to 32 printable ASCII characters without spaces, was '" + name + "'");
        require(null != token && !token.isEmpty() &&
            token.getBytes(StandardCharsets.UTF_8).length <= HelloFlyweight.MAX_TOKEN_LENGTH,
            "the token must be 1 to 64 bytes");
        require(null != path, "a delivery path (RING or STREAM) is required");
        require(path == DeliveryPath.STREAM ? ringSlots == 0 || isRing(ringSlots) : isRing(ringSlots),
            "ringSlots must be a power of two from 16 to " + ConsumerRegionDescriptor.MAX_RING_SLOTS +
            (path == DeliveryPath.STREAM ? " (or 0 for the stream alone)" : "") + ", was " + ringSlots);
        require(tableSlots >= 0 && tableSlots <= ConsumerRegionDescriptor.MAX_TABLE_SLOTS,
            "tableSlots must be 0.." + ConsumerRegionDescriptor.MAX_TABLE_SLOTS + ", was " + tableSlots);
        require(depthLevels >= 0 && depthLevels <= io.mdgate.core.depth.DepthBook.MAX_DEPTH,
            "depthLevels must be 0 (no depth table) .." + io.mdgate.core.depth.DepthBook.MAX_DEPTH + ", was " +
            depthLevels);
        require(connectTimeoutNanos > 0, "connectTimeoutNanos must be positive");
        require(controlPollNanos >= 0, "controlPollNanos must not be negative");
        require(reconnectIntervalNanos > 0, "reconnectIntervalNanos must be positive");
        require(reconnectMaxIntervalNanos >= reconnectIntervalNanos, "reconnectMaxIntervalNanos must be at least " +
            "reconnectIntervalNanos (" + reconnectIntervalNanos + "), was " + reconnectMaxIntervalNanos);
        require(resumeFromSequence >= 0, "resumeFromSequence must not be negative");
        require(pendingTicks >= 64 && pendingTicks <= (1 << 24), "pendingTicks must be 64..16777216");
        require(null != epochClock && null != nanoClock && null != eventLog, "clocks and event log must be set");
        return this;
    }

    private static boolean isRing(final int slots)
    {
        return slots >= 16 && ConsumerRegionDescriptor.validRingSlots(slots);
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }

    public String name()
    {
        return name;
    }

    public ConsumerContext name(final String name)
    {
        this.name = name;
        return this;
    }

    public String token()
    {
        return token;
    }

    public ConsumerContext token(final String token)
    {
        this.token = token;
        return this;
    }

    public DeliveryPath path()
    {
        return path;
    }

    public ConsumerContext path(final DeliveryPath path)
    {
        this.path = path;
        return this;
    }

    public int ringSlots()
    {
        return ringSlots;
    }

    public ConsumerContext ringSlots(final int ringSlots)
    {
        this.ringSlots = ringSlots;
        return this;
    }

    public int tableSlots()
    {
        return tableSlots;
    }

    /** @return levels per side of each depth table slot (0: no depth table). */
    public int depthLevels()
    {
        return depthLevels;
    }

    /**
     * Sets L, the levels per side the region's depth table holds for each table slot (0 to 64; 0: none). The
     * publisher writes the first {@code min(L, D)} levels of its depth D into it; the region grows by
     * {@code tableSlots x DepthTableDescriptor.slotLength(L)} bytes (448 per slot at 10).
     */
    public ConsumerContext depthLevels(final int depthLevels)
    {
        this.depthLevels = depthLevels;
        return this;
    }

    public ConsumerContext tableSlots(final int tableSlots)
    {
        this.tableSlots = tableSlots;
        return this;
    }

    public long connectTimeoutNanos()
    {
        return connectTimeoutNanos;
    }

    public ConsumerContext connectTimeoutNanos(final long connectTimeoutNanos)
    {
        this.connectTimeoutNanos = connectTimeoutNanos;
        return this;
    }

    public long controlPollNanos()
    {
        return controlPollNanos;
    }

    /**
     * @param controlPollNanos least time between two polls of the control channel (a syscall on shm) while nothing
     *                         is being recovered; during recovery it is polled at every {@code poll}.
     */
    public ConsumerContext controlPollNanos(final long controlPollNanos)
    {
        this.controlPollNanos = controlPollNanos;
        return this;
    }

    public long reconnectIntervalNanos()
    {
        return reconnectIntervalNanos;
    }

    public ConsumerContext reconnectIntervalNanos(final long reconnectIntervalNanos)
    {
        this.reconnectIntervalNanos = reconnectIntervalNanos;
        return this;
    }

    public long reconnectMaxIntervalNanos()
    {
        return reconnectMaxIntervalNanos;
    }

    /**
     * @param reconnectMaxIntervalNanos the longest wait between two reconnect attempts: the first comes
     *                                  {@link #reconnectIntervalNanos()} after the loss, each failed one doubles the
     *                                  wait up to this, so a publisher down for long is not asked many times a second.
     */
    public ConsumerContext reconnectMaxIntervalNanos(final long reconnectMaxIntervalNanos)
    {
        this.reconnectMaxIntervalNanos = reconnectMaxIntervalNanos;
        return this;
    }

    public boolean reconnect()
    {
        return reconnect;
    }

    /** @param reconnect whether a lost connection is re-established by {@code poll} (true) or stays lost. */
    public ConsumerContext reconnect(final boolean reconnect)
    {
        this.reconnect = reconnect;
        return this;
    }

    public long resumeFromSequence()
    {
        return resumeFromSequence;
    }

    /**
     * @param resumeFromSequence first gateway sequence wanted, for a consumer that restarts and knows what it had;
     *                           0 starts from the live stream.
     */
    public ConsumerContext resumeFromSequence(final long resumeFromSequence)
    {
        this.resumeFromSequence = resumeFromSequence;
        return this;
    }

    public int pendingTicks()
    {
        return pendingTicks;
    }

    /** @param pendingTicks live stream ticks held while a gap before them is recovered. */
    public ConsumerContext pendingTicks(final int pendingTicks)
    {
        this.pendingTicks = pendingTicks;
        return this;
    }

    public boolean snapshotOnConnect()
    {
        return snapshotOnConnect;
    }

    /**
     * @param snapshotOnConnect whether the consumer asks for a snapshot of its subscriptions at its first
     *                          {@link EgressConsumer#poll} after connecting (default false), as
     *                          {@link EgressConsumer#requestSnapshot()} would: subscribe before that poll. It replaces
     *                          a {@link #resumeFromSequence(long)} (the snapshot is the state at its sequence) and is
     *                          not repeated when the consumer reconnects later.
     */
    public ConsumerContext snapshotOnConnect(final boolean snapshotOnConnect)
    {
        this.snapshotOnConnect = snapshotOnConnect;
        return this;
    }

    public boolean directoryOnConnect()
    {
        return directoryOnConnect;
    }

    /**
     * @param directoryOnConnect whether a consumer that starts live asks for the instrument directory at its first
     *                           {@link EgressConsumer#poll} after connecting (default false): the last
     *                           {@code INSTRUMENT} tick of every instrument the publisher's current session named,
     *                           so {@link EgressConsumer#symbolOf} knows the symbols of instruments named before it
     *                           joined. Live ticks wait until the directory is in, then go on from where they were,
     *                           each once; the directory's ticks are not handed to the handler. Not asked for with
     *                           {@link #snapshotOnConnect(boolean)} or {@link #resumeFromSequence(long)}, which bring
     *                           the INSTRUMENT ticks themselves (and a directory of today would misname ticks replayed
     *                           from an earlier session). A publisher that predates the directory refuses it, and
     *                           one that predates snapshots leaves it unanswered (given up after the heartbeat
     *                           timeout); live delivery then goes on and those symbols stay unknown.
     */
    public ConsumerContext directoryOnConnect(final boolean directoryOnConnect)
    {
        this.directoryOnConnect = directoryOnConnect;
        return this;
    }

    public boolean recordLatency()
    {
        return recordLatency;
    }

    /**
     * @param recordLatency whether {@link EgressConsumer#latency()} records each live tick's latency (default true);
     *                      an application timing ticks itself turns it off and saves the recording per tick.
     */
    public ConsumerContext recordLatency(final boolean recordLatency)
    {
        this.recordLatency = recordLatency;
        return this;
    }

    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    public ConsumerContext epochClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }

    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    public ConsumerContext nanoClock(final NanoClock nanoClock)
    {
        this.nanoClock = nanoClock;
        return this;
    }

    public EventLog eventLog()
    {
        return eventLog;
    }

    public ConsumerContext eventLog(final EventLog eventLog)
    {
        this.eventLog = eventLog;
        return this;
    }
}
