package io.mdgate.egress.consumer;

import io.mdgate.egress.protocol.StreamDatagramDescriptor;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.DatagramHandler;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.mdgate.egress.protocol.StreamDatagramDescriptor.*;

/**
 * Follows the multicast stream ({@link StreamDatagramDescriptor}), or the shared tick log's ticks handed over by the
 * {@link SharedLogFollower}: checks each datagram, counts datagrams missing
 * from the datagram sequence, and detects gaps in the tick sequence (including a lost last datagram, from the
 * heartbeat). A gap is recovered over the control channel while the live ticks after it are held, in order, in a
 * bounded pending buffer; when recovery ends they are delivered after the recovered ones. A pending buffer that
 * overflows, or a second gap while one is recovered, is simply found again as a gap afterwards.
 * <p>
 * Threading: the consumer's polling thread. Allocation-free after construction.
 */
final class StreamReader implements DatagramHandler
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int TICK = TickLayout.LENGTH;

    private final EgressConsumer consumer;
    private final ConsumerCounters counters;
    private final UnsafeBuffer pending;
    private final long[] pendingSendTimestamps;
    private final int pendingCapacity;
    private int streamId;
    private long publisherEpoch;
    private long nextDatagram = -1;
    private long next;
    private boolean recovering;
    private int pendingCount;
    private long pendingFirst;
    private boolean pendingBroken;
    private long highestLogSequence;
    /** The sequence of the last snapshot received: live ticks at or below it are counted as covered by it. */
    private long snapshotSequence;

    StreamReader(final EgressConsumer consumer, final ConsumerCounters counters, final int pendingCapacity)
    {
        this.consumer = consumer;
        this.counters = counters;
        this.pendingCapacity = pendingCapacity;
        this.pending = new UnsafeBuffer(BufferUtil.allocateDirectAligned(pendingCapacity * TICK, 64));
        this.pendingSendTimestamps = new long[pendingCapacity];
    }

    /**
     * Starts following stream {@code streamId}, expecting tick {@code firstSequence} unless already further on.
     */
    void start(final int streamId, final long firstSequence)
    {
        this.streamId = streamId;
        if (next == 0)
        {
            next = firstSequence;
        }
        nextDatagram = -1;
        abandonRecovery();
    }

    /**
     * Starts taking the shared log's ticks ({@link #onLogTick}), owing every tick from {@code firstSequence}; when the
     * live ticks start later ({@code liveSequence}), the range between is recovered at once.
     */
    void follow(final long firstSequence, final long liveSequence)
    {
        next = firstSequence;
        nextDatagram = -1;
        highestLogSequence = 0;
        abandonRecovery();
        if (liveSequence > firstSequence)
        {
            startRecovery(firstSequence, liveSequence - 1);
        }
    }

    /**
     * A run of {@code count} live ticks copied from the shared log, at offsets 0, 64, ... of {@code buffer}: while
     * nothing is being recovered, the ticks that continue the sequence go to the consumer as a run, and the rest
     * (from the first that does not) one by one through {@link #onLogTick}.
     */
    void onLogRun(final DirectBuffer buffer, final int count)
    {
        int done = 0;
        if (!recovering)
        {
            done = consumer.deliverLogRun(buffer, count, next);
            if (done > 0)
            {
                next += done;
                highestLogSequence = Math.max(highestLogSequence, next - 1);
            }
        }
        for (int offset = done * TICK; done < count; done++, offset += TICK)
        {
            onLogTick(buffer, offset, buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET, LE));
        }
    }

    /** A live tick read from the shared log; {@code receiveTimestamp} is what its latency is measured from. */
    void onLogTick(final DirectBuffer buffer, final int offset, final long receiveTimestamp)
    {
        final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
        highestLogSequence = Math.max(highestLogSequence, sequence);
        onLiveTick(buffer, offset, sequence, receiveTimestamp);
    }

    /**
     * The shared log's counterpart of the stream heartbeat: when a recovery ended with ticks already read from the
     * log still undelivered (dropped because the pending buffer overflowed, or skipped by a lap while recovering),
     * recovers them now rather than when the next live tick shows the gap.
     */
    void recoverBehindLog()
    {
        if (!recovering && next <= highestLogSequence)
        {
            startRecovery(next, highestLogSequence);
        }
    }

    /** Forgets a recovery in progress (the connection carrying it is gone); the gap will be found again. */
    void abandonRecovery()
    {
        recovering = false;
        pendingCount = 0;
        pendingBroken = false;
    }

    long next()
    {
        return next;
    }

    /**
     * A snapshot at {@code sequence} was delivered: expect the tick after it (ticks at or below it are dropped and
     * counted). A recovery still running when the snapshot was asked for was abandoned then; its late ticks are
     * below the snapshot's sequence.
     */
    void skipTo(final long sequence)
    {
        snapshotSequence = Math.max(snapshotSequence, sequence);
        next = Math.max(next, sequence + 1);
    }

    boolean recovering()
    {
        return recovering;
    }

    @Override
    public void onDatagram(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HEADER_LENGTH || buffer.getByte(offset + VERSION_OFFSET) != VERSION ||
            buffer.getInt(offset + STREAM_ID_OFFSET, LE) != streamId ||
            buffer.getShort(offset + TICK_LENGTH_OFFSET, LE) != TICK)
        {
            counters.malformed++;
            return;
        }
        final int count = buffer.getShort(offset + TICK_COUNT_OFFSET, LE) & 0xFFFF;
        if (HEADER_LENGTH + count * TICK > length)
        {
            counters.malformed++;
            return;
        }
        trackDatagramSequence(buffer, offset);
        final long first = buffer.getLong(offset + FIRST_TICK_SEQUENCE_OFFSET, LE);
        final byte type = buffer.getByte(offset + TYPE_OFFSET);
        if (type == TYPE_HEARTBEAT)
        {
            if (!recovering && first > next)
            {
                startRecovery(next, first - 1);
            }
            return;
        }
        final long sendTimestamp = buffer.getLong(offset + SEND_TIMESTAMP_OFFSET, LE);
        for (int i = 0; i < count; i++)
        {
            onLiveTick(buffer, offset + HEADER_LENGTH + i * TICK, first + i, sendTimestamp);
        }
    }

    private void trackDatagramSequence(final DirectBuffer buffer, final int offset)
    {
        final long epoch = buffer.getLong(offset + PUBLISHER_EPOCH_OFFSET, LE);
        final long sequence = buffer.getLong(offset + DATAGRAM_SEQUENCE_OFFSET, LE);
        if (epoch == publisherEpoch && nextDatagram >= 0 && sequence > nextDatagram)
        {
            counters.datagramsLost += sequence - nextDatagram;
        }
        publisherEpoch = epoch;
        nextDatagram = sequence + 1;
    }

    private void onLiveTick(final DirectBuffer buffer, final int offset, final long sequence, final long sendTimestamp)
    {
        if (recovering)
        {
            hold(buffer, offset, sequence, sendTimestamp);
        }
        else if (sequence == next)
        {
            next = sequence + 1;
            consumer.deliverFromStream(buffer, offset, sendTimestamp);
        }
        else if (sequence > next)
        {
            startRecovery(next, sequence - 1);
            hold(buffer, offset, sequence, sendTimestamp);
        }
        else if (sequence <= snapshotSequence)
        {
            counters.snapshotSkipped++;
        }
    }

    private void startRecovery(final long from, final long to)
    {
        recovering = true;
        counters.gaps++;
        consumer.requestRecovery(from, to);
    }

    private void hold(final DirectBuffer buffer, final int offset, final long sequence, final long sendTimestamp)
    {
        if (pendingBroken)
        {
            return;
        }
        if (pendingCount > 0)
        {
            final long expected = pendingFirst + pendingCount;
            if (sequence < expected)
            {
                return;
            }
            if (sequence > expected)
            {
                pendingBroken = true;
                return;
            }
        }
        if (pendingCount == pendingCapacity)
        {
            counters.pendingOverflows++;
            pendingBroken = true;
            return;
        }
        if (pendingCount == 0)
        {
            pendingFirst = sequence;
        }
        pending.putBytes(pendingCount * TICK, buffer, offset, TICK);
        pendingSendTimestamps[pendingCount++] = sendTimestamp;
    }

    /** A recovered tick arrived over the control channel. */
    void onRecovered(final DirectBuffer buffer, final int offset)
    {
        final long sequence = buffer.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE);
        if (sequence >= next)
        {
            next = sequence + 1;
            consumer.deliverFromStream(buffer, offset, 0);
        }
        else if (sequence <= snapshotSequence)
        {
            counters.snapshotSkipped++;
        }
    }

    /** The recovery of {@code from..to} ended: deliver what was held after it. */
    void onRecoveryEnd(final long to)
    {
        if (!recovering)
        {
            return;
        }
        recovering = false;
        next = Math.max(next, to + 1);
        int i = 0;
        for (; i < pendingCount; i++)
        {
            final long sequence = pendingFirst + i;
            if (sequence < next)
            {
                continue;
            }
            if (sequence > next)
            {
                break;
            }
            next = sequence + 1;
            consumer.deliverFromStream(pending, i * TICK, pendingSendTimestamps[i]);
        }
        if (i < pendingCount)
        {
            final long gapEnd = pendingFirst + i - 1;
            final int remaining = pendingCount - i;
            pending.putBytes(0, pending, i * TICK, remaining * TICK);
            System.arraycopy(pendingSendTimestamps, i, pendingSendTimestamps, 0, remaining);
            pendingFirst += i;
            pendingCount = remaining;
            startRecovery(next, gapEnd);
            return;
        }
        pendingCount = 0;
        pendingBroken = false;
    }
}
