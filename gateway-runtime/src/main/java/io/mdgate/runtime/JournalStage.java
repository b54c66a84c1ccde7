package io.mdgate.runtime;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.ticklog.TickLogReader;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.journal.JournalAgent;
import io.mdgate.journal.TickJournal;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochNanoClock;

import java.nio.ByteOrder;

/**
 * The journal stage: runs the {@link TickJournal}'s {@link JournalAgent}, which appends the ticks of its
 * {@link TickLogReader} (and the raw packets of its ring) and keeps the journal's counters in the counters file its
 * context was given ({@code journal.position} is the last gateway sequence journaled: a tick at or below it survives
 * a crash of the process), and measures {@code ingress_to_journal} for every tick appended (from the tick's receive
 * time, on the clock every stage uses).
 * <p>
 * Threading: the agent's thread, as {@link JournalAgent} requires.
 */
final class JournalStage implements Agent, TickHandler
{
    private final JournalAgent agent;
    private final StageLatency latency;
    private final EpochNanoClock clock;

    JournalStage(final TickJournal journal, final TickLogReader reader, final StageLatency latency,
        final EpochNanoClock clock)
    {
        this.agent = journal.agent().tickSource(reader, this);
        this.latency = latency;
        this.clock = clock;
    }

    @Override
    public void onStart()
    {
        agent.onStart();
    }

    @Override
    public int doWork()
    {
        return agent.doWork();
    }

    /** A tick just appended. */
    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        latency.record(clock.nanoTime() - buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET,
            ByteOrder.LITTLE_ENDIAN));
    }

    /** Appends what is left in the log and the packet ring and closes the appenders; the journal stays open. */
    @Override
    public void onClose()
    {
        agent.onClose();
    }

    @Override
    public String roleName()
    {
        return "journal";
    }
}
