package io.mdgate.egress.publisher;

import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.ControlFlyweight;
import io.mdgate.egress.protocol.DepthTableWriter;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.RingWriter;
import io.mdgate.egress.protocol.TableWriter;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The publisher's state for one consumer connection, from a pool made at start: the registered staging region for
 * its ring, the position region it reports into, its subscriptions, its ring's mode (live, catching up after a
 * resync, or stopped because it was lapped) and its recovery work.
 * <p>
 * A live tick the consumer subscribed to is staged at the next ring position unless that would overwrite a slot
 * the consumer has not read (it reports its read position by one-sided write); then the ring stops, the consumer is
 * told it was lapped ({@link ConsumerRegionDescriptor#LAP_POSITION_OFFSET} and a LAPPED message) and the other
 * consumers are not affected. The consumer answers with RESYNC; the ring then replays from the recovery source,
 * never overrunning the consumer, until it reaches the live sequence and goes live again.
 * <p>
 * Threading: the publisher's thread. The tick path is allocation-free.
 */
final class ConsumerSession
{
    static final int FREE = 0;
    static final int ACTIVE = 1;

    static final int RING_LIVE = 0;
    static final int RING_CATCHING_UP = 1;
    static final int RING_LAPPED = 2;

    final int index;
    final MemoryRegion positionRegion;
    final MemoryRegion messageRegion;
    final RingWriter ring;
    final TableWriter table;
    final DepthTableWriter depthTable;
    final Subscriptions subscriptions;
    final ControlRecovery controlRecovery = new ControlRecovery();
    private final AtomicBuffer positions;
    private final int flushSlots;
    private final PublisherCounters counters;

    int state = FREE;
    int ringState = RING_LIVE;
    String name;
    ControlChannel channel;
    RemoteRegion remote;
    int ringSlots;
    long stateSinceNanos;
    long lastReceivedNanos;
    long lastHeartbeatSentNanos;
    long resyncFloor;
    long catchUpFrom;
    long catchUpNext;
    long catchUpMissing;
    long stallSinceNanos;
    boolean closeRequested;
    /** Subscribed to every instrument and reading the shared log: its ring gets no live ticks. */
    boolean readsLog;
    String closeReason;
    /** This session's late-join snapshot, asked for, being built and sent, or none. */
    final SessionSnapshot snapshot;

    private long cachedReadPosition;

    ConsumerSession(
        final int index,
        final MemoryRegion staging,
        final MemoryRegion positionRegion,
        final MemoryRegion messageRegion,
        final int maxInstruments,
        final int maxTableSlots,
        final int flushSlots,
        final int snapshotTicks,
        final PublisherCounters counters)
    {
        this.snapshot = new SessionSnapshot(snapshotTicks);
        this.counters = counters;
        this.index = index;
        this.positionRegion = positionRegion;
        this.messageRegion = messageRegion;
        this.positions = positionRegion.buffer();
        this.ring = new RingWriter(staging);
        this.table = new TableWriter(maxTableSlots);
        this.depthTable = new DepthTableWriter(maxTableSlots);
        this.subscriptions = new Subscriptions(maxInstruments, maxTableSlots);
        this.flushSlots = flushSlots;
    }

    /**
     * Binds the session to an authenticated consumer's connection and region; starts live at ring position 0.
     * Unauthenticated connections never reach a session: they wait in {@link SessionControl}.
     */
    void activate(final String name, final ControlChannel channel, final RemoteRegion remote, final int ringSlots,
        final int tableSlots, final int depthLevels, final int publisherDepth, final long nowNanos)
    {
        this.name = name;
        this.channel = channel;
        this.closeRequested = false;
        this.closeReason = null;
        this.readsLog = false;
        this.lastReceivedNanos = nowNanos;
        this.remote = remote;
        this.ringSlots = ringSlots;
        positions.setMemory(0, PositionRegionDescriptor.LENGTH, (byte)0);
        if (ringSlots > 0)
        {
            ring.attach(remote, ringSlots);
        }
        table.attach(remote, ringSlots, tableSlots);
        depthTable.attach(remote, ringSlots, tableSlots, depthLevels, Math.min(depthLevels, publisherDepth));
        subscriptions.reset(tableSlots);
        controlRecovery.clear();
        snapshot.clear();
        remote.writeLong(ConsumerRegionDescriptor.LAP_POSITION_OFFSET, ConsumerRegionDescriptor.NOT_LAPPED);
        state = ACTIVE;
        ringState = RING_LIVE;
        cachedReadPosition = 0;
        resyncFloor = 0;
        stateSinceNanos = nowNanos;
        lastHeartbeatSentNanos = nowNanos;
    }

    int flushSlots()
    {
        return flushSlots;
    }

    boolean isActive()
    {
        return state == ACTIVE;
    }

    boolean hasRing()
    {
        return ringSlots > 0;
    }

    /**
     * Stages a live tick if the consumer takes it and its ring is live.
     *
     * @return false when the consumer was found a whole ring behind (the caller tells it), true otherwise.
     */
    boolean onLiveTick(final DirectBuffer buffer, final int offset, final int instrument)
    {
        if (readsLog || ringState != RING_LIVE || ringSlots == 0 ||
            !subscriptions.accepts(instrument, buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET)))
        {
            return true;
        }
        final long position = ring.position();
        if (position - cachedReadPosition >= ringSlots)
        {
            cachedReadPosition = readPosition();
            if (position - cachedReadPosition >= ringSlots)
            {
                return false;
            }
        }
        ring.stage(buffer, offset, (short)0);
        counters.ringTicksStaged.incrementRelease();
        if (ring.pending() >= flushSlots)
        {
            return flushRing();
        }
        return true;
    }

    /** @return the consumer's reported read position, never below where the last resync started. */
    long readPosition()
    {
        return Math.max(positions.getLongVolatile(PositionRegionDescriptor.READ_POSITION_OFFSET), resyncFloor);
    }

    /** @return the last gateway sequence the consumer says it delivered. */
    long deliveredSequence()
    {
        return positions.getLongVolatile(PositionRegionDescriptor.DELIVERED_SEQUENCE_OFFSET);
    }

    /** @return ring positions free for catch-up (never overrunning the consumer). */
    int freeSlots()
    {
        return (int)Math.max(0, ringSlots - (ring.position() - readPosition()));
    }

    /** @return false when the writes failed (the connection is gone). */
    boolean flushRing()
    {
        if (ringSlots == 0 || ring.pending() == 0)
        {
            return true;
        }
        final int result = ring.flush();
        if (result != TransportResult.OK)
        {
            requestClose("ring write failed: " + TransportResult.describe(result));
            return false;
        }
        return true;
    }

    /** Stops the ring at its position and writes the lap notice. */
    void stopLapped()
    {
        flushRing();
        ringState = RING_LAPPED;
        remote.writeLong(ConsumerRegionDescriptor.LAP_POSITION_OFFSET, ring.position());
    }

    /** Starts replaying from {@code fromSequence} into the ring, at its current position. */
    void startCatchUp(final long fromSequence, final long nowNanos)
    {
        flushRing();
        remote.writeLong(ConsumerRegionDescriptor.LAP_POSITION_OFFSET, ConsumerRegionDescriptor.NOT_LAPPED);
        ringState = RING_CATCHING_UP;
        resyncFloor = ring.position();
        cachedReadPosition = resyncFloor;
        catchUpFrom = fromSequence;
        catchUpNext = fromSequence;
        catchUpMissing = 0;
        stallSinceNanos = 0;
        stateSinceNanos = nowNanos;
    }

    void goLive()
    {
        ringState = RING_LIVE;
    }

    /**
     * Moves the consumer to the shared log: what is staged goes out, then its ring gets nothing more (a lap or a
     * catch-up in progress ends here; the consumer recovers any gap from the log's side).
     */
    void readLog()
    {
        flushRing();
        remote.writeLong(ConsumerRegionDescriptor.LAP_POSITION_OFFSET, ConsumerRegionDescriptor.NOT_LAPPED);
        ringState = RING_LIVE;
        readsLog = true;
    }

    /**
     * Sends a control message; any failure other than back pressure ends the session, and back pressure on a small
     * message means the consumer stopped reading its control channel, which ends it too.
     */
    boolean send(final ControlFlyweight message, final int length)
    {
        if (null == channel)
        {
            return false;
        }
        final int result = channel.offer(message.buffer(), message.offset(), length);
        if (result != TransportResult.OK)
        {
            requestClose("control send failed: " + TransportResult.describe(result));
            return false;
        }
        return true;
    }

    /**
     * Sends a notice the consumer can do without (a heartbeat, a LAPPED whose news the region's lap notice carries
     * too). While the session's snapshot is under way its channel is full of it by design, so back pressure then
     * skips the notice instead of ending the session (the consumer that reads its snapshot knows the publisher is
     * there; one that never reads is dropped at its heartbeat timeout); otherwise as {@link #send}.
     */
    void sendNotice(final ControlFlyweight message, final int length)
    {
        if (snapshot.state == SessionSnapshot.IDLE || null == channel)
        {
            send(message, length);
            return;
        }
        final int result = channel.offer(message.buffer(), message.offset(), length);
        if (result != TransportResult.OK && result != TransportResult.BACK_PRESSURED)
        {
            requestClose("control send failed: " + TransportResult.describe(result));
        }
    }

    void requestClose(final String reason)
    {
        if (!closeRequested)
        {
            closeRequested = true;
            closeReason = reason;
        }
    }

    /** Releases the connection and the consumer's region; the pooled regions stay registered for reuse. */
    void release()
    {
        if (null != channel)
        {
            channel.close();
        }
        if (null != remote)
        {
            remote.close();
        }
        ring.detach();
        table.detach();
        depthTable.detach();
        channel = null;
        remote = null;
        name = null;
        ringSlots = 0;
        readsLog = false;
        snapshot.clear();
        state = FREE;
        closeRequested = false;
    }
}
