package io.mdgate.egress.publisher;

import io.mdgate.egress.EventLog;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Answers SNAPSHOT requests a little at a time, every session on its own ({@link SessionSnapshot}), so a snapshot
 * never holds the live ticks up and a consumer that stops reading holds up nobody else's.
 * <p>
 * A snapshot is a walk over the consumer's instruments (the ones named when it began, in the order the feed named
 * them, or the listed ones). Each instrument's part ({@link SnapshotBuilder#part}) is built whole, between two live
 * ticks, at that instrument's own sequence S(i): the last sequence published when it is built, which is never inside
 * one of its ITCH messages (the last tick published either ended its message or belongs to another instrument;
 * after {@value #BOUNDARY_WAIT_MILLIS} ms of waiting, at any tick). So the part is the instrument's state after
 * every tick up to S(i) and none after, whatever the book did while other parts were built. The consumer applies
 * the instrument's live ticks after S(i) only; SNAPSHOT_END carries from (the sequence when the snapshot began: live
 * delivery continues after it) and to (the highest S(i)).
 * <p>
 * Work per duty cycle is bounded across sessions by {@code recordsPerCycle}: every tick built and every instrument
 * visited counts one, and parts are built until the budget is spent (a part is never split, so a cycle does at most
 * the budget plus one instrument's part), sessions taking turns to go first. The parts built are staged in the
 * session's own buffer and sent in place, at most the budget's worth of ticks per cycle, as fast as the session's
 * control channel takes them: a channel that back-pressures stops only its own session, which builds nothing more
 * until its staged ticks are gone (a consumer that never reads is dropped at its heartbeat timeout). A part that
 * does not fit an empty staging buffer refuses the snapshot (SNAPSHOT_END REFUSED, counted). A SESSION tick ends
 * every snapshot being built before it ({@link ControlMessageDescriptor#SESSION_CUT}).
 * <p>
 * A directory request ({@link ControlMessageDescriptor#DIRECTORY}) walks the same way over every instrument the
 * current session named (or the listed ones), subscribed or not, and stages only each one's last {@code INSTRUMENT}
 * tick ({@link SnapshotBuilder#directoryEntry}), at the last sequence published when it is taken. A directory tick is
 * a whole ITCH message of its own, so no boundary is waited for.
 * <p>
 * Threading: the publisher's thread. Allocation-free in the duty cycle (a snapshot's first and last events are
 * logged).
 */
final class SnapshotSender
{
    static final long BOUNDARY_WAIT_MILLIS = 50;
    private static final long BOUNDARY_WAIT_NANOS = BOUNDARY_WAIT_MILLIS * 1_000_000L;
    private static final int TICK = TickLayout.LENGTH;

    private final EgressPublisher publisher;
    private final SnapshotBuilder builder;
    private final ConsumerSession[] sessions;
    private final PublisherCounters counters;
    private final EventLog log;
    private final int recordsPerCycle;
    private final RecoveryDataFlyweight data = new RecoveryDataFlyweight();
    private final SequenceRangeFlyweight end = new SequenceRangeFlyweight();
    private final UnsafeBuffer endBuffer = new UnsafeBuffer(new byte[SequenceRangeFlyweight.LENGTH]);
    private int cursor;
    private int building;

    SnapshotSender(final EgressPublisher publisher, final SnapshotBuilder builder, final ConsumerSession[] sessions,
        final int recordsPerCycle, final EventLog log)
    {
        this.publisher = publisher;
        this.builder = builder;
        this.sessions = sessions;
        this.counters = publisher.counters();
        this.recordsPerCycle = recordsPerCycle;
        this.log = log;
    }

    /**
     * Builds and sends the next parts of every snapshot under way, within the cycle's budget.
     *
     * @return work done.
     */
    int doWork(final long nowNanos)
    {
        int budget = recordsPerCycle;
        int work = 0;
        final int count = sessions.length;
        for (int k = 0; k < count && budget > 0; k++)
        {
            final ConsumerSession session = sessions[(cursor + k) % count];
            final SessionSnapshot snapshot = session.snapshot;
            if (snapshot.state == SessionSnapshot.IDLE)
            {
                continue;
            }
            if (session.state != ConsumerSession.ACTIVE || session.closeRequested)
            {
                snapshot.clear();
                continue;
            }
            if (snapshot.state == SessionSnapshot.WANTED)
            {
                snapshot.begin(publisher.lastSequence(), builder.knownCount(), nowNanos);
                work++;
            }
            final int used = step(session, snapshot, nowNanos, budget);
            budget -= used;
            work += used;
        }
        cursor = count == 0 ? 0 : (cursor + 1) % count;
        int underWay = 0;
        for (final ConsumerSession session : sessions)
        {
            underWay += session.snapshot.state == SessionSnapshot.IDLE ? 0 : 1;
        }
        building = underWay;
        return work;
    }

    /** @return budget used. */
    private int step(final ConsumerSession session, final SessionSnapshot snapshot, final long nowNanos,
        final int budget)
    {
        if (snapshot.state == SessionSnapshot.ENDING)
        {
            finish(session, snapshot, nowNanos);
            return 1;
        }
        int used = send(session, snapshot, budget);
        if (snapshot.staged > snapshot.stagedSent || snapshot.state != SessionSnapshot.BUILDING)
        {
            return used; // back-pressured (it waits alone) or the session ended
        }
        snapshot.staged = 0;
        snapshot.stagedSent = 0;
        while (used < budget && !snapshot.walked())
        {
            final int instrument = snapshot.idCount < 0 ? builder.known(snapshot.cursor) : snapshot.ids[snapshot.cursor];
            final int mask = snapshot.directory || !builder.isKnown(instrument) ? 0 :
                session.subscriptions.maskOf(instrument);
            if (mask != 0 && insideMessage(snapshot, instrument, nowNanos))
            {
                break;
            }
            final int built = snapshot.directory ?
                builder.directoryEntry(snapshot.staging, snapshot.staged + 1, snapshot.capacity + 1, instrument,
                    publisher.lastSequence()) :
                mask == 0 ? 0 : builder.part(snapshot.staging, snapshot.staged + 1, snapshot.capacity + 1, instrument,
                    mask, publisher.lastSequence());
            if (built == SnapshotBuilder.TOO_LARGE)
            {
                if (snapshot.staged == 0)
                {
                    refuseTooLarge(session, snapshot, instrument);
                    finish(session, snapshot, nowNanos);
                    return used;
                }
                break; // send what is staged first
            }
            if (built > 0)
            {
                snapshot.to = publisher.lastSequence();
                snapshot.staged += built;
            }
            if (builder.omitsOrders(mask))
            {
                snapshot.flags |= ControlMessageDescriptor.ORDERS_OMITTED;
            }
            snapshot.cursor++;
            used += built + 1;
        }
        if (used < budget)
        {
            used += send(session, snapshot, budget - used);
        }
        if (snapshot.walked() && snapshot.staged == snapshot.stagedSent && snapshot.state == SessionSnapshot.BUILDING)
        {
            snapshot.end(ControlMessageDescriptor.RECOVERY_COMPLETE);
            finish(session, snapshot, nowNanos);
        }
        return used;
    }

    /** @return whether the last tick published left one of this instrument's messages open (wait, up to a bound). */
    private boolean insideMessage(final SessionSnapshot snapshot, final int instrument, final long nowNanos)
    {
        if (publisher.atMessageBoundary() || publisher.lastInstrument() != instrument)
        {
            snapshot.boundaryWaiting = false;
            return false;
        }
        if (!snapshot.boundaryWaiting)
        {
            snapshot.boundaryWaiting = true;
            snapshot.boundaryWaitSinceNanos = nowNanos;
        }
        return nowNanos - snapshot.boundaryWaitSinceNanos < BOUNDARY_WAIT_NANOS;
    }

    /**
     * Sends staged ticks in place, up to {@code allowance} of them (at least one when there are), in messages of at
     * most that many.
     *
     * @return ticks sent.
     */
    private int send(final ConsumerSession session, final SessionSnapshot snapshot, final int allowance)
    {
        final int perMessage = RecoveryDataFlyweight.maxTicks(session.channel.maxMessageLength());
        int sent = 0;
        while (snapshot.stagedSent < snapshot.staged && (sent == 0 || sent < allowance))
        {
            final int count = Math.min(Math.min(perMessage, snapshot.staged - snapshot.stagedSent),
                Math.max(1, allowance - sent));
            final int header = snapshot.stagedSent * TICK;
            final UnsafeBuffer staging = snapshot.staging;
            staging.setMemory(header, RecoveryDataFlyweight.TICKS_OFFSET, (byte)0);
            data.wrapForEncode(staging, header, ControlMessageDescriptor.SNAPSHOT_DATA);
            data.tickCount(count);
            final int result = session.channel.offer(staging, header, data.encodedLength());
            if (result == TransportResult.BACK_PRESSURED)
            {
                break;
            }
            if (result != TransportResult.OK)
            {
                session.requestClose("snapshot send failed: " + TransportResult.describe(result));
                snapshot.clear();
                break;
            }
            snapshot.stagedSent += count;
            snapshot.ticksSent += count;
            sent += count;
        }
        return sent;
    }

    private void finish(final ConsumerSession session, final SessionSnapshot snapshot, final long nowNanos)
    {
        if (!offerEnd(session, snapshot, snapshot.endStatus))
        {
            return;
        }
        if (snapshot.endStatus == ControlMessageDescriptor.RECOVERY_COMPLETE)
        {
            counters.snapshotsSent.incrementRelease();
            counters.snapshotTicks.getAndAddRelease(snapshot.ticksSent);
            log.log((snapshot.directory ? "directory" : "snapshot") + " for consumer '" + session.name + "': " +
                snapshot.ticksSent + " ticks, parts at " +
                "sequences " + snapshot.from + ".." + snapshot.to + ", built and sent in " +
                (nowNanos - snapshot.startedNanos) / 1000 + " us" +
                ((snapshot.flags & ControlMessageDescriptor.SESSION_CUT) != 0 ? ", ended early by a SESSION tick" : ""));
        }
        snapshot.clear();
    }

    private void refuseTooLarge(final ConsumerSession session, final SessionSnapshot snapshot, final int instrument)
    {
        counters.snapshotsRefused.incrementRelease();
        log.log("refused a snapshot to consumer '" + session.name + "': instrument " + instrument + " needs more " +
            "than the " + snapshot.capacity + " ticks a snapshot can stage (snapshotTicks)");
        snapshot.end(ControlMessageDescriptor.RECOVERY_REFUSED);
    }

    /** A SESSION tick is about to be published: every snapshot being built ends before it. */
    void onSessionTick()
    {
        for (final ConsumerSession session : sessions)
        {
            final SessionSnapshot snapshot = session.snapshot;
            if (snapshot.state == SessionSnapshot.BUILDING && !snapshot.walked())
            {
                snapshot.cut = true;
                snapshot.flags |= ControlMessageDescriptor.SESSION_CUT;
            }
        }
    }

    /** Answers a request that cannot be served with SNAPSHOT_END status REFUSED. */
    void refuse(final ConsumerSession session, final long sequence)
    {
        end.wrapForEncode(endBuffer, 0, ControlMessageDescriptor.SNAPSHOT_END);
        end.from(sequence).to(sequence).count(0).status(ControlMessageDescriptor.RECOVERY_REFUSED).flags(0);
        session.send(end, SequenceRangeFlyweight.LENGTH);
    }

    private boolean offerEnd(final ConsumerSession session, final SessionSnapshot snapshot, final int status)
    {
        end.wrapForEncode(endBuffer, 0, ControlMessageDescriptor.SNAPSHOT_END);
        end.from(snapshot.from).to(snapshot.to).count(snapshot.ticksSent).status(status).flags(snapshot.flags);
        final int result = session.channel.offer(endBuffer, 0, SequenceRangeFlyweight.LENGTH);
        if (result == TransportResult.OK)
        {
            return true;
        }
        if (result != TransportResult.BACK_PRESSURED)
        {
            session.requestClose("snapshot send failed: " + TransportResult.describe(result));
            snapshot.clear();
        }
        return false;
    }

    /** @return sessions whose snapshot is asked for or under way at the end of the last duty cycle. */
    int building()
    {
        return building;
    }
}
