package io.mdgate.app.run;

import io.mdgate.app.run.counters.CounterType;
import io.mdgate.app.run.counters.CountersFileWriter;
import io.mdgate.journal.JournalAgent;
import io.mdgate.journal.TickJournal;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The journal stage: runs the {@link TickJournal}'s {@link JournalAgent} and, after each duty cycle that appended,
 * measures {@code session_to_journal} for every tick that became journaled (from its {@link TickStamps} stamp to
 * now), and publishes the journal's counters every millisecond ({@code journal.position} is the last gateway
 * sequence journaled: a tick at or below it survives a crash of the process).
 * <p>
 * Threading: the agent's thread, as {@link JournalAgent} requires.
 */
final class JournalStage implements Agent
{
    private static final long PUBLISH_INTERVAL_NANOS = 1_000_000L;
    /** Most ticks measured after one duty cycle: the agent appends at most its drain limit anyway. */
    private static final int MAX_MEASURED = 65_536;

    private final TickJournal journal;
    private final JournalAgent agent;
    private final TickStamps stamps;
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
    private long measuredUpTo;
    private long lastPublishNanos;

    JournalStage(final TickJournal journal, final TickStamps stamps, final StageLatency latency,
        final EpochNanoClock clock, final CountersFileWriter counters)
    {
        this.journal = journal;
        this.agent = journal.agent();
        this.stamps = stamps;
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
        measuredUpTo = journal.journaledSequence();
        position.setRelease(measuredUpTo);
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
        if (work > 0)
        {
            measure();
        }
        final long now = System.nanoTime();
        if (now - lastPublishNanos >= PUBLISH_INTERVAL_NANOS)
        {
            lastPublishNanos = now;
            publishCounters();
        }
        return work;
    }

    private void measure()
    {
        final long journaled = journal.journaledSequence();
        if (journaled <= measuredUpTo)
        {
            return;
        }
        final long now = clock.nanoTime();
        for (long sequence = Math.max(measuredUpTo + 1, journaled - MAX_MEASURED + 1); sequence <= journaled;
            sequence++)
        {
            final long stamp = stamps.stampOf(sequence);
            if (stamp != TickStamps.UNKNOWN)
            {
                latency.record(now - stamp);
            }
        }
        measuredUpTo = journaled;
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

    /** Drains what is left in the journal's ring and closes its appenders; the journal itself stays open. */
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
