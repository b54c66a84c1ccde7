package io.mdgate.runtime;

import io.mdgate.runtime.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.ticklog.TickLogReader;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.journal.JournalAgent;
import io.mdgate.journal.TickJournal;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

/**
 * The journal stage: runs the {@link TickJournal}'s {@link JournalAgent}, which appends the ticks of its
 * {@link TickLogReader} (and the raw packets of its ring), measures {@code ingress_to_journal} for every tick
 * appended (from the tick's receive time, on the clock every stage uses) and publishes the journal's counters every
 * millisecond ({@code journal.position} is the last gateway sequence journaled: a tick at or below it survives a
 * crash of the process).
 * <p>
 * Threading: the agent's thread, as {@link JournalAgent} requires.
 */
final class JournalStage implements Agent, TickHandler
{
    private static final long PUBLISH_INTERVAL_NANOS = 1_000_000L;

    private final TickJournal journal;
    private final JournalAgent agent;
    private final StageLatency latency;
    private final EpochNanoClock clock;
    private final AtomicCounter position;
    private final AtomicCounter ticks;
    private final AtomicCounter packets;
    private final AtomicCounter outOfSequence;
    private final AtomicCounter malformedPackets;
    private final AtomicCounter backPressured;
    private final AtomicCounter oversizedPackets;
    private final AtomicCounter cyclesDeleted;
    private long lastPublishNanos;

    JournalStage(final TickJournal journal, final TickLogReader reader, final StageLatency latency,
        final EpochNanoClock clock, final CountersFileWriter counters)
    {
        this.journal = journal;
        this.agent = journal.agent().tickSource(reader, this);
        this.latency = latency;
        this.clock = clock;
        position = counters.newCounter("journal.position", CounterType.POSITION);
        ticks = counters.newCounter("journal.ticks", CounterType.TOTAL);
        packets = counters.newCounter("journal.packets", CounterType.TOTAL);
        outOfSequence = counters.newCounter("journal.ticks_out_of_sequence", CounterType.TOTAL);
        malformedPackets = counters.newCounter("journal.malformed_packets", CounterType.TOTAL);
        backPressured = counters.newCounter("journal.back_pressured", CounterType.TOTAL);
        oversizedPackets = counters.newCounter("journal.oversized_packets", CounterType.TOTAL);
        cyclesDeleted = counters.newCounter("journal.cycles_deleted", CounterType.TOTAL);
        position.setRelease(journal.journaledSequence());
    }

    @Override
    public void onStart()
    {
        agent.onStart();
        lastPublishNanos = System.nanoTime();
    }

    @Override
    public int doWork()
    {
        final int work = agent.doWork();
        final long now = System.nanoTime();
        if (now - lastPublishNanos >= PUBLISH_INTERVAL_NANOS)
        {
            lastPublishNanos = now;
            publishCounters();
        }
        return work;
    }

    /** A tick just appended. */
    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        latency.record(clock.nanoTime() - buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET,
            ByteOrder.LITTLE_ENDIAN));
    }

    private void publishCounters()
    {
        position.setRelease(journal.journaledSequence());
        ticks.setRelease(agent.ticksAppended());
        packets.setRelease(agent.packetsAppended());
        outOfSequence.setRelease(agent.ticksOutOfSequence());
        malformedPackets.setRelease(agent.malformedPackets());
        backPressured.setRelease(journal.publisher().backPressured());
        oversizedPackets.setRelease(journal.publisher().oversizedPackets());
        cyclesDeleted.setRelease(agent.cyclesDeleted());
    }

    /** Appends what is left in the log and the packet ring and closes the appenders; the journal stays open. */
    @Override
    public void onClose()
    {
        agent.onClose();
        publishCounters();
    }

    @Override
    public String roleName()
    {
        return "journal";
    }
}
