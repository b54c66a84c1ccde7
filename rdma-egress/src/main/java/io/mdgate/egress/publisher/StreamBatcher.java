package io.mdgate.egress.publisher;

import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.egress.protocol.StreamDatagramDescriptor;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

import static io.mdgate.egress.protocol.StreamDatagramDescriptor.*;

/**
 * Batches every tick into multicast datagrams ({@link StreamDatagramDescriptor}): a datagram is sent when it is
 * full, when the next tick does not follow its last one, or when its first tick has waited the batch budget; a
 * heartbeat goes out when nothing was sent for the heartbeat interval. Datagrams are assembled in a few rotating
 * buffers of a registered region, so a verbs send may still be in flight while the next one fills.
 * <p>
 * Threading: the publisher's thread. Allocation-free.
 */
final class StreamBatcher
{
    private static final int SEND_BUFFERS = 8;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final MulticastPublication publication;
    private final MemoryRegion region;
    private final AtomicBuffer buffer;
    private final EpochNanoClock epochClock;
    private final int streamId;
    private final long publisherEpoch;
    private final int bufferLength;
    private final int maxTicks;
    private final long budgetNanos;
    private final long heartbeatNanos;

    private int current;
    private int tickCount;
    private long firstSequence;
    private long firstTickNanos;
    private long nextSequence;
    private long datagramSequence;
    private long lastSendNanos;
    private final AtomicCounter datagramsSent;
    private final AtomicCounter heartbeatsSent;
    private long sendFailures;

    StreamBatcher(
        final MulticastPublication publication,
        final MemoryRegion region,
        final EpochNanoClock epochClock,
        final long publisherEpoch,
        final long budgetNanos,
        final long heartbeatNanos,
        final long firstSequence,
        final AtomicCounter datagramsSent,
        final AtomicCounter heartbeatsSent)
    {
        this.datagramsSent = datagramsSent;
        this.heartbeatsSent = heartbeatsSent;
        this.publication = publication;
        this.region = region;
        this.buffer = region.buffer();
        this.epochClock = epochClock;
        this.streamId = publication.streamId();
        this.publisherEpoch = publisherEpoch;
        this.bufferLength = (publication.maxDatagramLength() + 63) & ~63;
        this.maxTicks = StreamDatagramDescriptor.maxTicks(publication.maxDatagramLength());
        this.budgetNanos = budgetNanos;
        this.heartbeatNanos = heartbeatNanos;
        this.nextSequence = firstSequence;
        if (maxTicks < 1 || region.length() < bufferLength * SEND_BUFFERS)
        {
            throw new IllegalArgumentException("the MTU " + publication.maxDatagramLength() + " fits no tick");
        }
    }

    /** @return bytes of registered memory the batcher needs for a given MTU. */
    static int regionLength(final int mtu)
    {
        return ((mtu + 63) & ~63) * SEND_BUFFERS;
    }

    /**
     * @param tick     the tick's buffer.
     * @param offset   of the tick.
     * @param sequence its gateway sequence.
     * @param nowNanos the duty cycle's clock.
     */
    void append(final DirectBuffer tick, final int offset, final long sequence, final long nowNanos)
    {
        if (tickCount > 0 && sequence != firstSequence + tickCount)
        {
            send(nowNanos);
        }
        if (tickCount == 0)
        {
            firstSequence = sequence;
            firstTickNanos = nowNanos;
        }
        buffer.putBytes(current * bufferLength + HEADER_LENGTH + tickCount * TickLayout.LENGTH,
            tick, offset, TickLayout.LENGTH);
        tickCount++;
        nextSequence = sequence + 1;
        if (tickCount == maxTicks)
        {
            send(nowNanos);
        }
    }

    /**
     * Sends the pending datagram when its budget is spent, or a heartbeat when idle long enough.
     *
     * @return datagrams sent.
     */
    int doWork(final long nowNanos)
    {
        if (tickCount > 0)
        {
            if (nowNanos - firstTickNanos >= budgetNanos)
            {
                send(nowNanos);
                return 1;
            }
        }
        else if (nowNanos - lastSendNanos >= heartbeatNanos)
        {
            sendHeartbeat(nowNanos);
            return 1;
        }
        return 0;
    }

    /** Sends whatever is pending now, whatever the budget. */
    void flush(final long nowNanos)
    {
        if (tickCount > 0)
        {
            send(nowNanos);
        }
    }

    private void send(final long nowNanos)
    {
        final int offset = current * bufferLength;
        writeHeader(offset, TYPE_DATA, firstSequence, tickCount);
        offer(offset, HEADER_LENGTH + tickCount * TickLayout.LENGTH, nowNanos);
        datagramsSent.incrementRelease();
        tickCount = 0;
    }

    private void sendHeartbeat(final long nowNanos)
    {
        final int offset = current * bufferLength;
        writeHeader(offset, TYPE_HEARTBEAT, nextSequence, 0);
        offer(offset, HEADER_LENGTH, nowNanos);
        heartbeatsSent.incrementRelease();
    }

    private void writeHeader(final int offset, final byte type, final long firstTickSequence, final int count)
    {
        buffer.putByte(offset + VERSION_OFFSET, VERSION);
        buffer.putByte(offset + TYPE_OFFSET, type);
        buffer.putShort(offset + TICK_LENGTH_OFFSET, (short)TickLayout.LENGTH, LE);
        buffer.putInt(offset + STREAM_ID_OFFSET, streamId, LE);
        buffer.putLong(offset + DATAGRAM_SEQUENCE_OFFSET, datagramSequence++, LE);
        buffer.putLong(offset + FIRST_TICK_SEQUENCE_OFFSET, firstTickSequence, LE);
        buffer.putLong(offset + PUBLISHER_EPOCH_OFFSET, publisherEpoch, LE);
        buffer.putShort(offset + TICK_COUNT_OFFSET, (short)count, LE);
        buffer.putShort(offset + SCHEMA_ID_OFFSET, (short)TickEncoder.SCHEMA_ID, LE);
        buffer.putShort(offset + SCHEMA_VERSION_OFFSET, (short)TickEncoder.SCHEMA_VERSION, LE);
        buffer.putLong(offset + SEND_TIMESTAMP_OFFSET, epochClock.nanoTime(), LE);
    }

    private void offer(final int offset, final int length, final long nowNanos)
    {
        if (publication.offer(region, offset, length) != TransportResult.OK)
        {
            sendFailures++; // unreliable channel: receivers see the gap and recover it
        }
        lastSendNanos = nowNanos;
        current = (current + 1) % SEND_BUFFERS;
    }

    long datagramsSent()
    {
        return datagramsSent.get();
    }

    long heartbeatsSent()
    {
        return heartbeatsSent.get();
    }

    long sendFailures()
    {
        return sendFailures;
    }

    int maxTicks()
    {
        return maxTicks;
    }
}
