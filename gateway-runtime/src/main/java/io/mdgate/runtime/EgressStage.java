package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.egress.TickArchive;
import io.mdgate.core.ticklog.TickLogReader;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.publisher.ConsumerVisitor;
import io.mdgate.egress.publisher.EgressPublisher;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * The egress stage: reads the tick log at its own position (behind the journal's when there is a journal, so no
 * consumer is ever given a tick the journal does not hold) and publishes each tick through the
 * {@link EgressPublisher} (multicast stream, consumers' rings and tables, control, recovery), measuring
 * {@code ingress_to_egress} (from the tick's receive time, on the clock every stage uses) for each. Keeps the in-memory {@link TickArchive} for recovery when there is no journal.
 * The publisher keeps its own counters ({@code egress.*}) in the counters file its context was given; this stage
 * sets, every millisecond, those of each configured consumer: {@code egress.consumer.<name>.lag} (ticks published
 * and not yet reported delivered; -1 when the consumer reports no position, as one reading the multicast stream
 * does), {@code .delivered} and {@code .connected}.
 * <p>
 * {@link #onClose()} publishes what is left in the ring, then closes the publisher, which says goodbye to every
 * consumer. Threading: the agent's thread.
 */
final class EgressStage implements Agent, TickHandler, ConsumerVisitor
{
    private static final long PUBLISH_INTERVAL_NANOS = 1_000_000L;
    /** The lag of a consumer that reports no position: one on the multicast stream, or one that delivered nothing. */
    static final long LAG_UNKNOWN = -1;

    private final EgressPublisher publisher;
    private final TickLogReader reader;
    private final int inputLimit;
    private final TickArchive archive;
    private final StageLatency fromIngress;
    private final EpochNanoClock clock;
    private final Runnable onStart;
    private final Runnable onClose;
    private final String[] consumerNames;
    private final AtomicCounter[] lag;
    private final AtomicCounter[] delivered;
    private final AtomicCounter[] connected;
    private final boolean[] seen;
    private long lastPublishNanos;

    /**
     * @param archive       kept for recovery when there is no journal, else null.
     * @param consumerNames the configured consumers, each given its counters.
     * @param onStart       run first on the agent's thread (opens the journal's replay for recovery there).
     * @param onClose       run last on the agent's thread (closes that replay).
     */
    EgressStage(final EgressPublisher publisher, final TickLogReader reader, final int inputLimit,
        final TickArchive archive, final StageLatency fromIngress,
        final EpochNanoClock clock, final List<String> consumerNames, final Runnable onStart, final Runnable onClose,
        final CountersFileWriter counters)
    {
        this.publisher = publisher;
        this.reader = reader;
        this.inputLimit = inputLimit;
        this.archive = archive;
        this.fromIngress = fromIngress;
        this.clock = clock;
        this.onStart = onStart;
        this.onClose = onClose;
        this.consumerNames = consumerNames.toArray(new String[0]);
        final int n = this.consumerNames.length;
        lag = new AtomicCounter[n];
        delivered = new AtomicCounter[n];
        connected = new AtomicCounter[n];
        seen = new boolean[n];
        for (int i = 0; i < n; i++)
        {
            final String prefix = "egress.consumer." + this.consumerNames[i] + ".";
            lag[i] = counters.newCounter(prefix + "lag", CounterType.LEVEL);
            delivered[i] = counters.newCounter(prefix + "delivered", CounterType.POSITION);
            connected[i] = counters.newCounter(prefix + "connected", CounterType.STATE);
        }
    }

    @Override
    public void onStart()
    {
        onStart.run();
        lastPublishNanos = System.nanoTime();
    }

    @Override
    public int doWork()
    {
        int work = reader.poll(this, inputLimit);
        work += publisher.doWork();
        final long now = System.nanoTime();
        if (now - lastPublishNanos >= PUBLISH_INTERVAL_NANOS)
        {
            lastPublishNanos = now;
            publishCounters();
        }
        return work;
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        if (archive != null)
        {
            archive.onTick(buffer, offset);
        }
        publisher.onTick(buffer, offset);
        fromIngress.record(clock.nanoTime() -
            buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN));
    }

    @Override
    public void onConsumer(final String name, final long deliveredSequence)
    {
        for (int i = 0; i < consumerNames.length; i++)
        {
            if (consumerNames[i].equals(name))
            {
                seen[i] = true;
                connected[i].setRelease(1);
                delivered[i].setRelease(deliveredSequence);
                lag[i].setRelease(deliveredSequence == 0 ? LAG_UNKNOWN :
                    Math.max(0, publisher.lastPublishedSequence() - deliveredSequence));
                return;
            }
        }
    }

    private void publishCounters()
    {
        Arrays.fill(seen, false);
        publisher.forEachConsumer(this);
        for (int i = 0; i < seen.length; i++)
        {
            if (!seen[i])
            {
                connected[i].setRelease(0);
            }
        }
    }

    @Override
    public void onClose()
    {
        while (reader.poll(this, inputLimit) > 0)
        {
            publisher.doWork();
        }
        publisher.flush();
        publishCounters();
        for (final AtomicCounter flag : connected)
        {
            flag.setRelease(0);
        }
        publisher.close();
        onClose.run();
    }

    @Override
    public String roleName()
    {
        return "egress";
    }
}
