package io.mdgate.egress.publisher;

import io.mdgate.core.counters.PrivateCounters;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import io.mdgate.egress.TickSource;
import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.SharedLogDescriptor;
import io.mdgate.egress.protocol.SharedLogWriter;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.SharedLog;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The egress publisher: an Agrona {@link Agent} that fans every live tick out to the consumers in the rack.
 * <ul>
 *   <li>the multicast stream: every tick, batched into datagrams up to the MTU within a small time budget, with
 *       heartbeats when idle;</li>
 *   <li>the shared tick log ({@link SharedLogDescriptor}), on transports that have one (shm): every tick written
 *       once, read directly by every consumer subscribed to all instruments, however many there are;</li>
 *   <li>per consumer, by one-sided writes into its registered region: a ring of its filtered ticks (not for a
 *       consumer reading the shared log) and a top-of-book table of its instruments;</li>
 *   <li>per consumer, over its control channel: authentication, subscriptions, heartbeats, and recovery from the
 *       {@link io.mdgate.egress.RecoverySource}, rate-limited after the live work of each duty cycle.</li>
 * </ul>
 * Live ticks arrive through {@link #onTick} (called on this agent's thread, e.g. by the normalizer sharing the
 * thread) or from the context's {@link TickSource} polled in {@link #doWork()}. Everything is registered at
 * construction from pools sized by the {@link PublisherContext}; the tick path and the duty cycle's steady state
 * never allocate and never block. A consumer that falls behind is stopped and told, never waited for.
 * <p>
 * Threading: construct on any thread, then {@link #onTick} and {@link #doWork()} on one thread only (the agent's).
 * {@link #counters()} ({@link PublisherCounterDescriptor}, allocated from {@link PublisherContext#counters()}) may be
 * read from any thread.
 */
public final class EgressPublisher implements Agent, TickHandler, AutoCloseable
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int MESSAGE_REGION_LENGTH = 65536;
    private static final byte LEVEL = (byte)EventType.LEVEL.value();
    private static final byte SESSION = (byte)EventType.SESSION.value();
    private static final short LAST_IN_MESSAGE = TickFlagsEncoder.lastInMessage((short)0, true);
    private static final int NO_DEPTH_PENDING = -1;

    private final PublisherContext context;
    private final NanoClock nanoClock;
    private final TickSource tickSource;
    private final int inputLimit;
    private final long controlPollNanos;
    private final long publisherEpoch;
    private final PublisherCounters counters;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final MulticastPublication publication;
    private final StreamBatcher batcher;
    private final SharedLogWriter logWriter;
    private final InstrumentRecords records;
    private final DepthRecords depth;
    private final ConsumerSession[] sessions;
    private final ConsumerSession[] active;
    private final ControlServer server;
    private final SessionControl control;
    private final SessionRecovery recovery;
    private final RecoveryBudget budget;
    private final SnapshotBuilder snapshots;
    private final SnapshotSender snapshotSender;
    private int activeCount;
    /** Instrument whose depth changed and is not written into the tables yet: written at its message's end. */
    private int depthPending = NO_DEPTH_PENDING;
    private int logReaders;
    private int recoveryCursor;
    private long lastSequence;
    /** The last tick published ended its ITCH message (or none was published yet): state is whole here. */
    private boolean atMessageBoundary = true;
    private long nowNanos;
    private long lastControlPollNanos;
    private boolean closed;

    /**
     * Registers every buffer, opens the multicast stream and starts listening for consumers.
     *
     * @param context settings; concluded here.
     */
    public EgressPublisher(final PublisherContext context)
    {
        this.context = context.conclude();
        this.nanoClock = context.nanoClock();
        this.tickSource = context.tickSource();
        this.inputLimit = context.inputLimit();
        this.controlPollNanos = context.controlPollNanos();
        this.publisherEpoch = context.epochClock().nanoTime();
        this.lastSequence = context.firstSequence() - 1;
        this.nowNanos = nanoClock.nanoTime();
        this.counters = new PublisherCounters(null != context.counters() ?
            context.counters() : new PrivateCounters(PublisherCounterDescriptor.values().length));
        counters.lastSequence.setRelease(lastSequence);
        final EgressTransport transport = context.transport();
        try
        {
            records = new InstrumentRecords(
                register(InstrumentRecords.regionLength(context.maxInstruments()), RegionAccess.LOCAL),
                context.maxInstruments());
            depth = context.depthLevels() == 0 ? null : new DepthRecords(
                register(DepthRecords.regionLength(context.maxInstruments(), context.depthLevels()), RegionAccess.LOCAL),
                context.maxInstruments(), context.depthLevels());
            publication = track(transport.addPublication(context.streamId()));
            batcher = new StreamBatcher(publication,
                register(StreamBatcher.regionLength(transport.mtu()), RegionAccess.LOCAL), context.epochClock(),
                publisherEpoch, context.batchBudgetNanos(), context.streamHeartbeatNanos(), context.firstSequence(),
                counters.datagrams, counters.heartbeats);
            logWriter = openSharedLog(transport);
            sessions = new ConsumerSession[context.sessions()];
            active = new ConsumerSession[context.sessions()];
            for (int i = 0; i < sessions.length; i++)
            {
                sessions[i] = new ConsumerSession(i,
                    register(ConsumerRegionDescriptor.ringLength(context.maxRingSlots()), RegionAccess.LOCAL),
                    register(PositionRegionDescriptor.LENGTH, RegionAccess.REMOTE_WRITE),
                    register(MESSAGE_REGION_LENGTH, RegionAccess.LOCAL),
                    context.maxInstruments(), context.maxTableSlots(), context.ringFlushSlots(), counters);
            }
            snapshots = new SnapshotBuilder(records, depth,
                context.orderSnapshots() ? new OrderMirror(context.snapshotBooks()) : null, context.maxInstruments(),
                context.snapshotTicks());
            snapshotSender = new SnapshotSender(this, snapshots, sessions, MESSAGE_REGION_LENGTH, context.eventLog());
            recovery = new SessionRecovery(this, context.recoverySource(), context.recoveryStallNanos());
            budget = new RecoveryBudget(context.recoveryTicksPerSecond(), context.recoveryTicksPerCycle(), nowNanos);
            server = track(transport.bindControl());
            server.reserve(sessions.length);
            counters.screenedBy(server);
            control = new SessionControl(this, context, server, sessions, records);
        }
        catch (final RuntimeException ex)
        {
            closeResources();
            throw ex;
        }
    }

    private SharedLogWriter openSharedLog(final EgressTransport transport)
    {
        final int slots = context.sharedLogSlots();
        if (slots == 0)
        {
            return null;
        }
        final SharedLog log = transport.createSharedLog(context.streamId(), SharedLogDescriptor.length(slots));
        if (null == log)
        {
            return null;
        }
        track(log);
        return new SharedLogWriter(log.buffer(), slots, context.streamId(), publisherEpoch);
    }

    private MemoryRegion register(final int length, final RegionAccess access)
    {
        return track(context.transport().registerRegion(length, access));
    }

    private <T extends AutoCloseable> T track(final T resource)
    {
        resources.add(resource);
        return resource;
    }

    @Override
    public String roleName()
    {
        return "egress-publisher";
    }

    /**
     * Publishes one live tick: into the pending datagram, the shared log (once, while a consumer reads it), the
     * top-of-book records, and the ring (and table) of every other consumer that takes it. Gateway sequences are
     * expected to follow one another; a jump is counted and starts a new datagram, and consumers recover the
     * missing ticks from the recovery source.
     */
    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
        if (sequence != lastSequence + 1)
        {
            counters.inputGaps.incrementRelease();
        }
        lastSequence = sequence;
        counters.lastSequence.setRelease(sequence);
        counters.ticksPublished.incrementRelease();
        batcher.append(buffer, offset, sequence, nowNanos);
        if (logReaders > 0)
        {
            logWriter.append(buffer, offset);
            counters.sharedLogTicks.incrementRelease();
        }
        final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
        final byte eventType = buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET);
        final boolean recordChanged = records.apply(buffer, offset, instrument, eventType);
        snapshots.onTick(buffer, offset, instrument, eventType);
        if (depthPending != NO_DEPTH_PENDING && instrument != depthPending)
        {
            flushDepth();
        }
        if (eventType == LEVEL && null != depth && depth.apply(buffer, offset, instrument))
        {
            depthPending = instrument;
        }
        final boolean depthCleared = eventType == SESSION && null != depth && depth.clearAll(buffer, offset) > 0;
        final ConsumerSession[] active = this.active;
        for (int i = 0, count = activeCount; i < count; i++)
        {
            final ConsumerSession session = active[i];
            if (recordChanged)
            {
                onRecordChanged(session, buffer, offset, instrument);
            }
            if (depthCleared)
            {
                rewriteDepth(session);
            }
            if (!session.onLiveTick(buffer, offset, instrument) && !session.closeRequested)
            {
                control.lapped(session);
            }
        }
        atMessageBoundary = (buffer.getShort(offset + TickLayout.FLAGS_OFFSET, LE) & LAST_IN_MESSAGE) != 0;
        if (depthPending != NO_DEPTH_PENDING && atMessageBoundary)
        {
            flushDepth();
        }
    }

    /**
     * Takes a tick of the state the gateway restarts from into the publisher's records without publishing it: the
     * instrument records behind the top-of-book tables, the depth records ({@code LEVEL} ticks; a {@code SESSION}
     * tick empties them) and, with order snapshots on, the order mirror. A restarted gateway hands over its session's
     * journaled ticks this way before the egress runs, so the tables and snapshots a consumer gets after the restart
     * hold the instruments that did not trade since; consumers still recover the ticks themselves from the journal.
     * Nothing is sent and no consumer is touched. Not for live ticks: the egress agent's thread, before it starts.
     */
    public void restoreTick(final DirectBuffer buffer, final int offset)
    {
        final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
        final byte eventType = buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET);
        records.apply(buffer, offset, instrument, eventType);
        snapshots.onTick(buffer, offset, instrument, eventType);
        if (null != depth)
        {
            if (eventType == LEVEL)
            {
                depth.apply(buffer, offset, instrument);
            }
            else if (eventType == SESSION)
            {
                depth.clearAll(buffer, offset);
            }
        }
    }

    /**
     * Writes the pending instrument's depth into the table of every consumer that takes it: once per ITCH message
     * (at its last tick), or sooner when a tick of another instrument or the end of the duty cycle comes first.
     */
    private void flushDepth()
    {
        final int instrument = depthPending;
        depthPending = NO_DEPTH_PENDING;
        for (int i = 0, count = activeCount; i < count; i++)
        {
            onDepthChanged(active[i], instrument);
        }
    }

    private void onRecordChanged(final ConsumerSession session, final DirectBuffer buffer, final int offset,
        final int instrument)
    {
        final int slot = session.subscriptions.tableSlot(instrument);
        if (slot != Subscriptions.NO_SLOT)
        {
            writeTable(session, slot, instrument);
        }
        if (session.subscriptions.pendingSymbols() > 0)
        {
            control.onSymbol(session, buffer.getLong(offset + TickLayout.ORDER_REFERENCE_OFFSET, LE), instrument);
        }
    }

    private void onDepthChanged(final ConsumerSession session, final int instrument)
    {
        final int slot = session.subscriptions.tableSlot(instrument);
        if (slot != Subscriptions.NO_SLOT)
        {
            writeDepth(session, slot, instrument);
        }
    }

    /** Writes every depth slot of the session (after the books were emptied at a new session). */
    private void rewriteDepth(final ConsumerSession session)
    {
        if (session.depthTable.levels() == 0)
        {
            return;
        }
        for (int slot = 0, slots = session.subscriptions.tableSlots(); slot < slots; slot++)
        {
            final int instrument = session.subscriptions.instrumentOfSlot(slot);
            if (instrument != Subscriptions.NO_SLOT)
            {
                writeDepth(session, slot, instrument);
            }
        }
    }

    /** Writes the instrument's depth into its slot of the session's depth table, if it has one and takes levels. */
    void writeDepth(final ConsumerSession session, final int slot, final int instrument)
    {
        if (null == depth || session.depthTable.levels() == 0 || !session.subscriptions.takesLevels(instrument))
        {
            return;
        }
        if (session.depthTable.write(slot, depth.region(), depth.recordOffset(instrument)) == TransportResult.OK)
        {
            counters.depthWrites.incrementRelease();
        }
        else
        {
            counters.ringWriteFailures.incrementRelease();
        }
    }

    void writeTable(final ConsumerSession session, final int slot, final int instrument)
    {
        if (session.table.write(slot, records.region(), records.recordOffset(instrument)) == TransportResult.OK)
        {
            counters.tableWrites.incrementRelease();
        }
        else
        {
            counters.ringWriteFailures.incrementRelease();
        }
    }

    /**
     * One duty cycle: take live ticks from the tick source, send the pending datagram when its budget is spent,
     * write every staged ring slot, serve the control channels at their interval, then recover within the budget.
     *
     * @return work done (0 when idle).
     */
    @Override
    public int doWork()
    {
        final long now = nanoClock.nanoTime();
        nowNanos = now;
        int work = 0;
        if (null != tickSource)
        {
            work += tickSource.poll(this, inputLimit);
        }
        work += batcher.doWork(now);
        if (depthPending != NO_DEPTH_PENDING)
        {
            flushDepth();
        }
        for (int i = 0, count = activeCount; i < count; i++)
        {
            active[i].flushRing();
        }
        if (now - lastControlPollNanos >= controlPollNanos)
        {
            lastControlPollNanos = now;
            work += control.poll(now);
        }
        work += snapshotSender.doWork(now);
        work += recover(now);
        return work;
    }

    private int recover(final long now)
    {
        final int count = activeCount;
        if (count == 0)
        {
            return 0;
        }
        final int allowed = budget.refill(now);
        int scanned = 0;
        for (int k = 0; k < count; k++)
        {
            final ConsumerSession session = active[(recoveryCursor + k) % count];
            if (session.ringState == ConsumerSession.RING_CATCHING_UP)
            {
                scanned += recovery.catchUp(session, allowed - scanned, now);
            }
            if (!session.controlRecovery.isEmpty() || session.controlRecovery.messagePending)
            {
                scanned += recovery.answer(session, allowed - scanned, now);
            }
        }
        recoveryCursor++;
        budget.spend(scanned);
        return scanned > 0 ? 1 : 0;
    }

    /** Sends the pending datagram now, whatever its budget (e.g. at the end of a replay). */
    public void flush()
    {
        batcher.flush(nowNanos);
        if (depthPending != NO_DEPTH_PENDING)
        {
            flushDepth();
        }
        for (int i = 0, count = activeCount; i < count; i++)
        {
            active[i].flushRing();
        }
    }

    void sessionsChanged()
    {
        int count = 0;
        for (final ConsumerSession session : sessions)
        {
            if (session.state == ConsumerSession.ACTIVE && !session.closeRequested)
            {
                active[count++] = session;
            }
        }
        int readers = 0;
        for (int i = 0; i < count; i++)
        {
            readers += active[i].readsLog ? 1 : 0;
        }
        logReaders = readers;
        for (int i = count; i < activeCount; i++)
        {
            active[i] = null;
        }
        activeCount = count;
        counters.consumers.setRelease(count);
    }

    /** @return whether consumers subscribed to every instrument can read the shared log. */
    boolean hasSharedLog()
    {
        return null != logWriter;
    }

    /** @return the shared log position the next tick takes. */
    long sharedLogPosition()
    {
        return logWriter.position();
    }

    int sharedLogSlots()
    {
        return null == logWriter ? 0 : logWriter.slots();
    }

    /** @return consumers reading the shared log instead of a ring. */
    public int sharedLogReaders()
    {
        return logReaders;
    }

    long lastSequence()
    {
        return lastSequence;
    }

    /** Answers a malformed or unservable SNAPSHOT request at once: SNAPSHOT_END status REFUSED. */
    void refuseSnapshot(final ConsumerSession session)
    {
        snapshotSender.refuse(session, lastSequence);
    }

    /** @return whether the last tick published ended its ITCH message (true before the first). */
    boolean atMessageBoundary()
    {
        return atMessageBoundary;
    }

    long publisherEpoch()
    {
        return publisherEpoch;
    }

    /** @return the counters (readable from any thread). */
    public PublisherCounters counters()
    {
        return counters;
    }

    /** @return consumers connected and authenticated. */
    public int activeConsumers()
    {
        return activeCount;
    }

    /**
     * Visits every connected, authenticated consumer with the sequence it reports delivered; the lag of a consumer
     * is {@link #lastPublishedSequence()} minus that. Publisher thread only; allocation-free.
     */
    public void forEachConsumer(final ConsumerVisitor visitor)
    {
        for (int i = 0, count = activeCount; i < count; i++)
        {
            visitor.onConsumer(active[i].name, active[i].deliveredSequence());
        }
    }

    /** @return the last gateway sequence published. */
    public long lastPublishedSequence()
    {
        return lastSequence;
    }

    public long datagramsSent()
    {
        return batcher.datagramsSent();
    }

    public long streamHeartbeatsSent()
    {
        return batcher.heartbeatsSent();
    }

    /** @return where consumers connect. */
    public String controlEndpoint()
    {
        return server.endpoint();
    }

    @Override
    public void onClose()
    {
        close();
    }

    /** Flushes, says goodbye to every consumer, and releases everything registered. Idempotent. */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            flush();
            control.closeAll();
            counters.consumers.setRelease(0);
            counters.screeningChanged();
            closeResources();
        }
    }

    private void closeResources()
    {
        for (int i = resources.size() - 1; i >= 0; i--)
        {
            try
            {
                resources.get(i).close();
            }
            catch (final Exception ignore)
            {
                // Best effort: one resource failing to close must not keep the others open.
            }
        }
        resources.clear();
    }
}
