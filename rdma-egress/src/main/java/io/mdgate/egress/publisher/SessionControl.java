package io.mdgate.egress.publisher;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.egress.EventLog;
import io.mdgate.egress.PeerText;
import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlFlyweight;
import io.mdgate.egress.protocol.HeartbeatFlyweight;
import io.mdgate.egress.protocol.HelloFlyweight;
import io.mdgate.egress.protocol.RejectFlyweight;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.SnapshotRequestFlyweight;
import io.mdgate.egress.protocol.SubscriptionFlyweight;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.WelcomeFlyweight;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlMessageHandler;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.security.MessageDigest;
import java.util.HashSet;
import java.util.Set;

import static io.mdgate.egress.protocol.ControlMessageDescriptor.*;

/**
 * The publisher's control plane: accepts connections, authenticates HELLO against the configured tokens (an
 * unknown name or a wrong token is refused, counted and logged once per name, for the first
 * {@value #MAX_LOGGED_REFUSALS} distinct ones), handles subscriptions, RESYNC and RECOVER, sends and checks
 * heartbeats, and ends sessions. Runs in the publisher's duty cycle at the control poll interval.
 * <p>
 * A connection waits for its HELLO outside the sessions, in a bounded list ({@code maxPendingConnections}; one more
 * closes the oldest, counted) and is closed, counted, if no valid HELLO came within {@code helloTimeoutNanos}. Only
 * an authenticated consumer takes a session: its own if it had one (the old connection is replaced), else a free
 * one, and there is one per configured consumer at least, so idle or unknown peers can never lock a configured
 * consumer out. At most {@value #ACCEPTS_PER_POLL} connections are taken in per poll, and each waiting one is read
 * once, so a flood of connections costs each duty cycle a bounded amount of work. Session set-up (mapping the
 * consumer's region, logging) may allocate, the steady state does not. Names and texts a peer sent are logged
 * through {@link PeerText}.
 * <p>
 * Threading: the publisher's thread.
 */
final class SessionControl implements ControlMessageHandler
{
    private static final int MESSAGES_PER_POLL = 16;
    static final int ACCEPTS_PER_POLL = 16;
    static final int MAX_LOGGED_REFUSALS = 16;

