package io.mdgate.egress.publisher;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.egress.RecoverySource;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.SequenceRangeFlyweight;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Answers recovery from the {@link RecoverySource} within a budget of ticks scanned: ring catch-up after a RESYNC
 * (replayed ticks staged into the consumer's ring, flagged {@code replayed}, never more than the ring has room for)
 * and RECOVER requests (ticks sent in RECOVERY_DATA messages over the control channel, then RECOVERY_END). A range
 * the source does not hold yet is waited for up to the stall timeout, then declared missing and reported; a range
 * below the publisher's first live sequence (what it started after, e.g. the journal's last tick on a restart) is
 * declared missing at once, as nothing this publisher sends can fill it later.
 * <p>
 * Threading: the publisher's thread. Allocation-free.
 */
final class SessionRecovery
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final EgressPublisher publisher;
    private final RecoverySource source;
    private final PublisherCounters counters;
    private final long stallNanos;
    private final long firstLiveSequence;
    private final SequenceRangeFlyweight range = new SequenceRangeFlyweight();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[SequenceRangeFlyweight.LENGTH]);
    private final RecoveryDataFlyweight data = new RecoveryDataFlyweight();
    private final RingFiller ringFiller = new RingFiller();
    private final MessageFiller messageFiller = new MessageFiller();

    SessionRecovery(final EgressPublisher publisher, final RecoverySource source, final long stallNanos)
    {
        this.publisher = publisher;
        this.source = source;
        this.counters = publisher.counters();
        this.stallNanos = stallNanos;
        this.firstLiveSequence = publisher.lastSequence() + 1;
    }

    /**
     * Replays the next part of a catching-up ring.
     *
     * @return ticks scanned (spent from the budget).
     */
    int catchUp(final ConsumerSession session, final int budget, final long nowNanos)
    {
        final long last = publisher.lastSequence();
        if (session.catchUpNext > last)
        {
            finishCatchUp(session, last);
            return 0;
        }
        final int room = session.freeSlots();
        if (room == 0 || budget == 0)
        {
            return 0;
        }
        final long from = session.catchUpNext;
        final long to = Math.min(last, from + Math.min(budget, room) - 1);
        ringFiller.begin(session, from);
        final long delivered = source.replay(from, to, ringFiller);
        session.flushRing();
        counters.recoveredTicks.getAndAddRelease(ringFiller.staged);
        if (delivered > 0)
        {
            session.catchUpMissing += ringFiller.missing;
            counters.ticksMissingFromSource.getAndAddRelease(ringFiller.missing);
            session.catchUpNext = ringFiller.expected;
            session.stallSinceNanos = 0;
        }
        else if (to < firstLiveSequence || stalled(session.stallSinceNanos, nowNanos))
        {
            session.catchUpMissing += to - from + 1;
            counters.ticksMissingFromSource.getAndAddRelease(to - from + 1);
            session.catchUpNext = to + 1;
            session.stallSinceNanos = 0;
        }
        else if (session.stallSinceNanos == 0)
        {
            session.stallSinceNanos = nowNanos;
        }
        return (int)(to - from + 1);
    }

    private void finishCatchUp(final ConsumerSession session, final long last)
    {
        session.goLive();
        sendEnd(session, ControlMessageDescriptor.RECOVERY_END, session.catchUpFrom, last, session.catchUpMissing,
            ControlMessageDescriptor.VIA_RING);
    }

    /**
     * Answers the next part of the session's current RECOVER request.
     *
     * @return ticks scanned (spent from the budget).
     */
    int answer(final ConsumerSession session, final int budget, final long nowNanos)
    {
        final ControlRecovery recovery = session.controlRecovery;
        if (recovery.messagePending && !offerMessage(session))
        {
            return 0;
        }
        if (recovery.isEmpty() || budget == 0)
        {
            return 0;
        }
        final long to = Math.min(recovery.to(), publisher.lastSequence());
        if (recovery.next > to)
        {
            sendEnd(session, ControlMessageDescriptor.RECOVERY_END, recovery.from(), to, recovery.missing,
                recovery.flags());
            recovery.pop();
            return 0;
        }
        final boolean filtered = (recovery.flags() & ControlMessageDescriptor.FILTERED) != 0;
        final int maxTicks = RecoveryDataFlyweight.maxTicks(
            Math.min(session.channel.maxMessageLength(), session.messageRegion.length()));
        final long from = recovery.next;
        final long scanTo = Math.min(to, from + (filtered ? budget : Math.min(budget, maxTicks)) - 1);
        data.wrapForEncode(session.messageRegion.buffer(), 0, ControlMessageDescriptor.RECOVERY_DATA);
        messageFiller.begin(session, from, filtered, maxTicks);
        final long delivered = source.replay(from, scanTo, messageFiller);
        if (delivered > 0)
        {
            recovery.missing += messageFiller.missing;
            counters.ticksMissingFromSource.getAndAddRelease(messageFiller.missing);
            recovery.next = messageFiller.expected;
            recovery.stallSinceNanos = 0;
        }
        else if (scanTo < firstLiveSequence || stalled(recovery.stallSinceNanos, nowNanos))
        {
            recovery.missing += scanTo - from + 1;
            counters.ticksMissingFromSource.getAndAddRelease(scanTo - from + 1);
            recovery.next = scanTo + 1;
            recovery.stallSinceNanos = 0;
        }
        else if (recovery.stallSinceNanos == 0)
        {
            recovery.stallSinceNanos = nowNanos;
        }
        if (messageFiller.count > 0)
        {
            data.tickCount(messageFiller.count);
            recovery.messageLength = data.encodedLength();
            recovery.messagePending = true;
            counters.recoveredTicks.getAndAddRelease(messageFiller.count);
            offerMessage(session);
        }
        return (int)(scanTo - from + 1);
    }

    private boolean stalled(final long stallSinceNanos, final long nowNanos)
    {
        return stallSinceNanos != 0 && nowNanos - stallSinceNanos >= stallNanos;
    }

    private boolean offerMessage(final ConsumerSession session)
    {
        final ControlRecovery recovery = session.controlRecovery;
        final int result = session.channel.offer(session.messageRegion.buffer(), 0, recovery.messageLength);
        if (result == TransportResult.OK)
        {
            recovery.messagePending = false;
            return true;
        }
        if (result != TransportResult.BACK_PRESSURED)
        {
            session.requestClose("recovery send failed: " + TransportResult.describe(result));
        }
        return false;
    }

    private void sendEnd(final ConsumerSession session, final short type, final long from, final long to,
        final long missing, final int flags)
    {
        range.wrapForEncode(scratch, 0, type);
        range.from(from).to(to).count(missing).flags(flags).position(session.ring.position())
            .status(missing > 0 ? ControlMessageDescriptor.RECOVERY_PARTIAL : ControlMessageDescriptor.RECOVERY_COMPLETE);
        session.send(range, SequenceRangeFlyweight.LENGTH);
    }

    /** Stages replayed ticks the consumer takes into its ring; counts sequences the source skipped. */
    private static final class RingFiller implements TickHandler
    {
        private ConsumerSession session;
        long expected;
        long missing;
        long staged;

        void begin(final ConsumerSession session, final long from)
        {
            this.session = session;
            this.expected = from;
            this.missing = 0;
            this.staged = 0;
        }

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
            if (sequence < expected)
            {
                return;
            }
            missing += sequence - expected;
            expected = sequence + 1;
            if (session.subscriptions.accepts(buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF,
                buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET)))
            {
                session.ring.stage(buffer, offset, TickLayout.REPLAYED_FLAG);
                staged++;
                if (session.ring.pending() >= session.flushSlots())
                {
                    session.flushRing();
                }
            }
        }
    }

    /** Copies replayed ticks into a RECOVERY_DATA message until it is full. */
    private final class MessageFiller implements TickHandler
    {
        private ConsumerSession session;
        private boolean filtered;
        private int maxTicks;
        private boolean full;
        long expected;
        long missing;
        int count;

        void begin(final ConsumerSession session, final long from, final boolean filtered, final int maxTicks)
        {
            this.session = session;
            this.filtered = filtered;
            this.maxTicks = maxTicks;
            this.expected = from;
            this.missing = 0;
            this.count = 0;
            this.full = false;
        }

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
            if (full || sequence < expected)
            {
                return;
            }
            final int instrument = buffer.getShort(offset + TickLayout.INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
            if (filtered &&
                !session.subscriptions.accepts(instrument, buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET)))
            {
                missing += sequence - expected;
                expected = sequence + 1;
                return;
            }
            if (count == maxTicks)
            {
                full = true;
                return;
            }
            missing += sequence - expected;
            expected = sequence + 1;
            final int at = data.tickOffset(count++);
            data.mutableBuffer().putBytes(at, buffer, offset, TickLayout.LENGTH);
            final int flags = at + TickLayout.FLAGS_OFFSET;
            data.mutableBuffer().putShort(flags, (short)(data.buffer().getShort(flags, LE) | TickLayout.REPLAYED_FLAG), LE);
        }
    }
}
