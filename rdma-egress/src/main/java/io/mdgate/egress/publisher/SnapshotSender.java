package io.mdgate.egress.publisher;

import io.mdgate.egress.EventLog;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Answers SNAPSHOT requests, one at a time across the sessions, in session order from where the last one left off:
 * builds the snapshot at once at the last published sequence S ({@link SnapshotBuilder}), between two live ticks
 * and at the end of an ITCH message (the last tick published carried {@code lastInMessage}, so the top of book
 * agrees with the orders and the depth; after {@value #BOUNDARY_WAIT_MILLIS} ms without one, at any tick),
 * then sends it from the buffer in SNAPSHOT_DATA messages as fast as the consumer's control channel takes them
 * (back pressure waits for the next duty cycle; live ticks go on meanwhile), and ends it with SNAPSHOT_END (S, ticks
 * sent). A snapshot that does not fit the buffer is refused (SNAPSHOT_END status REFUSED) and counted. A session that
 * ends while its snapshot is sent frees the buffer.
 * <p>
 * Threading: the publisher's thread. Allocation-free after construction (the build's sort aside).
 */
final class SnapshotSender
{
    private final EgressPublisher publisher;
    private final SnapshotBuilder builder;
    private final ConsumerSession[] sessions;
    private final PublisherCounters counters;
    private final EventLog log;
    private final UnsafeBuffer message;
    private final RecoveryDataFlyweight data = new RecoveryDataFlyweight();
    private final SequenceRangeFlyweight end = new SequenceRangeFlyweight();
    private final UnsafeBuffer endBuffer = new UnsafeBuffer(new byte[SequenceRangeFlyweight.LENGTH]);
    static final long BOUNDARY_WAIT_MILLIS = 50;
    private static final long BOUNDARY_WAIT_NANOS = BOUNDARY_WAIT_MILLIS * 1_000_000L;

    private ConsumerSession owner;
    private long waitingSinceNanos;
    private boolean waiting;
    private long lastBuildNanos;
    private int sent;
    private int cursor;

    SnapshotSender(final EgressPublisher publisher, final SnapshotBuilder builder, final ConsumerSession[] sessions,
        final int messageLength, final EventLog log)
    {
        this.publisher = publisher;
        this.builder = builder;
        this.sessions = sessions;
        this.counters = publisher.counters();
        this.log = log;
        this.message = new UnsafeBuffer(new byte[messageLength]);
    }

    /**
     * Sends the next part of the snapshot being sent, or builds the next one asked for.
     *
     * @return work done.
     */
    int doWork(final long nowNanos)
    {
        if (null != owner && (!owner.snapshotSending || owner.state != ConsumerSession.ACTIVE))
        {
            owner = null;
        }
        if (null == owner && !begin(nowNanos))
        {
            return 0;
        }
        return send();
    }

    private boolean begin(final long nowNanos)
    {
        if (!anyWanted())
        {
            waiting = false;
            return false;
        }
        if (!publisher.atMessageBoundary())
        {
            if (!waiting)
            {
                waiting = true;
                waitingSinceNanos = nowNanos;
            }
            if (nowNanos - waitingSinceNanos < BOUNDARY_WAIT_NANOS)
            {
                return false;
            }
        }
        waiting = false;
        for (int k = 0; k < sessions.length; k++)
        {
            final ConsumerSession session = sessions[(cursor + k) % sessions.length];
            if (session.state == ConsumerSession.ACTIVE && session.snapshotWanted && !session.closeRequested)
            {
                cursor = (cursor + k + 1) % sessions.length;
                session.snapshotWanted = false;
                final long sequence = publisher.lastSequence();
                final long started = System.nanoTime();
                final int built = builder.build(session.subscriptions,
                    session.snapshotIdCount < 0 ? null : session.snapshotIds, session.snapshotIdCount, sequence);
                lastBuildNanos = System.nanoTime() - started;
                if (built == SnapshotBuilder.TOO_LARGE)
                {
                    counters.snapshotsRefused.incrementRelease();
                    log.log("refused a snapshot to consumer '" + session.name + "': its instruments need more than " +
                        "the snapshot buffer's ticks (snapshotTicks); ask for fewer instruments at a time");
                    refuse(session, sequence);
                    continue;
                }
                log.log("snapshot for consumer '" + session.name + "': " + built + " ticks at sequence " + sequence +
                    ", built in " + lastBuildNanos / 1000 + " us");
                session.snapshotSending = true;
                owner = session;
                sent = 0;
                return true;
            }
        }
        return false;
    }

    private boolean anyWanted()
    {
        for (final ConsumerSession session : sessions)
        {
            if (session.snapshotWanted)
            {
                return true;
            }
        }
        return false;
    }

    private int send()
    {
        final ConsumerSession session = owner;
        final int maxTicks = RecoveryDataFlyweight.maxTicks(Math.min(session.channel.maxMessageLength(),
            message.capacity()));
        final int total = builder.count();
        int work = 0;
        while (sent < total)
        {
            final int count = Math.min(maxTicks, total - sent);
            data.wrapForEncode(message, 0, ControlMessageDescriptor.SNAPSHOT_DATA);
            data.tickCount(count);
            message.putBytes(RecoveryDataFlyweight.TICKS_OFFSET, builder.ticks(), sent * TickLayout.LENGTH,
                count * TickLayout.LENGTH);
            final int result = session.channel.offer(message, 0, data.encodedLength());
            if (result == TransportResult.BACK_PRESSURED)
            {
                return work;
            }
            if (result != TransportResult.OK)
            {
                session.requestClose("snapshot send failed: " + TransportResult.describe(result));
                finish(session);
                return work;
            }
            sent += count;
            work++;
        }
        if (offerEnd(session, ControlMessageDescriptor.RECOVERY_COMPLETE, total))
        {
            counters.snapshotsSent.incrementRelease();
            counters.snapshotTicks.getAndAddRelease(total);
            finish(session);
            work++;
        }
        return work;
    }

    private void finish(final ConsumerSession session)
    {
        session.snapshotSending = false;
        owner = null;
    }

    /** Answers a request that cannot be served with SNAPSHOT_END status REFUSED. */
    void refuse(final ConsumerSession session, final long sequence)
    {
        end.wrapForEncode(endBuffer, 0, ControlMessageDescriptor.SNAPSHOT_END);
        end.from(sequence).to(sequence).count(0).status(ControlMessageDescriptor.RECOVERY_REFUSED);
        session.send(end, SequenceRangeFlyweight.LENGTH);
    }

    private boolean offerEnd(final ConsumerSession session, final int status, final int ticks)
    {
        end.wrapForEncode(endBuffer, 0, ControlMessageDescriptor.SNAPSHOT_END);
        end.from(builder.sequence()).to(builder.sequence()).count(ticks).status(status)
            .flags(builder.ordersOmitted() ? ControlMessageDescriptor.ORDERS_OMITTED : 0);
        final int result = session.channel.offer(endBuffer, 0, SequenceRangeFlyweight.LENGTH);
        if (result == TransportResult.OK)
        {
            return true;
        }
        if (result != TransportResult.BACK_PRESSURED)
        {
            session.requestClose("snapshot send failed: " + TransportResult.describe(result));
            finish(session);
        }
        return false;
    }
}
