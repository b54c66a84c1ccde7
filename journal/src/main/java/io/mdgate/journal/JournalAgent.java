package io.mdgate.journal;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.ticklog.TickLogReader;
import org.agrona.DirectBuffer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.Position;

/**
 * The journal's duty cycle: drains the ring the core fills through the {@link JournalPublisher}, appends each tick
 * and packet to its queue, then publishes the gateway sequence of the last tick appended as the journaled position
 * ({@link TickJournal#journaledSequence()}). A tick at or below that position is in the journal's files and survives
 * a crash of the process. When a new cycle starts, old cycles beyond the retention are deleted.
 * <p>
 * {@link #onStart()} creates the queue appenders, so the agent must run its whole life on one thread (an
 * {@code AgentRunner}, or an {@code AgentInvoker} on one thread). {@link #onClose()} drains what is left in the
 * ring, then closes the appenders: stop publishing before closing the agent. Its thread updates the journal's
 * counters ({@link JournalCounterDescriptor}) as it appends, {@code journal.position} with the journaled position.
 */
public final class JournalAgent implements Agent
{
    private final JournalWriter writer;
    private final RingBuffer ring;
    private final int drainLimit;
    private final Position journaled;
    private final Retention retention;
    private final SingleChronicleQueue ticks;
    private final SingleChronicleQueue packets;
    private final MessageHandler handler = this::onMessage;
    private final TickHandler logAppender = this::appendFromLog;
    private TickLogReader tickSource;
    private TickHandler appended;
    private final AtomicCounter position;
    private final AtomicCounter cyclesDeleted;
    private int lastCycle = Integer.MIN_VALUE;

    JournalAgent(
        final JournalWriter writer,
        final RingBuffer ring,
        final int drainLimit,
        final Position journaled,
        final Retention retention,
        final SingleChronicleQueue ticks,
        final SingleChronicleQueue packets,
        final AtomicCounter[] counters)
    {
        this.position = counters[JournalCounterDescriptor.POSITION.ordinal()];
        this.cyclesDeleted = counters[JournalCounterDescriptor.CYCLES_DELETED.ordinal()];
        this.writer = writer;
        this.ring = ring;
        this.drainLimit = drainLimit;
        this.journaled = journaled;
        this.retention = retention;
        this.ticks = ticks;
        this.packets = packets;
    }

    /**
     * Makes the agent append the ticks of a tick log as well as what its ring brings: each duty cycle it takes up to
     * its drain limit from the reader, appends each, then moves the reader on, so the reader's position never passes
     * what is in the journal's files. Call before the agent starts.
     *
     * @param reader   the journal's reader of the log.
     * @param appended told of each tick once it is appended (e.g. to measure its latency), or null.
     * @return this agent.
     */
    public JournalAgent tickSource(final TickLogReader reader, final TickHandler appended)
    {
        this.tickSource = reader;
        this.appended = appended;
        return this;
    }

    @Override
    public void onStart()
    {
        writer.start();
        applyRetention();
    }

    @Override
    public int doWork()
    {
        int work = ring.read(handler, drainLimit);
        if (tickSource != null)
        {
            work += tickSource.poll(logAppender, drainLimit);
        }
        if (work > 0)
        {
            journaled.setRelease(writer.lastSequence());
            position.setRelease(writer.lastSequence());
            if (writer.tickCycle() != lastCycle)
            {
                lastCycle = writer.tickCycle();
                applyRetention();
            }
        }
        return work;
    }

    @Override
    public void onClose()
    {
        writer.start();
        while (doWork() > 0)
        {
            Thread.onSpinWait();
        }
        writer.close();
    }

    @Override
    public String roleName()
    {
        return "journal";
    }

    /** @return ticks appended since the journal opened. */
    public long ticksAppended()
    {
        return writer.ticksAppended();
    }

    /** @return packets appended since the journal opened. */
    public long packetsAppended()
    {
        return writer.packetsAppended();
    }

    /** @return ticks refused because their sequence did not follow the last one journaled (a fault upstream). */
    public long ticksOutOfSequence()
    {
        return writer.outOfSequence();
    }

    /** @return packet records refused as malformed. */
    public long malformedPackets()
    {
        return writer.malformedPackets();
    }

    /** @return cycle files deleted by retention. */
    public long cyclesDeleted()
    {
        return cyclesDeleted.get();
    }

    private void appendFromLog(final DirectBuffer buffer, final int offset)
    {
        writer.appendTick(buffer, offset);
        if (appended != null)
        {
            appended.onTick(buffer, offset);
        }
    }

    private void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        if (msgTypeId == JournalPublisher.TICK_MESSAGE)
        {
            writer.appendTick(buffer, index);
        }
        else if (msgTypeId == JournalPublisher.PACKET_MESSAGE)
        {
            writer.appendPacket(buffer, index, length);
        }
    }

    private void applyRetention()
    {
        cyclesDeleted.getAndAddRelease(retention.apply(ticks) + retention.apply(packets));
    }
}
