package io.mdgate.egress.consumer;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.EventLog;
import io.mdgate.egress.PeerText;
import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlFlyweight;
import io.mdgate.egress.protocol.HeartbeatFlyweight;
import io.mdgate.egress.protocol.HelloFlyweight;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.RejectFlyweight;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.SnapshotRequestFlyweight;
import io.mdgate.egress.protocol.DepthTableDescriptor;
import io.mdgate.egress.protocol.SubscriptionFlyweight;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.protocol.TopOfBookDescriptor;
import io.mdgate.egress.protocol.TopOfBookFlyweight;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.protocol.WelcomeFlyweight;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlMessageHandler;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import org.HdrHistogram.Histogram;
import org.agrona.BufferUtil;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.mdgate.egress.protocol.ControlMessageDescriptor.*;

/**
 * The consumer SDK: connects to the publisher, authenticates, subscribes by symbol or instrument id, and delivers
 * ticks through {@link #poll(TickHandler, int)} from its ring or the multicast stream ({@link DeliveryPath}), in
 * gateway sequence order, each once. Gaps are detected and recovered by itself: a lapped ring resyncs through the
 * ring, a stream gap is fetched over the control channel, and after a lost connection it reconnects, subscribes
 * again and recovers from the last tick it delivered (or from {@link ConsumerContext#resumeFromSequence()}); that
 * replay is asked for at the first {@link #poll} after connecting, so it covers the subscriptions made before that
 * poll. Each subscription has a {@link SubscriptionView view} (ALL unless given), and only ticks of the views are
 * delivered. The top-of-book table of its instruments is read with {@link #topOfBook(int, TopOfBookFlyweight)}, their
 * depth with {@link #depth(int, DepthBook)}. Per-tick latency goes into an HdrHistogram: for ring ticks from the
 * gateway's receive timestamp in the tick, for stream ticks from the datagram's send timestamp, to the poll that
 * found it (recovered ticks are not recorded).
 * <p>
 * Threading: one thread connects, subscribes, polls and closes. {@link #poll} does not allocate in steady state
 * (reconnecting does) and makes a syscall only at the control poll interval.
 */
