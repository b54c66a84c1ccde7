package io.mdgate.journal;

import io.mdgate.core.counters.CounterType;
import io.mdgate.core.counters.PrivateCounters;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The journal's counters live in the allocator its context names, under their {@code journal.*} labels, and are
 * updated by the threads that count (the agent's, the publisher's) as they append: no copy step.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class JournalCountersTest
{
    @TempDir
    Path dir;

    @Test
    void shouldCountAppendsRefusalsAndThePositionUnderTheirLabelsAsTheAgentWorks()
    {
        final PrivateCounters counters = new PrivateCounters(JournalCounterDescriptor.values().length);
        final TestTicks ticks = new TestTicks();
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir).counters(counters)))
        {
            assertEquals(TickReplay.NO_SEQUENCE, counters.value("journal.position"), "an empty journal at open");
            final JournalAgent agent = journal.agent();
            agent.onStart();
            journal.publisher().onTick(ticks.tick(10), 0);
            journal.publisher().onTick(ticks.tick(11), 0);
            journal.publisher().onTick(ticks.tick(11), 0);
            journal.publisher().onPacket(0, new UnsafeBuffer(new byte[64]), 0, 64, 1L);
            journal.publisher().onPacket(0, new UnsafeBuffer(new byte[1 << 17]), 0, 1 << 17, 1L);
            assertEquals(1, counters.value("journal.oversized_packets"), "counted by the publisher as it refused");
            assertEquals(0, counters.value("journal.ticks"), "nothing appended before the agent's cycle");

            agent.doWork();
            assertEquals(2, counters.value("journal.ticks"));
            assertEquals(1, counters.value("journal.ticks_out_of_sequence"));
            assertEquals(1, counters.value("journal.packets"));
            assertEquals(11, counters.value("journal.position"));
            assertEquals(agent.ticksAppended(), counters.value("journal.ticks"), "the accessor reads the counter");
            agent.onClose();
        }
    }

    @Test
    void shouldStartThePositionAtTheLastTickOfAReopenedJournalAndLabelEveryCounterWithItsType()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 300);
        final PrivateCounters counters = new PrivateCounters(JournalCounterDescriptor.values().length);
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir).counters(counters)))
        {
            assertEquals(300, counters.value("journal.position"));
        }
        final List<String> labels = new ArrayList<>();
        counters.reader().forEach((id, label) -> labels.add(label));
        assertEquals(List.of("journal.position", "journal.ticks", "journal.packets", "journal.ticks_out_of_sequence",
            "journal.malformed_packets", "journal.back_pressured", "journal.oversized_packets",
            "journal.cycles_deleted", "journal.no_space"), labels);
        assertEquals(CounterType.POSITION, counters.reader().getCounterTypeId(0));
        assertEquals(CounterType.TOTAL, counters.reader().getCounterTypeId(1));
        assertEquals(CounterType.STATE, counters.reader().getCounterTypeId(8));
    }
}
