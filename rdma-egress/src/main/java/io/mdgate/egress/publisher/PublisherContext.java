package io.mdgate.egress.publisher;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.counters.CounterAllocator;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.egress.EventLog;
import io.mdgate.egress.RecoverySource;
import io.mdgate.egress.TickSource;
import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.SharedLogDescriptor;
import io.mdgate.egress.transport.EgressTransport;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import io.mdgate.core.time.MonotonicEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Settings of the {@link EgressPublisher}, with defaults, checked once by {@link #conclude()}; docs/CONFIGURATION.md
 * lists them. Set up on one thread before the publisher starts.
 */
public final class PublisherContext
{
    public static final int DEFAULT_STREAM_ID = 1001;
    public static final int DEFAULT_MAX_CONSUMERS = 16;
    public static final int DEFAULT_MAX_RING_SLOTS = 16384;
    public static final int DEFAULT_SHARED_LOG_SLOTS = 1 << 18;
    public static final int DEFAULT_MAX_TABLE_SLOTS = 1024;
    /** Levels per side the depth table keeps per instrument, from the LEVEL ticks. */
    public static final int DEFAULT_DEPTH_LEVELS = 10;
    public static final int DEFAULT_MAX_INSTRUMENTS = 65536;
    public static final long DEFAULT_BATCH_BUDGET_NANOS = TimeUnit.MICROSECONDS.toNanos(5);
    public static final int DEFAULT_RING_FLUSH_SLOTS = 16;
    public static final long DEFAULT_STREAM_HEARTBEAT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    public static final long DEFAULT_HEARTBEAT_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    public static final long DEFAULT_CONTROL_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Five seconds: a verbs connection is handed over as soon as RDMA-CM accepts it, and its HELLO can take longer
     * than a second to follow on a slow host (the emulated Soft-RoCE guest). The shm server screens its connections
     * on its own thread with its own, shorter timeout before handing them over.
     */
    public static final long DEFAULT_HELLO_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);
    public static final int DEFAULT_MAX_PENDING_CONNECTIONS = 64;
    public static final int DEFAULT_RECOVERY_TICKS_PER_CYCLE = 1024;
    public static final long DEFAULT_RECOVERY_TICKS_PER_SECOND = 2_000_000;
    public static final long DEFAULT_RECOVERY_STALL_NANOS = TimeUnit.SECONDS.toNanos(2);
    public static final int DEFAULT_INPUT_LIMIT = 256;
    /** Ticks a consumer's snapshot can stage: 16,384 (1 MiB per session). */
    public static final int DEFAULT_SNAPSHOT_TICKS = 1 << 14;
    /** Snapshot work per duty cycle, across consumers: ticks built plus instruments visited. */
    public static final int DEFAULT_SNAPSHOT_RECORDS_PER_CYCLE = 128;
    public static final int MAX_SNAPSHOT_RECORDS_PER_CYCLE = 1 << 20;
    public static final int MIN_SNAPSHOT_TICKS = 64;
    public static final int MAX_SNAPSHOT_TICKS = 1 << 24;

    private EgressTransport transport;
    private RecoverySource recoverySource;
    private TickSource tickSource;
    private CounterAllocator counters;
    private EventLog eventLog = EventLog.STDERR;
    private EpochNanoClock epochClock = new MonotonicEpochClock();
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private final Map<String, byte[]> tokens = new HashMap<>();
    private int streamId = DEFAULT_STREAM_ID;
    private int maxConsumers = DEFAULT_MAX_CONSUMERS;
    private int maxRingSlots = DEFAULT_MAX_RING_SLOTS;
    private int sharedLogSlots = DEFAULT_SHARED_LOG_SLOTS;
    private int maxTableSlots = DEFAULT_MAX_TABLE_SLOTS;
    private int maxInstruments = DEFAULT_MAX_INSTRUMENTS;
    private int depthLevels = DEFAULT_DEPTH_LEVELS;
    private long batchBudgetNanos = DEFAULT_BATCH_BUDGET_NANOS;
    private int ringFlushSlots = DEFAULT_RING_FLUSH_SLOTS;
    private long streamHeartbeatNanos = DEFAULT_STREAM_HEARTBEAT_NANOS;
    private long heartbeatIntervalNanos = DEFAULT_HEARTBEAT_INTERVAL_NANOS;
    private long heartbeatTimeoutNanos = DEFAULT_HEARTBEAT_TIMEOUT_NANOS;
    private long controlPollNanos = DEFAULT_CONTROL_POLL_NANOS;
    private long helloTimeoutNanos = DEFAULT_HELLO_TIMEOUT_NANOS;
    private int maxPendingConnections = DEFAULT_MAX_PENDING_CONNECTIONS;
    private int recoveryTicksPerCycle = DEFAULT_RECOVERY_TICKS_PER_CYCLE;
    private long recoveryTicksPerSecond = DEFAULT_RECOVERY_TICKS_PER_SECOND;
    private long recoveryStallNanos = DEFAULT_RECOVERY_STALL_NANOS;
    private int inputLimit = DEFAULT_INPUT_LIMIT;
    private long firstSequence = 1;
    private boolean orderSnapshots = true;
    private BookContext snapshotBooks = new BookContext();
    private int snapshotTicks = DEFAULT_SNAPSHOT_TICKS;
    private int snapshotRecordsPerCycle = DEFAULT_SNAPSHOT_RECORDS_PER_CYCLE;

    /**
     * @return this, checked.
     * @throws IllegalArgumentException saying what is wrong and what would be right.
     */
    public PublisherContext conclude()
    {
        require(null != transport, "a transport is required");
        require(null != recoverySource, "a recovery source is required (the journal, or a TickArchive)");
        require(null != eventLog && null != epochClock && null != nanoClock, "event log and clocks must be set");
        require(!tokens.isEmpty(), "at least one consumer token is required; consumers without one are refused");
        require(maxConsumers >= 1 && maxConsumers <= 1024, "maxConsumers must be 1..1024, was " + maxConsumers);
        require(ConsumerRegionDescriptor.validRingSlots(maxRingSlots) && maxRingSlots >= 16,
            "maxRingSlots must be a power of two from 16 to " + ConsumerRegionDescriptor.MAX_RING_SLOTS + ", was " +
            maxRingSlots);
        require(sharedLogSlots == 0 || SharedLogDescriptor.isValidSlots(sharedLogSlots),
            "sharedLogSlots must be 0 (no shared log) or a power of two from " + SharedLogDescriptor.MIN_SLOTS +
            " to " + SharedLogDescriptor.MAX_SLOTS + ", was " + sharedLogSlots);
        require(maxTableSlots >= 0 && maxTableSlots <= ConsumerRegionDescriptor.MAX_TABLE_SLOTS,
            "maxTableSlots must be 0.." + ConsumerRegionDescriptor.MAX_TABLE_SLOTS + ", was " + maxTableSlots);
        require(maxInstruments >= 2 && maxInstruments <= 65536,
            "maxInstruments must be 2..65536 (instrument ids are uint16), was " + maxInstruments);
        require(depthLevels >= 0 && depthLevels <= DepthBook.MAX_DEPTH,
            "depthLevels must be 0 (no depth table) .." + DepthBook.MAX_DEPTH + ", was " + depthLevels);
        require(batchBudgetNanos >= 0, "batchBudgetNanos must not be negative, was " + batchBudgetNanos);
        require(ringFlushSlots >= 1 && ringFlushSlots <= 16, "ringFlushSlots must be 1..16 (was " + ringFlushSlots +
            "): a consumer's ring is never smaller than 16 slots");
        require(streamHeartbeatNanos > 0 && heartbeatIntervalNanos > 0, "heartbeat intervals must be positive");
        require(heartbeatTimeoutNanos >= 2 * heartbeatIntervalNanos,
            "heartbeatTimeoutNanos must be at least two heartbeat intervals, was " + heartbeatTimeoutNanos);
        require(controlPollNanos >= 0, "controlPollNanos must not be negative");
        require(helloTimeoutNanos > 0, "helloTimeoutNanos must be positive, was " + helloTimeoutNanos);
        require(maxPendingConnections >= 1 && maxPendingConnections <= 4096,
            "maxPendingConnections must be 1..4096, was " + maxPendingConnections);
        require(recoveryTicksPerCycle >= 1, "recoveryTicksPerCycle must be positive");
        require(recoveryTicksPerSecond >= recoveryTicksPerCycle,
            "recoveryTicksPerSecond must be at least recoveryTicksPerCycle");
        require(recoveryStallNanos > 0, "recoveryStallNanos must be positive");
        require(inputLimit >= 1, "inputLimit must be positive");
        require(firstSequence >= 1, "firstSequence must be at least 1, was " + firstSequence);
        require(snapshotTicks >= MIN_SNAPSHOT_TICKS && snapshotTicks <= MAX_SNAPSHOT_TICKS,
            "snapshotTicks must be " + MIN_SNAPSHOT_TICKS + ".." + MAX_SNAPSHOT_TICKS + ", was " + snapshotTicks);
        require(snapshotRecordsPerCycle >= 1 && snapshotRecordsPerCycle <= MAX_SNAPSHOT_RECORDS_PER_CYCLE,
            "snapshotRecordsPerCycle must be 1.." + MAX_SNAPSHOT_RECORDS_PER_CYCLE + ", was " + snapshotRecordsPerCycle);
        require(null != snapshotBooks, "snapshotBooks must be set (the capacities of the order mirror)");
        if (orderSnapshots)
        {
            snapshotBooks.conclude();
        }
        return this;
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }

    public EgressTransport transport()
    {
        return transport;
    }

    public PublisherContext transport(final EgressTransport transport)
    {
        this.transport = transport;
        return this;
    }

    public RecoverySource recoverySource()
    {
        return recoverySource;
    }

    public PublisherContext recoverySource(final RecoverySource recoverySource)
    {
        this.recoverySource = recoverySource;
        return this;
    }

    /** @return where the duty cycle polls live ticks from, or null when they are given by {@code onTick}. */
    public TickSource tickSource()
    {
        return tickSource;
    }

    public PublisherContext tickSource(final TickSource tickSource)
    {
        this.tickSource = tickSource;
        return this;
    }

    public CounterAllocator counters()
    {
        return counters;
    }

    /**
     * @param counters where the publisher allocates its counters ({@link PublisherCounterDescriptor}, labelled
     *                 {@code egress.*}) when it is built: the gateway's counters file, so other processes read them
     *                 live; null (the default) for counters of its own that nobody outside sees.
     */
    public PublisherContext counters(final CounterAllocator counters)
    {
        this.counters = counters;
        return this;
    }

    public EventLog eventLog()
    {
        return eventLog;
    }

    public PublisherContext eventLog(final EventLog eventLog)
    {
        this.eventLog = eventLog;
        return this;
    }

    public EpochNanoClock epochClock()
    {
        return epochClock;
    }

    public PublisherContext epochClock(final EpochNanoClock epochClock)
    {
        this.epochClock = epochClock;
        return this;
    }

    public NanoClock nanoClock()
    {
        return nanoClock;
    }

    public PublisherContext nanoClock(final NanoClock nanoClock)
    {
        this.nanoClock = nanoClock;
        return this;
    }

    /** @return consumer name to token (bytes of the token's UTF-8). */
    public Map<String, byte[]> tokens()
    {
        return tokens;
    }

    /**
     * Allows consumer {@code name} with {@code token}.
     */
    public PublisherContext token(final String name, final String token)
    {
        require(null != name && !name.isEmpty() && name.length() <= 32 && name.chars().allMatch(c -> c > 32 && c < 127),
            "consumer name '" + name + "' must be 1 to 32 printable ASCII characters without spaces");
        require(null != token && !token.isEmpty() && token.getBytes(StandardCharsets.UTF_8).length <= 64,
            "the token of consumer '" + name + "' must be 1 to 64 bytes");
        tokens.put(name, token.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    public int streamId()
    {
        return streamId;
    }

    public PublisherContext streamId(final int streamId)
    {
        this.streamId = streamId;
        return this;
    }

    public int maxConsumers()
    {
        return maxConsumers;
    }

    /**
     * @return sessions the publisher keeps ready: {@link #maxConsumers()}, or one per configured consumer when more
     *         are configured, so that every configured consumer can always connect.
     */
    public int sessions()
    {
        return Math.max(maxConsumers, tokens.size());
    }

    public PublisherContext maxConsumers(final int maxConsumers)
    {
        this.maxConsumers = maxConsumers;
        return this;
    }

    /**
     * @return slots of the shared tick log that consumers subscribed to every instrument read on transports that
     *         have one (shm); 0 for none (every consumer gets a ring).
     */
    public int sharedLogSlots()
    {
        return sharedLogSlots;
    }

    public PublisherContext sharedLogSlots(final int sharedLogSlots)
    {
        this.sharedLogSlots = sharedLogSlots;
        return this;
    }

    public int maxRingSlots()
    {
        return maxRingSlots;
    }

    public PublisherContext maxRingSlots(final int maxRingSlots)
    {
        this.maxRingSlots = maxRingSlots;
        return this;
    }

    public int maxTableSlots()
    {
        return maxTableSlots;
    }

    public PublisherContext maxTableSlots(final int maxTableSlots)
    {
        this.maxTableSlots = maxTableSlots;
        return this;
    }

    public int maxInstruments()
    {
        return maxInstruments;
    }

    public PublisherContext maxInstruments(final int maxInstruments)
    {
        this.maxInstruments = maxInstruments;
        return this;
    }

    /** @return levels per side the depth table keeps per instrument (0: none); announced in WELCOME. */
    public int depthLevels()
    {
        return depthLevels;
    }

    /**
     * Sets D, the levels per side kept per instrument from the LEVEL ticks and written into consumers' depth tables
     * (0 to {@value DepthBook#MAX_DEPTH}; 0 keeps none). It should be the normalizer's depth: a larger one holds no
     * more than the ticks describe, a smaller one only the top of it. The records take
     * {@code maxInstruments x DepthTableDescriptor.slotLength(D)} bytes of registered memory (28 MiB at the defaults).
     */
    public PublisherContext depthLevels(final int depthLevels)
    {
        this.depthLevels = depthLevels;
        return this;
    }

    /** @return whether the publisher keeps a mirror of the order books for the order-level part of snapshots. */
    public boolean orderSnapshots()
    {
        return orderSnapshots;
    }

    /**
     * Keeps (true, the default) or not a mirror of the order books, fed from the order-event ticks published, so that
     * a snapshot of a view taking order events (ORDERS, ALL) carries the live orders. It costs the books' memory
     * ({@link #snapshotBooks(BookContext)}: about 290 MB at the book defaults) and one book update per order event
     * on the publisher's thread. Without it such a snapshot carries everything but the orders, and says so
     * (SNAPSHOT_END flag ORDERS_OMITTED).
     */
    public PublisherContext orderSnapshots(final boolean orderSnapshots)
    {
        this.orderSnapshots = orderSnapshots;
        return this;
    }

    public BookContext snapshotBooks()
    {
        return snapshotBooks;
    }

    /**
     * Capacities of the order mirror: give it the normalizer's (the gateway's [book] settings), so it holds whatever
     * the gateway's books hold. Default: the {@link BookContext} defaults (1,048,576 orders, 262,144 levels).
     */
    public PublisherContext snapshotBooks(final BookContext snapshotBooks)
    {
        this.snapshotBooks = snapshotBooks;
        return this;
    }

    public int snapshotTicks()
    {
        return snapshotTicks;
    }

    /**
     * Ticks a consumer's snapshot can stage ({@value #MIN_SNAPSHOT_TICKS}..{@value #MAX_SNAPSHOT_TICKS}, default
     * 16,384): each session's staging buffer, 64 bytes a tick, allocated at start. A snapshot's parts (one
     * instrument each) are built into it and sent from it, so it bounds one instrument's part (its live orders,
     * 2 x D levels and 4 more ticks), not the snapshot: an instrument whose part does not fit refuses the snapshot
     * (SNAPSHOT_END status REFUSED, counted).
     */
    public PublisherContext snapshotTicks(final int snapshotTicks)
    {
        this.snapshotTicks = snapshotTicks;
        return this;
    }

    public int snapshotRecordsPerCycle()
    {
        return snapshotRecordsPerCycle;
    }

    /**
     * Snapshot work one duty cycle may do across every consumer's snapshot (1..{@value
     * #MAX_SNAPSHOT_RECORDS_PER_CYCLE}, default {@value #DEFAULT_SNAPSHOT_RECORDS_PER_CYCLE}): each tick built or
     * sent and each instrument visited counts one. An instrument's part is never split, so a cycle does at most this
     * plus one part. Lower bounds the stall a snapshot adds to a duty cycle; higher makes a joiner live sooner.
     */
    public PublisherContext snapshotRecordsPerCycle(final int snapshotRecordsPerCycle)
    {
        this.snapshotRecordsPerCycle = snapshotRecordsPerCycle;
        return this;
    }

    public long batchBudgetNanos()
    {
        return batchBudgetNanos;
    }

    /** @param batchBudgetNanos longest a tick waits for more to fill its datagram; 0 sends at every duty cycle. */
    public PublisherContext batchBudgetNanos(final long batchBudgetNanos)
    {
        this.batchBudgetNanos = batchBudgetNanos;
        return this;
    }

    public int ringFlushSlots()
    {
        return ringFlushSlots;
    }

    /** @param ringFlushSlots staged ring slots that trigger a write before the end of the duty cycle. */
    public PublisherContext ringFlushSlots(final int ringFlushSlots)
    {
        this.ringFlushSlots = ringFlushSlots;
        return this;
    }

    public long streamHeartbeatNanos()
    {
        return streamHeartbeatNanos;
    }

    public PublisherContext streamHeartbeatNanos(final long streamHeartbeatNanos)
    {
        this.streamHeartbeatNanos = streamHeartbeatNanos;
        return this;
    }

    public long heartbeatIntervalNanos()
    {
        return heartbeatIntervalNanos;
    }

    public PublisherContext heartbeatIntervalNanos(final long heartbeatIntervalNanos)
    {
        this.heartbeatIntervalNanos = heartbeatIntervalNanos;
        return this;
    }

    public long heartbeatTimeoutNanos()
    {
        return heartbeatTimeoutNanos;
    }

    public PublisherContext heartbeatTimeoutNanos(final long heartbeatTimeoutNanos)
    {
        this.heartbeatTimeoutNanos = heartbeatTimeoutNanos;
        return this;
    }

    public long helloTimeoutNanos()
    {
        return helloTimeoutNanos;
    }

    /**
     * @param helloTimeoutNanos a connection that has not sent a valid HELLO this long after the transport handed it
     *                          over is closed and counted.
     */
    public PublisherContext helloTimeoutNanos(final long helloTimeoutNanos)
    {
        this.helloTimeoutNanos = helloTimeoutNanos;
        return this;
    }

    public int maxPendingConnections()
    {
        return maxPendingConnections;
    }

    /**
     * @param maxPendingConnections connections awaiting their HELLO the publisher holds; one more closes the oldest.
     */
    public PublisherContext maxPendingConnections(final int maxPendingConnections)
    {
        this.maxPendingConnections = maxPendingConnections;
        return this;
    }

    public long controlPollNanos()
    {
        return controlPollNanos;
    }

    /**
     * @param controlPollNanos least time between two polls of the control channels; over shm each poll is a
     *                         syscall per consumer, so this bounds their cost on the publisher's thread.
     */
    public PublisherContext controlPollNanos(final long controlPollNanos)
    {
        this.controlPollNanos = controlPollNanos;
        return this;
    }

    public int recoveryTicksPerCycle()
    {
        return recoveryTicksPerCycle;
    }

    public PublisherContext recoveryTicksPerCycle(final int recoveryTicksPerCycle)
    {
        this.recoveryTicksPerCycle = recoveryTicksPerCycle;
        return this;
    }

    public long recoveryTicksPerSecond()
    {
        return recoveryTicksPerSecond;
    }

    public PublisherContext recoveryTicksPerSecond(final long recoveryTicksPerSecond)
    {
        this.recoveryTicksPerSecond = recoveryTicksPerSecond;
        return this;
    }

    public long recoveryStallNanos()
    {
        return recoveryStallNanos;
    }

    /** @param recoveryStallNanos how long recovery waits for the source to hold a range before declaring it lost. */
    public PublisherContext recoveryStallNanos(final long recoveryStallNanos)
    {
        this.recoveryStallNanos = recoveryStallNanos;
        return this;
    }

    public int inputLimit()
    {
        return inputLimit;
    }

    public PublisherContext inputLimit(final int inputLimit)
    {
        this.inputLimit = inputLimit;
        return this;
    }

    public long firstSequence()
    {
        return firstSequence;
    }

    /** @param firstSequence gateway sequence of the first tick expected (what a heartbeat announces before it). */
    public PublisherContext firstSequence(final long firstSequence)
    {
        this.firstSequence = firstSequence;
        return this;
    }
}