    private final EgressPublisher publisher;
    private final PublisherContext context;
    private final ControlServer server;
    private final ConsumerSession[] sessions;
    private final PublisherCounters counters;
    private final InstrumentRecords records;
    private final EventLog log;
    private final Set<String> loggedRefusals = new HashSet<>();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[512]);
    private final HelloFlyweight hello = new HelloFlyweight();
    private final WelcomeFlyweight welcome = new WelcomeFlyweight();
    private final RejectFlyweight reject = new RejectFlyweight();
    private final SubscriptionFlyweight subscription = new SubscriptionFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final SequenceRangeFlyweight range = new SequenceRangeFlyweight();
    private final SnapshotRequestFlyweight snapshotRequest = new SnapshotRequestFlyweight();
    private final ControlChannel[] pending;
    private final long[] pendingSinceNanos;
    private int pendingCount;
    private ConsumerSession current;
    private ControlChannel greeting;
    private boolean greeted;
    private boolean greetingRefused;
    private long nowNanos;

    SessionControl(final EgressPublisher publisher, final PublisherContext context, final ControlServer server,
        final ConsumerSession[] sessions, final InstrumentRecords records)
    {
        this.publisher = publisher;
        this.context = context;
        this.server = server;
        this.sessions = sessions;
        this.counters = publisher.counters();
        this.records = records;
        this.log = context.eventLog();
        this.pending = new ControlChannel[context.maxPendingConnections()];
        this.pendingSinceNanos = new long[context.maxPendingConnections()];
    }

    /** @return work done: connections accepted and messages handled. */
    int poll(final long nowNanos)
    {
        this.nowNanos = nowNanos;
        int work = acceptConnections(nowNanos);
        work += pollPending(nowNanos);
        for (final ConsumerSession session : sessions)
        {
            if (session.state == ConsumerSession.FREE)
            {
                continue;
            }
            current = session;
            final int result = session.channel.poll(this, MESSAGES_PER_POLL);
            current = null;
            if (result == TransportResult.NOT_CONNECTED)
            {
                counters.sessionsDisconnected.incrementRelease();
                session.requestClose("disconnected");
            }
            else if (result > 0)
            {
                session.lastReceivedNanos = nowNanos;
                work += result;
            }
            checkTimers(session, nowNanos);
            if (session.closeRequested)
            {
                close(session, session.closeReason);
            }
        }
        counters.screeningChanged();
        return work;
    }

    private int acceptConnections(final long nowNanos)
    {
        int accepted = 0;
        ControlChannel channel;
        while (accepted < ACCEPTS_PER_POLL && null != (channel = server.accept()))
        {
            counters.connectionsAccepted.incrementRelease();
            accepted++;
            if (pendingCount == pending.length)
            {
                counters.connectionsOverLimit++;
                pending[0].close();
                removePending(0);
            }
            pending[pendingCount] = channel;
            pendingSinceNanos[pendingCount] = nowNanos;
            pendingCount++;
        }
        return accepted;
    }

    /** Reads each connection awaiting its HELLO once; closes those that gave up or waited too long. */
    private int pollPending(final long nowNanos)
    {
        int work = 0;
        int i = 0;
        while (i < pendingCount)
        {
            final ControlChannel channel = pending[i];
            greeting = channel;
            greeted = false;
            greetingRefused = false;
            final int result = channel.poll(this, 1);
            greeting = null;
            if (greeted)
            {
                if (greetingRefused)
                {
                    channel.close();
                }
                work++;
                removePending(i);
            }
            else if (result == TransportResult.NOT_CONNECTED)
            {
                channel.close();
                removePending(i);
            }
            else if (nowNanos - pendingSinceNanos[i] > context.helloTimeoutNanos())
            {
                counters.helloTimeouts++;
                channel.close();
                removePending(i);
            }
            else
            {
                i++;
            }
        }
        return work;
    }

    private void removePending(final int index)
    {
        final int last = pendingCount - 1;
        System.arraycopy(pending, index + 1, pending, index, last - index);
        System.arraycopy(pendingSinceNanos, index + 1, pendingSinceNanos, index, last - index);
        pending[last] = null;
        pendingCount = last;
    }

    /** @return the session for an authenticated consumer: the one it had (replaced), else a free one. */
    private ConsumerSession sessionFor(final String name)
    {
        ConsumerSession free = null;
        for (final ConsumerSession session : sessions)
        {
            if (session.state == ConsumerSession.ACTIVE && name.equals(session.name))
            {
                close(session, "replaced by a new connection of the same consumer");
                return session;
            }
            if (null == free && session.state == ConsumerSession.FREE)
            {
                free = session;
            }
        }
        return free;
    }

    private void checkTimers(final ConsumerSession session, final long nowNanos)
    {
        if (nowNanos - session.lastReceivedNanos > context.heartbeatTimeoutNanos())
        {
            counters.sessionsTimedOut.incrementRelease();
            session.requestClose("heartbeat timeout");
        }
        else if (nowNanos - session.lastHeartbeatSentNanos >= context.heartbeatIntervalNanos())
        {
            session.lastHeartbeatSentNanos = nowNanos;
            heartbeat.wrapForEncode(scratch, 0, HEARTBEAT);
            heartbeat.timestamp(context.epochClock().nanoTime()).sequence(publisher.lastSequence());
            session.sendNotice(heartbeat, HeartbeatFlyweight.LENGTH);
        }
    }

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (null != greeting)
        {
            greeted = true;
            onFirstMessage(greeting, buffer, offset, length);
            return;
        }
        final ConsumerSession session = current;
        if (length < 8)
        {
            counters.malformedControlMessages.incrementRelease();
            return;
        }
        final short type = ControlFlyweight.typeOf(buffer, offset);
        if (session.state != ConsumerSession.ACTIVE)
        {
            return;
        }
        switch (type)
        {
            case SUBSCRIBE:
            case UNSUBSCRIBE:
                if (length >= SubscriptionFlyweight.LENGTH)
                {
                    subscription.wrap(buffer, offset);
                    final SubscriptionView view = SubscriptionView.of(subscription.viewCode(length));
                    if (null == view)
                    {
                        counters.invalidViews.incrementRelease();
                        reply(session, subscription.instrumentId(), Subscriptions.NO_SLOT, subscription.symbol(),
                            INVALID, subscription.viewCode(length));
                        return;
                    }
                    onSubscription(session, type == SUBSCRIBE, subscription.instrumentId(), subscription.symbol(),
                        subscription.flags(), view);
                    return;
                }
                break;
            case RESYNC:
            case RECOVER:
                if (length >= SequenceRangeFlyweight.LENGTH)
                {
                    range.wrap(buffer, offset);
                    if (type == RESYNC)
                    {
                        onResync(session, range.from());
                    }
                    else
                    {
                        onRecover(session, range.from(), range.to(), range.flags());
                    }
                    return;
                }
                break;
            case SNAPSHOT:
                onSnapshot(session, buffer, offset, length);
                return;
            case HEARTBEAT:
                return;
            case BYE:
                session.requestClose("the consumer closed");
                return;
            default:
                break;
        }
        counters.malformedControlMessages.incrementRelease();
    }

    private void onFirstMessage(final ControlChannel channel, final DirectBuffer buffer, final int offset,
        final int length)
    {
        if (length >= HelloFlyweight.LENGTH && ControlFlyweight.typeOf(buffer, offset) == HELLO)
        {
            hello.wrap(buffer, offset);
            onHello(channel);
        }
        else
        {
            counters.malformedControlMessages.incrementRelease();
            refuse(channel, REJECT_INVALID, "the first message must be HELLO");
        }
    }

    private void onHello(final ControlChannel channel)
    {
        if (hello.version() != PROTOCOL_VERSION)
        {
            refuse(channel, REJECT_VERSION, "protocol version " + hello.version() + " is not " + PROTOCOL_VERSION);
            return;
        }
        final String name = hello.name();
        final byte[] expected = context.tokens().get(name);
        if (null == expected || !MessageDigest.isEqual(expected, hello.token()))
        {
            counters.authenticationFailures.incrementRelease();
            logOnce("auth:" + name, "refused consumer '" + PeerText.sanitize(name) + "' from " + channel.peer() +
                ": " + (null == expected ? "unknown consumer name" : "wrong token"));
            refuse(channel, REJECT_AUTHENTICATION, rejectReason(REJECT_AUTHENTICATION));
            return;
        }
        final int ringSlots = hello.ringSlots();
        final int tableSlots = hello.tableSlots();
        final int depthLevels = hello.depthLevels();
        final RemoteKey key = hello.region();
        if (!ConsumerRegionDescriptor.validRingSlots(ringSlots) || (ringSlots > 0 && ringSlots < 16) ||
            ringSlots > context.maxRingSlots() || tableSlots < 0 || tableSlots > context.maxTableSlots() ||
            depthLevels < 0 || depthLevels > DepthBook.MAX_DEPTH ||
            key.length() < ConsumerRegionDescriptor.length(ringSlots, tableSlots, depthLevels))
        {
            refuse(channel, REJECT_INVALID, "ring slots must be 0 or a power of two from 16 to " +
                context.maxRingSlots() + ", table slots at most " + context.maxTableSlots() + ", depth levels 0.." +
                DepthBook.MAX_DEPTH + ", and the region must hold them all");
            return;
        }
        final RemoteRegion remote;
        try
        {
            remote = channel.openRemoteRegion(key);
        }
        catch (final TransportException ex)
        {
            refuse(channel, REJECT_REGION, "cannot open the consumer's region: " + ex.getMessage());
            return;
        }
        final ConsumerSession session = sessionFor(name);
        if (null == session || !channel.establish())
        {
            remote.close();
            refuse(channel, REJECT_CAPACITY, "the publisher serves " + sessions.length + " consumers already");
            logOnce("capacity", "refused consumer '" + PeerText.sanitize(name) + "': all " + sessions.length + " sessions are in use");
            return;
        }
        session.activate(name, channel, remote, ringSlots, tableSlots, depthLevels, context.depthLevels(), nowNanos);
        counters.consumersWelcomed.incrementRelease();
        welcome.wrapForEncode(scratch, 0, WELCOME);
        welcome.publisherEpoch(publisher.publisherEpoch())
            .positionRegion(session.positionRegion.remoteKey())
            .streamId(context.streamId())
            .nextSequence(publisher.lastSequence() + 1)
            .heartbeatIntervalNanos(context.heartbeatIntervalNanos())
            .heartbeatTimeoutNanos(context.heartbeatTimeoutNanos())
            .mtu(context.transport().mtu())
            .sharedLogSlots(publisher.sharedLogSlots())
            .depthLevels(context.depthLevels());
        session.send(welcome, WelcomeFlyweight.DEPTH_LENGTH);
        publisher.sessionsChanged();
        log.log("consumer '" + name + "' connected from " + channel.peer() + " (ring " + ringSlots +
            " slots, table " + tableSlots + " slots)");
    }

    /** Refuses a connection awaiting its HELLO: REJECT now, closed once its poll returns. */
    private void refuse(final ControlChannel channel, final int reason, final String text)
    {
        counters.rejected.incrementRelease();
        encodeReject(reason, text);
        channel.offer(reject.buffer(), 0, RejectFlyweight.LENGTH);
        greetingRefused = true;
    }

    private void encodeReject(final int reason, final String text)
    {
        reject.wrapForEncode(scratch, 0, REJECT);
        reject.reason(reason).text(text);
    }

    private void onSubscription(final ConsumerSession session, final boolean add, final int instrumentId,
        final long symbol, final int flags, final SubscriptionView view)
    {
        final Subscriptions subscriptions = session.subscriptions;
        final int code = view.code();
        if (instrumentId == ALL_INSTRUMENTS)
        {
            subscriptions.subscribeAll(add, view.mask());
            onSubscriptionToAll(session, add, (flags & SHARED_LOG) != 0 && publisher.hasSharedLog(), code);
            return;
        }
        int instrument = instrumentId;
        if (instrumentId == BY_SYMBOL)
        {
            final long found = records.instrumentOf(symbol);
            if (found == InstrumentRecords.NO_INSTRUMENT)
            {
                if (!add)
                {
                    subscriptions.removePendingSymbol(symbol);
                    reply(session, BY_SYMBOL, Subscriptions.NO_SLOT, symbol, UNSUBSCRIBED, code);
                }
                else
                {
                    final boolean kept = subscriptions.addPendingSymbol(symbol, view.mask());
                    reply(session, BY_SYMBOL, Subscriptions.NO_SLOT, symbol, kept ? PENDING : INVALID, code);
                }
                return;
            }
            instrument = (int)found;
        }
        if (instrument < 1 || instrument > 0xFFFF)
        {
            reply(session, instrumentId, Subscriptions.NO_SLOT, symbol, INVALID, code);
            return;
        }
        if (add)
        {
            subscribe(session, instrument, records.contains(instrument) ? records.symbolOf(instrument) : symbol,
                view);
        }
        else
        {
            subscriptions.remove(instrument);
            reply(session, instrument, Subscriptions.NO_SLOT, symbol, UNSUBSCRIBED, code);
        }
    }

    /**
     * All instruments, through the ring or the shared log. Moving to the log flushes the ring first and answers
     * with the log position of the next tick: the ring holds every tick before it, the log every one from it.
     * Leaving "all" puts a log reader back on its ring, live from the next tick.
     */
    private void onSubscriptionToAll(final ConsumerSession session, final boolean add, final boolean viaLog,
        final int view)
    {
        if (add && viaLog)
        {
            session.readLog();
            publisher.sessionsChanged();
            subscription.wrapForEncode(scratch, 0, SUBSCRIPTION);
            subscription.instrumentId(ALL_INSTRUMENTS).tableSlot(Subscriptions.NO_SLOT)
                .logPosition(publisher.sharedLogPosition()).status(SUBSCRIBED).flags(SHARED_LOG);
            subscription.nextSequence(publisher.lastSequence() + 1).view(view);
            session.send(subscription, SubscriptionFlyweight.VIEW_LENGTH);
            return;
        }
        if (session.readsLog)
        {
            session.readsLog = false;
            publisher.sessionsChanged();
        }
        reply(session, ALL_INSTRUMENTS, Subscriptions.NO_SLOT, 0, add ? SUBSCRIBED : UNSUBSCRIBED, view);
    }

    /**
     * Subscribes with a view, writes the table snapshots (top of book, and depth when the consumer has a depth
     * table), then answers: the answer arrives after the snapshots landed.
     */
    void subscribe(final ConsumerSession session, final int instrument, final long symbol,
        final SubscriptionView view)
    {
        session.subscriptions.add(instrument, view.mask());
        int slot = Subscriptions.NO_SLOT;
        if (records.contains(instrument))
        {
            slot = session.subscriptions.assignSlot(instrument);
            if (slot != Subscriptions.NO_SLOT)
            {
                publisher.writeTable(session, slot, instrument);
                publisher.writeDepth(session, slot, instrument);
            }
        }
        reply(session, instrument, slot, symbol, SUBSCRIBED, view.code());
    }

    /** A symbol became known: subscribe every session that was waiting for it, with the view it asked for. */
    void onSymbol(final ConsumerSession session, final long symbol, final int instrument)
    {
        final int mask = session.subscriptions.takePendingSymbol(symbol);
        if (mask != 0)
        {
            subscribe(session, instrument, symbol, SubscriptionView.ofMask(mask));
        }
    }

    private void reply(final ConsumerSession session, final int instrument, final int slot, final long symbol,
        final int status, final int view)
    {
        subscription.wrapForEncode(scratch, 0, SUBSCRIPTION);
        subscription.instrumentId(instrument).tableSlot(slot).symbol(symbol).status(status).view(view);
        session.send(subscription, SubscriptionFlyweight.VIEW_LENGTH);
    }

    /**
     * Queues a SNAPSHOT request, answered by the {@link SnapshotSender} (one request waits per session: a second one
     * before the first began replaces it, one while it is under way is ignored). A malformed one is refused at once
     * and counted, and so is one without the flag PER_INSTRUMENT (an older consumer's, which
     * would take one sequence for every instrument), with a log line saying why.
     */
    private void onSnapshot(final ConsumerSession session, final DirectBuffer buffer, final int offset,
        final int length)
    {
        snapshotRequest.wrap(buffer, offset);
        if (!snapshotRequest.isValid(length))
        {
            counters.malformedControlMessages.incrementRelease();
            counters.snapshotsRefused.incrementRelease();
            publisher.refuseSnapshot(session);
            return;
        }
        if ((snapshotRequest.flags() & PER_INSTRUMENT) == 0)
        {
            counters.snapshotsRefused.incrementRelease();
            log.log("refused a snapshot to consumer '" + session.name + "': its request expects one sequence for " +
                "every instrument; this publisher builds each instrument's part at its own sequence " +
                "(flag PER_INSTRUMENT, docs/EGRESS.md \"Snapshots\")");
            publisher.refuseSnapshot(session);
            return;
        }
        session.snapshot.request(snapshotRequest);
    }

    private void onResync(final ConsumerSession session, final long fromSequence)
    {
        if (session.readsLog)
        {
            return; // sent before the consumer moved to the shared log, which recovers its gap over RECOVER
        }
        if (!session.hasRing())
        {
            sendRange(session, RECOVERY_END, fromSequence, fromSequence - 1, 0, RECOVERY_REFUSED, VIA_RING);
            return;
        }
        // Not raised to the first live sequence: after a restart on the same journal everything below it is in the
        // recovery source, and a consumer that was behind when the old publisher died must get it replayed.
        final long from = Math.max(fromSequence, 1);
        if (session.ringState == ConsumerSession.RING_LAPPED)
        {
            log.log("consumer '" + session.name + "' was a whole ring behind at position " + session.ring.position() +
                "; replaying from sequence " + from);
        }
        counters.resyncs.incrementRelease();
        session.startCatchUp(from, nowNanos);
        sendRange(session, RESYNCED, from, publisher.lastSequence(), 0, RECOVERY_COMPLETE, VIA_RING);
    }

    private void onRecover(final ConsumerSession session, final long from, final long to, final int flags)
    {
        counters.recoveryRequests.incrementRelease();
        if (from < 1 || to < from || !session.controlRecovery.add(from, to, flags))
        {
            sendRange(session, RECOVERY_END, from, to, 0, RECOVERY_REFUSED, flags);
        }
    }

    /** Tells a consumer its ring stopped because it was a whole ring behind. Called from the tick path. */
    void lapped(final ConsumerSession session)
    {
        counters.laps.incrementRelease();
        session.stopLapped();
        range.wrapForEncode(scratch, 0, LAPPED);
        range.from(0).to(publisher.lastSequence()).count(0).status(0).flags(VIA_RING).position(session.ring.position());
        session.sendNotice(range, SequenceRangeFlyweight.LENGTH);
    }

    private void sendRange(final ConsumerSession session, final short type, final long from, final long to,
        final long count, final int status, final int flags)
    {
        range.wrapForEncode(scratch, 0, type);
        range.from(from).to(to).count(count).status(status).flags(flags)
            .position(session.hasRing() ? session.ring.position() : 0);
        session.send(range, SequenceRangeFlyweight.LENGTH);
    }

    void close(final ConsumerSession session, final String reason)
    {
        if (session.state == ConsumerSession.ACTIVE)
        {
            log.log("consumer '" + session.name + "' left: " + reason);
        }
        session.release();
        publisher.sessionsChanged();
    }

    /** Says goodbye to every consumer and ends every session; closes connections still awaiting their HELLO. */
    void closeAll()
    {
        while (pendingCount > 0)
        {
            pending[pendingCount - 1].close();
            removePending(pendingCount - 1);
        }
        if (counters.refusalsNotLogged.get() > 0)
        {
            log.log(counters.refusalsNotLogged.get() + " further refusals were counted but not logged");
        }
        for (final ConsumerSession session : sessions)
        {
            if (session.state != ConsumerSession.FREE)
            {
                final ControlFlyweight bye = range.wrapForEncode(scratch, 0, BYE);
                session.channel.offer(bye.buffer(), 0, 8);
                close(session, "the publisher closed");
            }
        }
    }

    /** Logs once per key, for the first {@value #MAX_LOGGED_REFUSALS} distinct keys; counts the rest. */
    private void logOnce(final String key, final String message)
    {
        if (loggedRefusals.contains(key))
        {
            return;
        }
        if (loggedRefusals.size() >= MAX_LOGGED_REFUSALS)
        {
            if (counters.refusalsNotLogged.getAndAddRelease(1) == 0)
            {
                log.log("refused " + MAX_LOGGED_REFUSALS + " distinct consumers already; further refusals are " +
                    "counted, not logged");
            }
            return;
        }
        loggedRefusals.add(key);
        log.log(message + " (logged once)");
    }
}
