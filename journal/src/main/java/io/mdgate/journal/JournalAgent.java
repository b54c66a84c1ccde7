package io.mdgate.journal;

import io.mdgate.core.tick.ControlledTickHandler;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.ticklog.TickLogReader;
import org.agrona.DirectBuffer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.Position;

import java.nio.file.Path;
import java.util.function.LongSupplier;

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
 * <p>
 * When the filesystem has no room for the next record ({@link JournalWriter#NO_SPACE}), that record and everything
 * after it stay where they are (in the ring, unread in the tick log, so a reader following the journal never sees
 * them), {@code journal.no_space} becomes 1 and the duty cycle throws a {@link JournalSpaceException}, once, which
 * ends the agent's runner; from then on the agent appends nothing. (A filesystem with less than
 * {@link JournalSpace#START_FREE_BYTES} free is refused before, when the journal opens.)
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
    private final ControlledMessageHandler handler = this::onMessage;
    private final ControlledTickHandler logAppender = this::appendFromLog;
    private final Path directory;
    private final LongSupplier freeBytes;
    private final AtomicCounter noSpaceState;
    private volatile JournalSpaceException noSpace;
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
        final AtomicCounter[] counters,
        final Path directory,
        final LongSupplier freeBytes)
    {
        this.directory = directory;
        this.freeBytes = freeBytes;
        this.noSpaceState = counters[JournalCounterDescriptor.NO_SPACE.ordinal()];
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
        if (null != noSpace)
        {
            return 0;
        }
        int work = ring.controlledRead(handler, drainLimit);
        if (tickSource != null && null == noSpace)
        {
            work += tickSource.controlledPoll(logAppender, drainLimit);
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
        if (null != noSpace)
        {
            noSpaceState.setRelease(1);
            throw noSpace;
        }
        return work;
    }

    /**
     * Appends what is left, then closes the appenders. A full filesystem met while draining is thrown after the
     * close, to be reported as it would have been in a duty cycle.
     */
    @Override
    public void onClose()
    {
        writer.start();
        JournalSpaceException full = null;
        try
        {
            while (doWork() > 0)
            {
                Thread.onSpinWait();
            }
        }
        catch (final JournalSpaceException ex)
        {
            full = ex;
        }
        writer.close();
        if (null != full)
        {
            throw full;
        }
    }

    /**
     * @return why the agent stopped appending, when its filesystem had no room for a record, else null. Any thread.
     */
    public JournalSpaceException noSpace()
    {
        return noSpace;
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

    private boolean appendFromLog(final DirectBuffer buffer, final int offset)
    {
        if (writer.appendTick(buffer, offset) == JournalWriter.NO_SPACE)
        {
            refuse();
            return false;
        }
        if (appended != null)
        {
            appended.onTick(buffer, offset);
        }
        return true;
    }

    private ControlledMessageHandler.Action onMessage(
        final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        int result = JournalWriter.OK;
        if (msgTypeId == JournalPublisher.TICK_MESSAGE)
        {
            result = writer.appendTick(buffer, index);
        }
        else if (msgTypeId == JournalPublisher.PACKET_MESSAGE)
        {
            result = writer.appendPacket(buffer, index, length);
        }
        if (result == JournalWriter.NO_SPACE)
        {
            refuse();
            return ControlledMessageHandler.Action.ABORT;
        }
        return ControlledMessageHandler.Action.CONTINUE;
    }

    /** The filesystem has no room for a record: stop appending (once; the statvfs and the message are not per tick). */
    private void refuse()
    {
        if (null == noSpace)
        {
            noSpace = new JournalSpaceException(directory, freeBytes.getAsLong(), writer.lastSequence());
        }
    }

    private void applyRetention()
    {
        cyclesDeleted.getAndAddRelease(retention.apply(ticks) + retention.apply(packets));
    }
}