public final class EgressConsumer implements AutoCloseable
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int DISCONNECTED = 0;
    /** Longest quiet time between two reports of failing reconnects for the same reason. */
    private static final long RECONNECT_LOG_INTERVAL_NANOS = 30_000_000_000L;
    private static final int AWAITING_WELCOME = 1;
    private static final int CONNECTED = 2;
    private static final int REJECTED = 3;
    private static final int CLOSED = 4;
    private static final int CONTROL_MESSAGES_PER_POLL = 32;
    private static final long HIGHEST_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final byte INSTRUMENT_EVENT = (byte)EventType.INSTRUMENT.value();
    private static final byte SESSION_EVENT = (byte)EventType.SESSION.value();

    private final EgressTransport transport;
    private final ConsumerContext context;
    private final EpochNanoClock epochClock;
    private final NanoClock nanoClock;
    private final EventLog log;
    private final boolean recordLatency;
    private final ConsumerCounters counters = new ConsumerCounters();
    private final Histogram latency = new Histogram(HIGHEST_LATENCY_NANOS, 3);
    private final LocalSubscriptions granted = new LocalSubscriptions();
    private final Long2LongHashMap symbols = new Long2LongHashMap(0);
    private final Map<Long, SubscriptionView> wantedSymbols = new LinkedHashMap<>();
    private final Map<Integer, SubscriptionView> wantedInstruments = new LinkedHashMap<>();
    private final RingReader ring;
    private final StreamReader stream;
    private final SharedLogFollower logFollower;
    private final TopOfBookReader tableReader = new TopOfBookReader(64);
    private final UnsafeBuffer tableCopy = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[512]);
    private final HelloFlyweight hello = new HelloFlyweight();
    private final WelcomeFlyweight welcome = new WelcomeFlyweight();
    private final RejectFlyweight reject = new RejectFlyweight();
    private final SubscriptionFlyweight subscription = new SubscriptionFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final SequenceRangeFlyweight range = new SequenceRangeFlyweight();
    private final RecoveryDataFlyweight data = new RecoveryDataFlyweight();
    private final ControlMessageHandler controlHandler = this::onControlMessage;

    private int state = DISCONNECTED;
    private String lastReconnectFailure;
    private long lastReconnectLogNanos;
    private long reconnectFailuresLogged;
    /** Wait before the next reconnect attempt: reconnectIntervalNanos after a loss, doubled by each failed attempt. */
    private long reconnectDelayNanos;
    private boolean wantAll;
    private SubscriptionView allView = SubscriptionView.ALL;
    private final UnsafeBuffer depthCopy;
    private int depthLevels;
    private boolean resyncDue;
    /** Asked for a snapshot and waiting for its end: live paths are not read meanwhile. */
    private boolean snapshotPending;
    /** Ask for a snapshot at the next poll (ConsumerContext.snapshotOnConnect). */
    private boolean snapshotDue;
    /** This consumer starts live and wants the directory (ConsumerContext.directoryOnConnect). */
    private final boolean directoryWanted;
    /** Ask for the directory at the next poll. */
    private boolean directoryDue;
    /** Asked for the directory and waiting for its end: live paths are not read meanwhile. */
    private boolean directoryPending;
    private long directoryAskedNanos;
    /** The directory went unanswered for the heartbeat timeout and was given up: its late answer is passed over. */
    private boolean directoryAbandoned;
    /** RECOVER requests whose answers were abandoned by a snapshot: their RECOVERY_END messages are ignored. */
    private int staleRecoveryEnds;
    /** Sequence live delivery continued after at the last snapshot (0: none); ticks at or below it are covered. */
    private long snapshotSequence;
    /** Each instrument's part sequence in the last snapshot: its live ticks at or below it are covered too. */
    private final SnapshotFloors floors = new SnapshotFloors();
    /** Flags of the request under way: PER_INSTRUMENT, or 0 once an older publisher refused that. */
    private int snapshotFlags = PER_INSTRUMENT;
    private long snapshotTicksAtRequest;
    private final SnapshotRequestFlyweight snapshotRequest = new SnapshotRequestFlyweight();
    private int sharedLogSlots;
    private int streamId;
    private boolean logSwitchPending;
    private long logSwitchPosition;
    private long logSwitchSequence;
    private boolean logResumeOwed;
    private ControlChannel channel;
    private MemoryRegion region;
    private RemoteRegion positions;
    private MulticastSubscription subscriptionChannel;
    private TickHandler handler;
    private long lastDelivered;
    /** A resume point was given: even sequence 1 (nothing delivered yet) is asked for, not only what is live. */
    private boolean resuming;
    private long nowNanos;
    private long receiptEpochNanos;
    private long lastControlPollNanos;
    private long lastReceivedNanos;
    private long lastHeartbeatSentNanos;
    private long heartbeatIntervalNanos = TimeUnit.MILLISECONDS.toNanos(100);
    private long heartbeatTimeoutNanos = TimeUnit.SECONDS.toNanos(5);
    private long stateSinceNanos;
    private long publisherEpoch;
    private int rejectReason;
    private String rejectText;

    private EgressConsumer(final EgressTransport transport, final ConsumerContext context)
    {
        this.transport = transport;
        this.context = context.conclude();
        this.epochClock = context.epochClock();
        this.nanoClock = context.nanoClock();
        this.log = context.eventLog();
        this.recordLatency = context.recordLatency();
        this.ring = new RingReader(this, counters);
        this.stream = new StreamReader(this, counters, context.pendingTicks());
        this.logFollower = new SharedLogFollower(this, counters, stream);
        this.lastDelivered = Math.max(0, context.resumeFromSequence() - 1);
        this.resuming = context.resumeFromSequence() > 0;
        this.snapshotDue = context.snapshotOnConnect();
        this.directoryWanted = context.directoryOnConnect() && !context.snapshotOnConnect() &&
            context.resumeFromSequence() <= 0;
        this.directoryDue = directoryWanted;
        this.depthCopy = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            Math.max(64, DepthTableDescriptor.slotLength(context.depthLevels())), 64));
    }

    /**
     * Connects and authenticates, waiting up to the context's connect timeout.
     *
     * @throws ConsumerRejectedException when the publisher refuses this consumer.
     * @throws TransportException         when no publisher answers in time.
     */
    public static EgressConsumer connect(final EgressTransport transport, final ConsumerContext context)
    {
        final EgressConsumer consumer = new EgressConsumer(transport, context);
        try
        {
            consumer.awaitConnected(context.connectTimeoutNanos());
            return consumer;
        }
        catch (final RuntimeException ex)
        {
            consumer.close();
            throw ex;
        }
    }

    private void awaitConnected(final long timeoutNanos)
    {
        final long deadline = nanoClock.nanoTime() + timeoutNanos;
        nowNanos = nanoClock.nanoTime();
        beginConnect(deadline - nowNanos);
        while (state == AWAITING_WELCOME && nanoClock.nanoTime() - deadline < 0)
        {
            nowNanos = nanoClock.nanoTime();
            pollControl();
            Thread.onSpinWait();
        }
        if (state == REJECTED)
        {
            throw new ConsumerRejectedException(rejectReason, "the publisher refused consumer '" + context.name() +
                "': " + rejectText);
        }
        if (state != CONNECTED)
        {
            throw new TransportException("the publisher did not answer consumer '" + context.name() + "' within " +
                TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
        }
    }

    private void beginConnect(final long timeoutNanos)
    {
        channel = transport.connectControl(Math.max(0, timeoutNanos));
        final int ringSlots = context.ringSlots();
        final int tableSlots = context.tableSlots();
        final int depth = context.depthLevels();
        region = transport.registerRegion(
            (int)ConsumerRegionDescriptor.length(ringSlots, tableSlots, depth), RegionAccess.REMOTE_WRITE);
        final AtomicBuffer header = region.buffer();
        header.putInt(ConsumerRegionDescriptor.VERSION_OFFSET, ConsumerRegionDescriptor.VERSION);
        header.putInt(ConsumerRegionDescriptor.RING_SLOTS_OFFSET, ringSlots);
        header.putInt(ConsumerRegionDescriptor.TABLE_SLOTS_OFFSET, tableSlots);
        header.putInt(ConsumerRegionDescriptor.DEPTH_LEVELS_OFFSET, depth);
        header.putLongRelease(ConsumerRegionDescriptor.LAP_POSITION_OFFSET, ConsumerRegionDescriptor.NOT_LAPPED);
        header.putLongRelease(ConsumerRegionDescriptor.MAGIC_OFFSET, ConsumerRegionDescriptor.MAGIC);
        hello.wrapForEncode(scratch, 0, HELLO);
        hello.ringSlots(ringSlots).tableSlots(tableSlots).depthLevels(depth).region(region.remoteKey())
            .name(context.name())
            .token(context.token().getBytes(StandardCharsets.UTF_8));
        state = AWAITING_WELCOME;
        stateSinceNanos = nowNanos;
        lastReceivedNanos = nowNanos;
        send(hello, HelloFlyweight.LENGTH);
    }

    /**
     * Delivers ticks that arrived, in gateway sequence order, and does the consumer's housekeeping (control
     * messages, heartbeats, recovery, reconnecting).
     *
     * @param handler receives each tick; the bytes are valid only during the call.
     * @param limit   most ring slots or datagrams to read in this call.
     * @return work done (ticks or messages), 0 when idle.
     */
    public int poll(final TickHandler handler, final int limit)
    {
        this.handler = handler;
        nowNanos = nanoClock.nanoTime();
        receiptEpochNanos = epochClock.nanoTime();
        int work = 0;
        if (state == CONNECTED)
        {
            if (directoryDue && !snapshotPending)
            {
                directoryDue = false;
                beginDirectory();
            }
            if (snapshotDue && !directoryPending)
            {
                snapshotDue = false;
                resyncDue = false;
                beginSnapshot();
            }
            if (resyncDue)
            {
                resyncDue = false;
                ring.resync();
            }
            if (directoryPending && nowNanos - directoryAskedNanos > heartbeatTimeoutNanos)
            {
                abandonDirectory();
            }
            if (!snapshotPending && !directoryPending)
            {
                work += pollLive(limit); // while a snapshot or the directory comes, live ticks wait where they are
            }
        }
        if (nowNanos - lastControlPollNanos >= context.controlPollNanos() || isRecovering() || snapshotPending ||
            directoryPending)
        {
            lastControlPollNanos = nowNanos;
            work += pollControl();
            work += keepAlive();
        }
        this.handler = null;
        return work;
    }

    private int pollLive(final int limit)
    {
        if (logFollower.following())
        {
            return logFollower.poll(limit);
        }
        if (context.path() == DeliveryPath.RING)
        {
            final int read = ring.poll(limit);
            if (logSwitchPending && read < limit)
            {
                switchToLog();
            }
            return read;
        }
        return subscriptionChannel.poll(stream, limit);
    }

    private int pollControl()
    {
        if (state != CONNECTED && state != AWAITING_WELCOME)
        {
            return 0;
        }
        final int result = channel.poll(controlHandler, CONTROL_MESSAGES_PER_POLL);
        if (result == TransportResult.NOT_CONNECTED)
        {
            if (state != REJECTED)
            {
                disconnect("the publisher closed the connection");
            }
            return 1;
        }
        if (result > 0)
        {
            lastReceivedNanos = nowNanos;
        }
        return result;
    }

    private int keepAlive()
    {
        if (state == CONNECTED)
        {
            if (nowNanos - lastReceivedNanos > heartbeatTimeoutNanos)
            {
                disconnect("no heartbeat from the publisher for " +
                    TimeUnit.NANOSECONDS.toMillis(nowNanos - lastReceivedNanos) + " ms");
                return 1;
            }
            if (nowNanos - lastHeartbeatSentNanos >= heartbeatIntervalNanos)
            {
                lastHeartbeatSentNanos = nowNanos;
                heartbeat.wrapForEncode(scratch, 0, HEARTBEAT);
                heartbeat.timestamp(receiptEpochNanos).sequence(lastDelivered);
                send(heartbeat, HeartbeatFlyweight.LENGTH);
            }
            if (null != subscriptionChannel)
            {
                counters.transportLoss = subscriptionChannel.lossCount();
            }
        }
        else if (state == AWAITING_WELCOME && nowNanos - stateSinceNanos > context.connectTimeoutNanos())
        {
            disconnect("no WELCOME from the publisher");
        }
        else if (state == DISCONNECTED && context.reconnect() && nowNanos - stateSinceNanos >= reconnectDelayNanos)
        {
            stateSinceNanos = nowNanos;
            try
            {
                beginConnect(0);
            }
            catch (final TransportException ex)
            {
                releaseConnection();
                state = DISCONNECTED;
                stateSinceNanos = nowNanos;
                reconnectDelayNanos = Math.min(reconnectDelayNanos * 2, context.reconnectMaxIntervalNanos());
                reconnectFailed(ex);
            }
            return 1;
        }
        return 0;
    }

    private void onControlMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < 8)
        {
            counters.malformed++;
            return;
        }
        switch (ControlFlyweight.typeOf(buffer, offset))
        {
            case WELCOME:
                if (length >= WelcomeFlyweight.LENGTH && state == AWAITING_WELCOME)
                {
                    onWelcome((WelcomeFlyweight)welcome.wrap(buffer, offset), length);
                    return;
                }
                break;
            case REJECT:
                if (length >= RejectFlyweight.LENGTH)
                {
                    reject.wrap(buffer, offset);
                    rejectReason = reject.reason();
                    rejectText = PeerText.sanitize(reject.text(), RejectFlyweight.MAX_TEXT_LENGTH);
                    log.log("consumer '" + context.name() + "' refused: " + rejectText);
                    releaseConnection();
                    state = REJECTED;
                    return;
                }
                break;
            case SUBSCRIPTION:
                if (length >= SubscriptionFlyweight.LENGTH)
                {
                    onSubscription((SubscriptionFlyweight)subscription.wrap(buffer, offset), length);
                    return;
                }
                break;
            case HEARTBEAT:
                counters.heartbeatsReceived++;
                return;
            case RESYNCED:
                if (length >= SequenceRangeFlyweight.LENGTH)
                {
                    range.wrap(buffer, offset);
                    ring.onResynced(range.position());
                    return;
                }
                break;
            case LAPPED:
                counters.lapNotices++;
                return;
            case RECOVERY_DATA:
                onRecoveryData(buffer, offset, length);
                return;
            case SNAPSHOT_DATA:
                onSnapshotData(buffer, offset, length);
                return;
            case SNAPSHOT_END:
                if (length >= SequenceRangeFlyweight.LENGTH)
                {
                    onSnapshotEnd((SequenceRangeFlyweight)range.wrap(buffer, offset));
                    return;
                }
                break;
            case RECOVERY_END:
                if (length >= SequenceRangeFlyweight.LENGTH)
                {
                    onRecoveryEnd((SequenceRangeFlyweight)range.wrap(buffer, offset));
                    return;
                }
                break;
            case BYE:
                disconnect("the publisher said goodbye");
                return;
            default:
                break;
        }
        counters.malformed++;
    }

    private void onWelcome(final WelcomeFlyweight message, final int length)
    {
        final long epoch = message.publisherEpoch();
        final long nextSequence = message.nextSequence();
        if (publisherEpoch != 0 && epoch != publisherEpoch && nextSequence <= lastDelivered)
        {
            log.log("the publisher restarted with lower sequences; consumer '" + context.name() +
                "' follows it from sequence " + nextSequence);
            lastDelivered = nextSequence - 1;
            directoryDue = directoryWanted; // it joins the restarted publisher late
        }
        publisherEpoch = epoch;
        heartbeatIntervalNanos = message.heartbeatIntervalNanos();
        heartbeatTimeoutNanos = message.heartbeatTimeoutNanos();
        positions = channel.openRemoteRegion(message.positionRegion());
        state = CONNECTED;
        counters.connects++;
        lastReceivedNanos = nowNanos;
        lastHeartbeatSentNanos = nowNanos;
        granted.clearGrants();
        sharedLogSlots = message.sharedLogSlots();
        depthLevels = Math.max(0, Math.min(context.depthLevels(), message.depthLevelsIn(length)));
        streamId = message.streamId();
        logSwitchPending = false;
        logResumeOwed = lastDelivered > 0 || resuming;
        if (context.path() == DeliveryPath.RING)
        {
            ring.attach(region.buffer(), context.ringSlots(), positions);
            if (wantAll)
            {
                openLog();
            }
        }
        else
        {
            subscriptionChannel = transport.addSubscription(message.streamId());
            stream.start(message.streamId(), lastDelivered > 0 || resuming ? lastDelivered + 1 : nextSequence);
        }
        sendSubscriptions();
        resyncDue = context.path() == DeliveryPath.RING && (lastDelivered > 0 || resuming) && !logFollower.isOpen();
        staleRecoveryEnds = 0;
        if (snapshotPending)
        {
            snapshotPending = false;
            snapshotDue = true; // the connection carrying it was lost: ask again, after the subscriptions
        }
        if (directoryPending)
        {
            directoryPending = false;
            directoryDue = true;
        }
    }

    /** Maps the shared log when the publisher has one; the consumer keeps its ring if it cannot. */
    private void openLog()
    {
        if (sharedLogSlots == 0 || logFollower.isOpen())
        {
            return;
        }
        final String problem = logFollower.open(transport, streamId, positions);
        if (null != problem)
        {
            log.log("consumer '" + context.name() + "' reads every instrument from its ring: " + problem);
        }
    }

    /**
     * The ring holds every tick before the log position the publisher answered with, and it has been read up to
     * there (or a resync of it was still awaited): continue from the log, owing the ring's undelivered rest when a
     * resync or a resume was due.
     */
    private void switchToLog()
    {
        logSwitchPending = false;
        final boolean owed = logResumeOwed || ring.resyncPending();
        logResumeOwed = false;
        ring.stop();
        logFollower.start(logSwitchPosition, Math.max(owed ? lastDelivered + 1 : logSwitchSequence, lastDelivered + 1),
            logSwitchSequence);
    }

    private void sendSubscriptions()
    {
        if (wantAll)
        {
            sendSubscriptionToAll();
        }
        for (final Map.Entry<Integer, SubscriptionView> wanted : wantedInstruments.entrySet())
        {
            sendSubscription(SUBSCRIBE, wanted.getKey(), 0, 0, wanted.getValue());
        }
        for (final Map.Entry<Long, SubscriptionView> wanted : wantedSymbols.entrySet())
        {
            sendSubscription(SUBSCRIBE, BY_SYMBOL, wanted.getKey(), 0, wanted.getValue());
        }
    }

    private void onSubscription(final SubscriptionFlyweight message, final int length)
    {
        final int instrument = message.instrumentId();
        final int status = message.status();
        if (status == PENDING)
        {
            granted.pendingSymbol(message.symbol());
        }
        if (instrument > 0 && message.symbol() != 0)
        {
            symbols.put(instrument, message.symbol());
        }
        if (!(status == SUBSCRIBED && message.symbol() != 0 && granted.resolvedSymbol(message.symbol())))
        {
            granted.answered();
        }
        if (status == SUBSCRIBED)
        {
            if (instrument == ALL_INSTRUMENTS)
            {
                granted.all(true, allView.mask());
                if ((message.flags() & SHARED_LOG) != 0 && length >= SubscriptionFlyweight.LOG_ANSWER_LENGTH &&
                    logFollower.isOpen() && !logFollower.following())
                {
                    logSwitchPending = true;
                    logSwitchPosition = message.logPosition();
                    logSwitchSequence = message.nextSequence();
                }
            }
            else if (instrument > 0)
            {
                granted.granted(instrument, message.tableSlot(), grantedMask(instrument, message.symbol()));
            }
        }
        else if (status == UNSUBSCRIBED)
        {
            if (instrument == ALL_INSTRUMENTS)
            {
                granted.all(false, 0);
            }
            else if (instrument > 0)
            {
                granted.remove(instrument);
            }
        }
        else if (status == INVALID)
        {
            log.log("consumer '" + context.name() + "': the publisher refused subscription " +
                (instrument == BY_SYMBOL ? Alpha.unpack8(message.symbol()).trim() : String.valueOf(instrument)));
        }
    }

    private void onRecoveryData(final DirectBuffer buffer, final int offset, final int length)
    {
        data.wrap(buffer, offset);
        final int count = data.tickCount();
        if (count < 0 || RecoveryDataFlyweight.TICKS_OFFSET + count * TickLayout.LENGTH > length)
        {
            counters.malformed++;
            return;
        }
        if (snapshotPending)
        {
            counters.snapshotSkipped += count; // asked for before the snapshot, so at or below its sequence
            return;
        }
        for (int i = 0; i < count; i++)
        {
            stream.onRecovered(buffer, data.tickOffset(i));
        }
    }

    private void onRecoveryEnd(final SequenceRangeFlyweight message)
    {
        if (message.status() == RECOVERY_REFUSED)
        {
            log.log("consumer '" + context.name() + "': the publisher refused to recover " + message.from() + ".." +
                message.to());
        }
        else
        {
            counters.recoveriesCompleted++;
            counters.unrecovered += message.count();
        }
        if ((message.flags() & VIA_RING) == 0 && staleRecoveryEnds > 0)
        {
            staleRecoveryEnds--;
        }
        else if ((message.flags() & VIA_RING) == 0)
        {
            stream.onRecoveryEnd(message.status() == RECOVERY_REFUSED ? message.from() - 1 : message.to());
        }
    }

    /** @return the mask of the view this consumer asked for the instrument (by id, else by symbol, else ALL). */
    private int grantedMask(final int instrument, final long symbol)
    {
        final SubscriptionView byId = wantedInstruments.get(instrument);
        if (null != byId)
        {
            return byId.mask();
        }
        final int bySymbol = granted.symbolMask(symbol);
        return bySymbol != 0 ? bySymbol : SubscriptionView.ALL.mask();
    }

    void deliverFromRing(final DirectBuffer buffer, final int offset)
    {
        final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
        final byte eventType = buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET);
        if (eventType == INSTRUMENT_EVENT)
        {
            onInstrumentRead(buffer, offset, instrument);
        }
        if (granted.acceptsFromRing(instrument, eventType))
        {
            deliver(buffer, offset, buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET, LE));
        }
        else
        {
            counters.filtered++;
        }
    }

    void deliverFromStream(final DirectBuffer buffer, final int offset, final long sendTimestamp)
    {
        final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
        final byte eventType = buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET);
        if (eventType == INSTRUMENT_EVENT)
        {
            onInstrumentRead(buffer, offset, instrument);
        }
        if (granted.accepts(instrument, eventType))
        {
            deliver(buffer, offset, sendTimestamp);
        }
    }

    private void deliver(final DirectBuffer buffer, final int offset, final long sentEpochNanos)
    {
        final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
        if (sequence <= lastDelivered)
        {
            if (sequence <= snapshotSequence)
            {
                counters.snapshotSkipped++;
            }
            else
            {
                counters.duplicates++;
            }
            return;
        }
        lastDelivered = sequence;
        if (sequence <= floors.to() &&
            floors.covers(buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF, sequence))
        {
            counters.snapshotSkipped++; // its instrument's part was taken after it
            return;
        }
        counters.delivered++;
        if (buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET) == SESSION_EVENT)
        {
            symbols.clear(); // a new session reuses stock locates
        }
        if ((buffer.getShort(offset + TickLayout.FLAGS_OFFSET, LE) & TickLayout.REPLAYED_FLAG) != 0)
        {
            counters.recoveredDelivered++;
        }
        else if (recordLatency && sentEpochNanos > 0)
        {
            latency.recordValue(Math.min(HIGHEST_LATENCY_NANOS, Math.max(0, receiptEpochNanos - sentEpochNanos)));
        }
        if (null != handler)
        {
            handler.onTick(buffer, offset);
        }
    }

    /**
     * Delivers a run of live ticks copied from the shared log, at {@code buffer} offsets 0, 64, ..., while their
     * sequences are {@code first}, {@code first + 1}, ...: what {@link #deliverFromStream} does for each, with the
     * checks that hold for the whole run (subscribed to everything, nothing of it delivered yet) made once. The
     * delivered counter is added to once per run, and latencies that fall in one histogram bucket (a packet's ticks,
     * or ticks received within the bucket's width) are recorded together, which leaves the histogram as recording
     * each would. Counters and histogram are up to date when it returns.
     *
     * @return ticks delivered from the start of the run; the rest, from the first tick out of sequence, is the
     *         caller's to deliver one by one.
     */
    int deliverLogRun(final DirectBuffer buffer, final int count, final long first)
    {
        if (!granted.allTakesEverything() || first <= lastDelivered || first <= floors.to())
        {
            return 0; // one by one: some may be covered by the last snapshot's parts
        }
        final TickHandler handler = this.handler;
        final boolean timed = recordLatency;
        final long receipt = receiptEpochNanos;
        long bucketLow = 1;
        long bucketHigh = 0;
        long inBucket = 0;
        int delivered = 0;
        for (int offset = 0; delivered < count; delivered++, offset += TickLayout.LENGTH)
        {
            final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
            if (sequence != first + delivered)
            {
                break;
            }
            lastDelivered = sequence;
            final byte eventType = buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET);
            if (eventType == INSTRUMENT_EVENT)
            {
                onInstrumentTick(buffer, offset);
            }
            else if (eventType == SESSION_EVENT)
            {
                symbols.clear();
            }
            final long receive = buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET, LE);
            if ((buffer.getShort(offset + TickLayout.FLAGS_OFFSET, LE) & TickLayout.REPLAYED_FLAG) != 0)
            {
                counters.recoveredDelivered++;
            }
            else if (timed && receive > 0)
            {
                final long nanos = Math.min(HIGHEST_LATENCY_NANOS, Math.max(0, receipt - receive));
                if (nanos < bucketLow || nanos > bucketHigh)
                {
                    recordLatency(bucketLow, inBucket);
                    bucketLow = latency.lowestEquivalentValue(nanos);
                    bucketHigh = latency.highestEquivalentValue(nanos);
                    inBucket = 0;
                }
                inBucket++;
            }
            if (null != handler)
            {
                handler.onTick(buffer, offset);
            }
        }
        recordLatency(bucketLow, inBucket);
        counters.delivered += delivered;
        return delivered;
    }

    /**
     * An INSTRUMENT tick read from the ring or the stream, whether the subscriptions take it or not: it resolves
     * subscriptions by symbol, and names its instrument's symbol unless it was delivered already (a duplicate may
     * come from before a SESSION tick that made its symbol stale).
     */
    private void onInstrumentRead(final DirectBuffer buffer, final int offset, final int instrument)
    {
        final long symbol = buffer.getLong(offset + TickLayout.ORDER_REFERENCE_OFFSET, LE);
        granted.onInstrument(symbol, instrument);
        if (buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE) > lastDelivered)
        {
            symbols.put(instrument, symbol);
        }
    }

    private void onInstrumentTick(final DirectBuffer buffer, final int offset)
    {
        final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
        final long symbol = buffer.getLong(offset + TickLayout.ORDER_REFERENCE_OFFSET, LE);
        granted.onInstrument(symbol, instrument);
        symbols.put(instrument, symbol);
    }

    /** Records {@code count} latencies of the bucket starting at {@code bucketLow} (none when 0). */
    private void recordLatency(final long bucketLow, final long count)
    {
        if (count > 0)
        {
            latency.recordValueWithCount(bucketLow, count);
        }
    }

    /**
     * Asks for a snapshot of every subscribed instrument: the current state of each, as its view defines it, each
     * instrument's part at its own gateway sequence S(i), between the snapshot's from and to. From the next
     * {@link #poll} the handler gets the snapshot's ticks first (flag {@code snapshot}, sequence S(i): an
     * {@code INSTRUMENT} and {@code TRADING_STATUS} tick, then by view the live orders as {@code ADD} ticks, the top
     * D levels as {@code LEVEL} ticks, and the top of book as one {@code TOP_OF_BOOK} tick per side; docs/EGRESS.md
     * "Snapshots"), then live ticks after from, each instrument's only after its S(i): ticks covered by the snapshot
     * that arrive afterwards, from the ring, the stream, the shared log or a recovery, are dropped and counted
     * ({@link ConsumerCounters#snapshotSkipped()}), and {@link #lastDeliveredSequence()} continues from from
     * ({@link #snapshotSequence()}; {@link #snapshotSequence(int)} gives S(i)). Subscribe first: the request follows
     * the subscriptions sent before it. While the snapshot comes, live ticks wait where they are (a ring or log that
     * laps meanwhile is recovered as any lap is). A snapshot cut by a lost connection is asked for again after
     * reconnecting, so the application may see a partial snapshot followed by a whole one; one the publisher
     * refuses (an instrument too large, see {@link ConsumerCounters#snapshotsRefused()}) leaves live delivery as it
     * was. A publisher that builds every snapshot at one sequence (an older one, which refuses the per-instrument
     * request) is asked again the older way, and its one S is every instrument's S(i). A request while a snapshot
     * is still coming is ignored; one while the directory comes is sent after it.
     */
    public void requestSnapshot()
    {
        if (snapshotPending)
        {
            return;
        }
        if (state == CONNECTED && !directoryPending)
        {
            beginSnapshot();
        }
        else
        {
            snapshotDue = true;
        }
    }

    private void beginSnapshot()
    {
        if (stream.recovering())
        {
            stream.abandonRecovery();
            staleRecoveryEnds++;
        }
        snapshotPending = true;
        counters.snapshotsRequested++;
        snapshotTicksAtRequest = counters.snapshotTicks;
        floors.clear();
        snapshotRequest.wrapForEncode(scratch, 0, SNAPSHOT);
        snapshotRequest.flags(snapshotFlags).instrumentCount(0); // every subscribed instrument
        send(snapshotRequest, SnapshotRequestFlyweight.length(0));
    }

    /**
     * Asks for the directory of every instrument the publisher's session named (flags PER_INSTRUMENT and DIRECTORY,
     * no list): its INSTRUMENT ticks only name symbols, so nothing else of the delivery changes.
     */
    private void beginDirectory()
    {
        directoryPending = true;
        directoryAbandoned = false;
        directoryAskedNanos = nowNanos;
        snapshotRequest.wrapForEncode(scratch, 0, SNAPSHOT);
        snapshotRequest.flags(PER_INSTRUMENT | DIRECTORY).instrumentCount(0);
        send(snapshotRequest, SnapshotRequestFlyweight.length(0));
    }

    /**
     * A publisher that predates snapshots altogether passes the request over as an unknown message: after the
     * heartbeat timeout without an answer, live delivery goes on without the directory.
     */
    private void abandonDirectory()
    {
        directoryPending = false;
        directoryAbandoned = true;
        counters.directoriesRefused++;
        log.log("consumer '" + context.name() + "': the publisher did not answer the directory request within " +
            TimeUnit.NANOSECONDS.toMillis(heartbeatTimeoutNanos) + " ms; live ticks continue, symbols of " +
            "instruments named before this consumer joined stay unknown");
    }

    private void onDirectoryData(final DirectBuffer buffer, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            final int at = data.tickOffset(i);
            if (buffer.getByte(at + TickLayout.EVENT_TYPE_OFFSET) == INSTRUMENT_EVENT)
            {
                counters.directoryTicks++;
                symbols.put(buffer.getShort(at + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF,
                    buffer.getLong(at + TickLayout.ORDER_REFERENCE_OFFSET, LE));
            }
        }
    }

    /**
     * The directory's end: live delivery goes on from where it was. Any other answer (an older publisher refuses the
     * flag as malformed, SNAPSHOT_END without DIRECTORY) leaves the symbols of instruments named before this
     * consumer joined unknown.
     */
    private void onDirectoryEnd(final SequenceRangeFlyweight message)
    {
        directoryPending = false;
        if (message.status() == RECOVERY_COMPLETE && (message.flags() & DIRECTORY) != 0)
        {
            counters.directories++;
            return;
        }
        counters.directoriesRefused++;
        log.log("consumer '" + context.name() + "': the publisher sent no instrument directory (one that predates " +
            "it refuses the request); live ticks continue, symbols of instruments named before this consumer " +
            "joined stay unknown");
    }

    private void onSnapshotData(final DirectBuffer buffer, final int offset, final int length)
    {
        data.wrap(buffer, offset);
        final int count = data.tickCount();
        if (directoryPending && count >= 0 && RecoveryDataFlyweight.TICKS_OFFSET + count * TickLayout.LENGTH <= length)
        {
            onDirectoryData(buffer, count);
            return;
        }
        if (directoryAbandoned && !snapshotPending)
        {
            return; // the late answer of a directory given up
        }
        if (!snapshotPending || count < 0 || RecoveryDataFlyweight.TICKS_OFFSET + count * TickLayout.LENGTH > length)
        {
            counters.malformed++;
            return;
        }
        for (int i = 0; i < count; i++)
        {
            final int at = data.tickOffset(i);
            if (buffer.getByte(at + TickLayout.EVENT_TYPE_OFFSET) == INSTRUMENT_EVENT)
            {
                onInstrumentTick(buffer, at);
            }
            counters.snapshotTicks++;
            final int instrument = buffer.getShort(at + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
            if (instrument > 0)
            {
                floors.onSnapshotTick(instrument, buffer.getLong(at + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE));
            }
            if (null != handler)
            {
                handler.onTick(buffer, at);
            }
        }
    }

    private void onSnapshotEnd(final SequenceRangeFlyweight message)
    {
        if (directoryPending)
        {
            onDirectoryEnd(message);
            return;
        }
        if (directoryAbandoned && !snapshotPending)
        {
            directoryAbandoned = false; // the late end of a directory given up
            return;
        }
        if (!snapshotPending)
        {
            counters.malformed++;
            return;
        }
        snapshotPending = false;
        if (message.status() != RECOVERY_COMPLETE && snapshotFlags != 0 && counters.snapshotTicks == snapshotTicksAtRequest &&
            message.flags() == 0 && state == CONNECTED)
        {
            snapshotFlags = 0; // an older publisher, which takes every instrument at one sequence: ask it that way
            beginSnapshot();
            return;
        }
        if (message.status() != RECOVERY_COMPLETE)
        {
            floors.onEnd(lastDelivered, message.to()); // parts that came before the refusal hold: no tick twice
            counters.snapshotsRefused++;
            log.log("consumer '" + context.name() + "': the publisher refused the snapshot (too large for its " +
                "buffer, or a malformed request); live ticks continue");
            return;
        }
        final long sequence = message.from();
        counters.snapshots++;
        if ((message.flags() & ORDERS_OMITTED) != 0)
        {
            log.log("consumer '" + context.name() + "': the publisher keeps no order books, so the snapshot at " +
                sequence + " has no orders");
        }
        snapshotSequence = Math.max(snapshotSequence, sequence);
        floors.onEnd(sequence, message.to());
        lastDelivered = Math.max(lastDelivered, sequence);
        stream.skipTo(sequence);
    }

    void requestResync()
    {
        counters.gaps++;
        counters.recoveriesRequested++;
        sendRange(RESYNC, lastDelivered + 1, 0, 0);
    }

    void requestRecovery(final long from, final long to)
    {
        counters.recoveriesRequested++;
        sendRange(RECOVER, from, to, FILTERED);
    }

    private void sendRange(final short type, final long from, final long to, final int flags)
    {
        range.wrapForEncode(scratch, 0, type);
        range.from(from).to(to).flags(flags);
        send(range, SequenceRangeFlyweight.LENGTH);
    }

    /** Subscribes to an instrument by symbol (e.g. {@code AAPL}) with view ALL; the answer arrives during poll. */
    public void subscribe(final String symbol)
    {
        subscribe(symbol, SubscriptionView.ALL);
    }

    /**
     * Subscribes to an instrument by symbol with a view: only the ticks the view takes are delivered. Subscribing
     * again changes the view. The answer arrives during {@link #poll}.
     */
    public void subscribe(final String symbol, final SubscriptionView view)
    {
        final long packed = Alpha.pack8(symbol.trim().toUpperCase());
        wantedSymbols.put(packed, view);
        granted.wantSymbol(packed, view.mask());
        sendSubscription(SUBSCRIBE, BY_SYMBOL, packed, 0, view);
    }

    /** Subscribes to an instrument by its id (ITCH stock locate, 1..65535) with view ALL. */
    public void subscribe(final int instrumentId)
    {
        subscribe(instrumentId, SubscriptionView.ALL);
    }

    /**
     * Subscribes to an instrument by its id with a view: only the ticks the view takes are delivered, at once from
     * the stream and the shared log, and from the ring once the publisher has the request (ticks already in the
     * ring that the view does not take are dropped). Subscribing again changes the view.
     */
    public void subscribe(final int instrumentId, final SubscriptionView view)
    {
        if (instrumentId < 1 || instrumentId > TickLayout.MAX_INSTRUMENT_ID)
        {
            throw new IllegalArgumentException("instrument ids are 1..65535, was " + instrumentId);
        }
        wantedInstruments.put(instrumentId, view);
        granted.add(instrumentId, view.mask());
        sendSubscription(SUBSCRIBE, instrumentId, 0, 0, view);
    }

    /**
     * Subscribes to every instrument. On the ring path, when the publisher has a shared tick log this consumer can
     * map (shm), the consumer moves to it: its ring is read up to the position the publisher's answer names, then
     * ticks come from the log, which the publisher writes once for all such consumers. The move is transparent:
     * same order, no duplicates, gaps recovered. There is no way back short of reconnecting (the subscription to
     * every instrument is never narrowed by this SDK).
     */
    public void subscribeAll()
    {
        subscribeAll(SubscriptionView.ALL);
    }

    /**
     * Subscribes to every instrument with a view, as {@link #subscribeAll()} does. Through the shared log every
     * consumer reads every tick, so this SDK drops those its views do not take before the handler sees them. An
     * instrument subscribed on its own keeps its own view as well (a tick passes if either view takes it).
     */
    public void subscribeAll(final SubscriptionView view)
    {
        wantAll = true;
        allView = view;
        granted.all(true, view.mask());
        if (state == CONNECTED && context.path() == DeliveryPath.RING)
        {
            openLog();
        }
        sendSubscriptionToAll();
    }

    private void sendSubscriptionToAll()
    {
        sendSubscription(SUBSCRIBE, ALL_INSTRUMENTS, 0, logFollower.isOpen() ? SHARED_LOG : 0, allView);
    }

    public void unsubscribe(final String symbol)
    {
        final long packed = Alpha.pack8(symbol.trim().toUpperCase());
        wantedSymbols.remove(packed);
        granted.unwantSymbol(packed);
        sendSubscription(UNSUBSCRIBE, BY_SYMBOL, packed, 0, SubscriptionView.ALL);
    }

    public void unsubscribe(final int instrumentId)
    {
        wantedInstruments.remove(instrumentId);
        granted.remove(instrumentId);
        sendSubscription(UNSUBSCRIBE, instrumentId, 0, 0, SubscriptionView.ALL);
    }

    private void sendSubscription(final short type, final int instrument, final long symbol, final int flags,
        final SubscriptionView view)
    {
        if (state != CONNECTED)
        {
            return;
        }
        granted.requested();
        subscription.wrapForEncode(scratch, 0, type);
        subscription.instrumentId(instrument).symbol(symbol).tableSlot(-1).flags(flags).view(view.code());
        send(subscription, SubscriptionFlyweight.VIEW_LENGTH);
    }

    private void send(final ControlFlyweight message, final int length)
    {
        final int result = channel.offer(message.buffer(), message.offset(), length);
        if (result != TransportResult.OK && state != DISCONNECTED)
        {
            disconnect("control send failed: " + TransportResult.describe(result));
        }
    }

    /**
     * @return the symbol of an instrument, packed as {@code Alpha.pack8}, as the publisher's answers and the
     *         {@code INSTRUMENT} ticks named it (every one this consumer read, live, recovered or in a snapshot, also
     *         those its subscriptions did not take, such as one that came just before its subscription was answered);
     *         0 when unknown. A delivered {@code SESSION} tick forgets every symbol: a new session reuses locates.
     *         With {@link ConsumerContext#directoryOnConnect(boolean)} the publisher's directory names, before the
     *         first live tick, the instruments its session named before this consumer joined.
     */
    public long symbolOf(final int instrumentId)
    {
        return symbols.get(instrumentId);
    }

    /** @return subscription requests not answered yet (0 once the publisher answered them all). */
    public int subscriptionsAwaitingAnswer()
    {
        return granted.awaitingAnswers();
    }

    /**
     * Reads an instrument's top of book from the table (seqlock: never a half-written quote) into a private copy and
     * points {@code view} at it; the copy stays valid until the next call.
     *
     * @return {@link TopOfBookReader#READ}, {@link TopOfBookReader#EMPTY}, {@link TopOfBookReader#BUSY}, or -2 when
     *         the instrument has no table slot (not subscribed, table full, or not connected).
     */
    public int topOfBook(final int instrumentId, final TopOfBookFlyweight view)
    {
        final int slot = granted.tableSlot(instrumentId);
        if (slot < 0 || state != CONNECTED || slot >= context.tableSlots())
        {
            return -2;
        }
        final int result = tableReader.read(region.buffer(),
            ConsumerRegionDescriptor.tableSlotOffset(context.ringSlots(), slot), tableCopy, 0);
        view.wrap(tableCopy, 0);
        return result;
    }

    /**
     * Reads an instrument's depth from the depth table (seqlock: never a half-written book) into a private copy and
     * points {@code view} at it as a book of {@link #depthLevels()} levels per side; the copy stays valid until the
     * next call. The publisher writes the table from its LEVEL ticks for instruments subscribed with a view that
     * takes them ({@link SubscriptionView#DEPTH} or {@link SubscriptionView#ALL}) and given a table slot.
     *
     * @return {@link TopOfBookReader#READ}, {@link TopOfBookReader#EMPTY} (never written), {@link TopOfBookReader#BUSY},
     *         or -2 when the instrument has no table slot or there is no depth table (not connected, this consumer's
     *         {@link ConsumerContext#depthLevels()} or the publisher's depth is 0).
     */
    public int depth(final int instrumentId, final DepthBook view)
    {
        final int slot = granted.tableSlot(instrumentId);
        if (slot < 0 || state != CONNECTED || slot >= context.tableSlots() || depthLevels == 0)
        {
            return -2;
        }
        final int length = DepthTableDescriptor.slotLength(context.depthLevels());
        final int result = tableReader.read(region.buffer(), ConsumerRegionDescriptor.depthSlotOffset(
            context.ringSlots(), context.tableSlots(), context.depthLevels(), slot), length, depthCopy, 0);
        view.wrap(depthCopy, DepthTableDescriptor.BOOK_OFFSET, depthLevels);
        return result;
    }

    /**
     * @return levels per side of {@link #depth(int, DepthBook)}: the lesser of this consumer's and the publisher's
     *         depth, 0 when either keeps none or before connecting.
     */
    public int depthLevels()
    {
        return depthLevels;
    }

    /** @return gateway sequence of the last change of the depth read by the last {@link #depth} call. */
    public long depthSequence()
    {
        return depthCopy.getLong(DepthTableDescriptor.GATEWAY_SEQUENCE_OFFSET);
    }

    /** @return bytes of one table record ({@link TopOfBookDescriptor#LENGTH}). */
    public static int topOfBookLength()
    {
        return TopOfBookDescriptor.LENGTH;
    }

    /**
     * Says why reconnecting fails: the first failure after a disconnect, a failure for another reason than the last
     * one said, and then at most every {@link #RECONNECT_LOG_INTERVAL_NANOS}, with the attempts since.
     */
    private void reconnectFailed(final TransportException ex)
    {
        counters.reconnectFailures++;
        final String reason = String.valueOf(ex.getMessage());
        if (!reason.equals(lastReconnectFailure) || nowNanos - lastReconnectLogNanos >= RECONNECT_LOG_INTERVAL_NANOS)
        {
            log.log("consumer '" + context.name() + "' could not reconnect (" +
                (counters.reconnectFailures - reconnectFailuresLogged) + " attempt(s) since the last report): " +
                reason);
            lastReconnectFailure = reason;
            lastReconnectLogNanos = nowNanos;
            reconnectFailuresLogged = counters.reconnectFailures;
        }
    }

    private void disconnect(final String reason)
    {
        if (state == CONNECTED || state == AWAITING_WELCOME)
        {
            counters.disconnects++;
            lastReconnectFailure = null;
            log.log("consumer '" + context.name() + "' lost its connection: " + reason +
                (context.reconnect() ? "; reconnecting" : ""));
        }
        releaseConnection();
        state = context.reconnect() ? DISCONNECTED : CLOSED;
        stateSinceNanos = nowNanos;
        reconnectDelayNanos = context.reconnectIntervalNanos();
    }

    private void releaseConnection()
    {
        ring.detach();
        logFollower.close();
        logSwitchPending = false;
        stream.abandonRecovery();
        if (null != subscriptionChannel)
        {
            subscriptionChannel.close();
            subscriptionChannel = null;
        }
        if (null != positions)
        {
            positions.close();
            positions = null;
        }
        if (null != channel)
        {
            channel.close();
            channel = null;
        }
        if (null != region)
        {
            region.close();
            region = null;
        }
    }

    /** @return whether the consumer is connected and authenticated. */
    public boolean isConnected()
    {
        return state == CONNECTED;
    }

    /** @return whether the publisher refused this consumer (it will not reconnect). */
    public boolean isRejected()
    {
        return state == REJECTED;
    }

    /** @return the highest gateway sequence delivered so far (0 before the first). */
    public long lastDeliveredSequence()
    {
        return lastDelivered;
    }

    /** @return whether ticks come from the publisher's shared log (subscribed to every instrument, shm). */
    public boolean readsSharedLog()
    {
        return logFollower.following();
    }

    /** @return whether the directory was asked for, or is due, and has not ended yet (live ticks wait meanwhile). */
    public boolean isDirectoryPending()
    {
        return directoryPending || directoryDue;
    }

    /** @return whether a snapshot was asked for and has not ended yet (live ticks wait meanwhile). */
    public boolean isSnapshotPending()
    {
        return snapshotPending || snapshotDue;
    }

    /**
     * @return the sequence live delivery continued after at the last snapshot (its SNAPSHOT_END's from: every
     *         instrument's part is at or after it), 0 before the first.
     */
    public long snapshotSequence()
    {
        return snapshotSequence;
    }

    /** @return the highest part sequence of the last snapshot (its SNAPSHOT_END's to), 0 before the first. */
    public long snapshotEndSequence()
    {
        return floors.to();
    }

    /**
     * @return the sequence of the instrument's part in the last snapshot, S(i): its live ticks are delivered after it
     *         only; 0 when the snapshot had no tick of it (then its live ticks after {@link #snapshotSequence()} are
     *         delivered).
     */
    public long snapshotSequence(final int instrument)
    {
        return instrument < 0 || instrument > TickLayout.MAX_INSTRUMENT_ID ? 0 : floors.floor(instrument);
    }

    /** @return whether a lapped ring or a stream gap is being recovered. */
    public boolean isRecovering()
    {
        return stream.recovering() || ring.resyncPending();
    }

    public ConsumerCounters counters()
    {
        return counters;
    }

    /** @return per-tick latency in ns (see the class description); reset it to start a new interval. */
    public Histogram latency()
    {
        return latency;
    }

    public ConsumerContext context()
    {
        return context;
    }

    /** Says goodbye and releases the connection and the region. Idempotent. */
    @Override
    public void close()
    {
        if (state == CONNECTED)
        {
            final ControlFlyweight bye = range.wrapForEncode(scratch, 0, BYE);
            channel.offer(bye.buffer(), 0, 8);
        }
        releaseConnection();
        state = CLOSED;
    }
}
