package io.mdgate.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class JournalCycleTest
{
    private static final long HOUR = 3_600_000_000_000L;
    private static final long PER_HOUR = 1_000;

    @TempDir
    Path dir;

    private JournalContext hourlyByRecordTime()
    {
        return JournalFixture.context(dir)
            .rollCycle(JournalRollCycle.HOURLY)
            .cycleClock(JournalCycleClock.RECORD_TIME);
    }

    /** Writes ticks from..to, PER_HOUR of them in each exchange-time hour starting at 14:00 UTC. */
    private static void writeHours(final TickJournal journal, final long from, final long to)
    {
        final TestTicks ticks = new TestTicks();
        final JournalAgent agent = journal.agent();
        agent.onStart();
        for (long sequence = from; sequence <= to; sequence++)
        {
            final long time = TestTicks.OPEN_NANOS - HOUR / 2 + ((sequence - 1) / PER_HOUR) * HOUR + sequence;
            journal.publisher().onTick(ticks.tick(sequence, time), 0);
            agent.doWork();
        }
        agent.onClose();
    }

    @Test
    void shouldStartANewCycleFileForEachHourOfRecordTime()
    {
        try (TickJournal journal = TickJournal.open(hourlyByRecordTime()))
        {
            writeHours(journal, 1, 3 * PER_HOUR);
        }
        try (JournalReader reader = JournalReader.open(dir))
        {
            final List<CycleSummary> cycles = reader.info().tickCycles();
            assertEquals(3, cycles.size());
            for (int i = 0; i < 3; i++)
            {
                assertEquals(PER_HOUR, cycles.get(i).records());
                assertEquals(i * PER_HOUR + 1, cycles.get(i).firstSequence());
                assertEquals(cycles.get(0).cycle() + i, cycles.get(i).cycle());
            }
            assertTrue(cycles.get(0).file().getFileName().toString().startsWith("20250102-14"),
                cycles.get(0).file().toString());

            try (TickReplay replay = reader.newTickReplay())
            {
                final TestTicks.Collector across = TestTicks.collector();
                assertEquals(201, replay.replay(900, 1_100, across));
                assertEquals(LongStream.rangeClosed(900, 1_100).boxed().toList(), across.sequences);
                assertEquals(2_500, replay.sequenceAtOrAfter(TestTicks.OPEN_NANOS - HOUR / 2 + 2 * HOUR + 2_500));
            }
        }
    }

    @Test
    void shouldSeeTicksAppendedAndCyclesStartedWhileItReads()
    {
        try (TickJournal journal = TickJournal.open(hourlyByRecordTime()); TickReplay replay = journal.newTickReplay())
        {
            final TestTicks ticks = new TestTicks();
            final JournalAgent agent = journal.agent();
            agent.onStart();
            assertEquals(0, replay.count());
            for (long sequence = 1; sequence <= 2_500; sequence++)
            {
                final long time = TestTicks.OPEN_NANOS - HOUR / 2 + ((sequence - 1) / PER_HOUR) * HOUR + sequence;
                journal.publisher().onTick(ticks.tick(sequence, time), 0);
                agent.doWork();
                if (sequence % 250 == 0)
                {
                    assertEquals(sequence, replay.count());
                    assertEquals(sequence, replay.lastSequence());
                    final TestTicks.Collector tail = TestTicks.collector();
                    assertEquals(10, replay.replay(sequence - 9, sequence + 100, tail));
                    assertEquals(sequence, tail.sequences.get(9));
                }
            }
            agent.onClose();
            assertEquals(3, replay.cycles().size());
            assertEquals(1, replay.firstSequence());
        }
    }

    @Test
    void shouldKeepOnlyTheNewestCyclesWhenRetentionIsSet()
    {
        try (TickJournal journal = TickJournal.open(hourlyByRecordTime().retainCycles(2)))
        {
            writeHours(journal, 1, 4 * PER_HOUR);
            assertEquals(2, journal.agent().cyclesDeleted());
        }
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            assertEquals(2, reader.info().tickCycles().size());
            assertEquals(2 * PER_HOUR + 1, replay.firstSequence());
            assertEquals(4 * PER_HOUR, replay.lastSequence());
            final TestTicks.Collector ticks = TestTicks.collector();
            assertEquals(2 * PER_HOUR, replay.replay(1, Long.MAX_VALUE, ticks));
            assertEquals(2 * PER_HOUR + 1, ticks.sequences.get(0));
        }
        try (TickJournal journal = TickJournal.open(hourlyByRecordTime().retainCycles(2)))
        {
            assertEquals(4 * PER_HOUR + 1, journal.nextGatewaySequence());
        }
    }

    @Test
    void shouldNeverMoveBackToAnOlderCycleWhenRecordTimeGoesBack()
    {
        try (TickJournal journal = TickJournal.open(hourlyByRecordTime()))
        {
            writeHours(journal, 1, 2 * PER_HOUR);
        }
        try (TickJournal journal = TickJournal.open(hourlyByRecordTime()))
        {
            final TestTicks ticks = new TestTicks();
            final JournalAgent agent = journal.agent();
            agent.onStart();
            journal.publisher().onTick(ticks.tick(2 * PER_HOUR + 1, TestTicks.OPEN_NANOS - HOUR), 0);
            agent.onClose();
        }
        try (JournalReader reader = JournalReader.open(dir))
        {
            final List<CycleSummary> cycles = reader.info().tickCycles();
            assertEquals(2, cycles.size());
            assertEquals(2 * PER_HOUR + 1, cycles.get(1).lastSequence());
        }
    }

    @Test
    void shouldRefuseAJournalWithACycleFileMissingInTheMiddle() throws IOException
    {
        try (TickJournal journal = TickJournal.open(hourlyByRecordTime()))
        {
            writeHours(journal, 1, 3 * PER_HOUR);
        }
        final List<CycleSummary> cycles;
        try (JournalReader reader = JournalReader.open(dir))
        {
            cycles = reader.info().tickCycles();
        }
        Files.delete(cycles.get(1).file());

        final JournalDamagedException damaged = assertThrows(JournalDamagedException.class, () -> JournalReader.open(dir));
        assertEquals(cycles.get(2).file(), damaged.file());
        assertTrue(damaged.getMessage().contains("ticks 1001..2000 are missing"), damaged.getMessage());
        assertThrows(JournalDamagedException.class, () -> TickJournal.open(hourlyByRecordTime()));
    }
}
