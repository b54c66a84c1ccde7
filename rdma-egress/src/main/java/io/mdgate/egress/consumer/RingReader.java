package io.mdgate.egress.consumer;

import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.RingSlotReader;
import io.mdgate.egress.transport.RemoteRegion;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads the consumer's ring in position order through a {@link RingSlotReader} (each slot copied, then checked),
 * reports the read position back to the gateway with a one-sided write after each poll that read something, and
 * notices when the gateway stopped the ring because this consumer fell a whole ring behind.
 * <p>
 * Threading: the consumer's polling thread. Allocation-free.
 */
final class RingReader
{
    private final EgressConsumer consumer;
    private final ConsumerCounters counters;
    private final UnsafeBuffer slot = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
    private AtomicBuffer region;
    private RingSlotReader reader;
    private RemoteRegion positions;
    private long position;
    private boolean resyncPending;

    RingReader(final EgressConsumer consumer, final ConsumerCounters counters)
    {
        this.consumer = consumer;
        this.counters = counters;
    }

    void attach(final AtomicBuffer region, final int ringSlots, final RemoteRegion positions)
    {
        this.region = region;
        this.reader = new RingSlotReader(region, ringSlots);
        this.positions = positions;
        this.position = 0;
        this.resyncPending = false;
    }

    void detach()
    {
        region = null;
        reader = null;
        positions = null;
    }

    boolean isAttached()
    {
        return null != reader;
    }

    /** @return slots read. */
    int poll(final int limit)
    {
        // While a resync is pending the slots ahead may be live ticks written before the gateway took the RESYNC;
        // delivering them would move the delivered sequence past the range the resync is about to replay.
        if (null == reader || resyncPending)
        {
            return 0;
        }
        int read = 0;
        while (read < limit)
        {
            final int result = reader.read(position, slot, 0);
            if (result == RingSlotReader.READ)
            {
                position++;
                read++;
                consumer.deliverFromRing(slot, 0);
                continue;
            }
            if (result == RingSlotReader.TORN)
            {
                counters.tornReads++;
            }
            else if (result == RingSlotReader.AHEAD)
            {
                counters.malformed++;
                requestResync();
            }
            else if (!resyncPending &&
                region.getLongVolatile(ConsumerRegionDescriptor.LAP_POSITION_OFFSET) == position)
            {
                counters.laps++;
                requestResync();
            }
            break;
        }
        if (read > 0)
        {
            report();
        }
        return read;
    }

    private void requestResync()
    {
        if (!resyncPending)
        {
            resyncPending = true;
            consumer.requestResync();
        }
    }

    /** Asks for a resync (e.g. after a reconnect) unless one is already under way. */
    void resync()
    {
        requestResync();
    }

    /** Stops reading the ring for good (the consumer moved to the shared log): no resync is awaited any more. */
    void stop()
    {
        detach();
        resyncPending = false;
    }

    /** The gateway replays from here on. */
    void onResynced(final long ringPosition)
    {
        if (null == reader)
        {
            return;
        }
        position = ringPosition;
        resyncPending = false;
        report();
    }

    private void report()
    {
        positions.writeLong(PositionRegionDescriptor.READ_POSITION_OFFSET, position);
        positions.writeLong(PositionRegionDescriptor.DELIVERED_SEQUENCE_OFFSET, consumer.lastDeliveredSequence());
    }

    boolean resyncPending()
    {
        return resyncPending;
    }

    long position()
    {
        return position;
    }
}
