package io.mdgate.egress.consumer;

import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.SharedLogReader;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.SharedLog;
import io.mdgate.egress.transport.TransportException;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads the publisher's shared tick log ({@link io.mdgate.egress.protocol.SharedLogDescriptor}) for a consumer
 * subscribed to every instrument, in log order from the position the publisher's answer gave: runs of up to 64
 * ticks copied at once and checked against their stamps, then handed as a run to the {@link StreamReader},
 * which delivers them in sequence order and recovers any gap over the control channel (RECOVER) while holding the
 * live ticks after it. When the writer has lapped it, it counts the lap, skips to half a log behind the writer,
 * and the ticks it skipped come back as such a gap. It reports the last delivered sequence into the position
 * region, so the publisher sees its lag as for a ring.
 * <p>
 * Threading: the consumer's polling thread. {@link #poll} is allocation-free; opening maps the log.
 */
final class SharedLogFollower
{
    private final ConsumerCounters counters;
    private final StreamReader stream;
    private static final int RUN = 64;

    private final UnsafeBuffer run = new UnsafeBuffer(BufferUtil.allocateDirectAligned(RUN * TickLayout.LENGTH, 64));
    private SharedLog log;
    private SharedLogReader reader;
    private RemoteRegion positions;
    private final EgressConsumer consumer;
    private long position;
    private long reported = -1;
    private boolean following;

    SharedLogFollower(final EgressConsumer consumer, final ConsumerCounters counters, final StreamReader stream)
    {
        this.consumer = consumer;
        this.counters = counters;
        this.stream = stream;
    }

    /**
     * Maps the log of {@code streamId} if the transport has one.
     *
     * @return null when it is mapped and valid, else why not (the consumer then keeps its ring).
     */
    String open(final EgressTransport transport, final int streamId, final RemoteRegion positions)
    {
        close();
        try
        {
            final SharedLog opened = transport.openSharedLog(streamId);
            if (null == opened)
            {
                return "the " + transport.name() + " transport has no shared log";
            }
            final String problem = SharedLogReader.check(opened.buffer(), streamId);
            if (null != problem)
            {
                opened.close();
                return problem;
            }
            log = opened;
            reader = new SharedLogReader(opened.buffer());
            this.positions = positions;
            return null;
        }
        catch (final TransportException ex)
        {
            return ex.getMessage();
        }
    }

    boolean isOpen()
    {
        return null != reader;
    }

    boolean following()
    {
        return following;
    }

    /**
     * Starts delivering from log position {@code from}, which holds sequence {@code liveSequence}; ticks owed from
     * {@code fromSequence} up to it are recovered over the control channel first.
     */
    void start(final long from, final long fromSequence, final long liveSequence)
    {
        position = from;
        stream.follow(fromSequence, liveSequence);
        following = true;
        reported = -1;
    }

    /** @return ticks read from the log. */
    int poll(final int limit)
    {
        int read = 0;
        while (read < limit)
        {
            final int copied = reader.readRun(position, Math.min(RUN, limit - read), run, 0);
            if (copied > 0)
            {
                position += copied;
                read += copied;
                stream.onLogRun(run, copied);
                continue;
            }
            if (copied < 0)
            {
                skipAhead();
                continue;
            }
            break;
        }
        stream.recoverBehindLog();
        final long delivered = consumer.lastDeliveredSequence();
        if (delivered != reported)
        {
            reported = delivered;
            positions.writeLong(PositionRegionDescriptor.DELIVERED_SEQUENCE_OFFSET, delivered);
        }
        return read;
    }

    private void skipAhead()
    {
        counters.laps++;
        final long resume = Math.max(position + 1, reader.tail() - reader.slots() / 2);
        counters.logTicksSkipped += resume - position;
        position = resume;
    }

    long position()
    {
        return position;
    }

    /** Stops following and unmaps the log. */
    void close()
    {
        following = false;
        reader = null;
        positions = null;
        if (null != log)
        {
            log.close();
            log = null;
        }
    }
}
