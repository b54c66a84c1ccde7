package io.mdgate.journal;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class TickJournalTest
{
    @TempDir
    Path dir;

    @Test
    void shouldStartAnEmptyJournalAtSequenceOneAndCreateTheLayout()
    {
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            assertEquals(1, journal.nextGatewaySequence());
            assertEquals(TickReplay.NO_SEQUENCE, journal.journaledSequence());
        }
        assertTrue(Files.isRegularFile(dir.resolve(JournalLayout.MANIFEST)));
        assertTrue(Files.isDirectory(dir.resolve(JournalLayout.TICKS)));
        assertTrue(Files.isDirectory(dir.resolve(JournalLayout.PACKETS)));
    }

    @Test
    void shouldPublishTheJournaledSequenceAndContinueAfterItWhenReopened()
    {
        assertEquals(5_000, JournalFixture.write(JournalFixture.context(dir), 1, 5_000));

        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            assertEquals(5_000, journal.lastSequenceAtOpen());
            assertEquals(5_001, journal.nextGatewaySequence());
            assertEquals(5_000, journal.journaledSequence());
            assertEquals(7_000, JournalFixture.write(journal, new TestTicks(), 5_001, 7_000));
        }

        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            final TestTicks.Collector ticks = TestTicks.collector();
            assertEquals(7_000, replay.replay(1, Long.MAX_VALUE, ticks));
            assertEquals(LongStream.rangeClosed(1, 7_000).boxed().toList(), ticks.sequences);
        }
    }

    @Test
    void shouldRefuseATickWhoseSequenceDoesNotFollowTheLastOneJournaled()
    {
        final TestTicks ticks = new TestTicks();
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            journal.publisher().onTick(ticks.tick(10), 0);
            journal.publisher().onTick(ticks.tick(11), 0);
            journal.publisher().onTick(ticks.tick(11), 0);
            journal.publisher().onTick(ticks.tick(13), 0);
            journal.publisher().onTick(ticks.tick(12), 0);
            agent.doWork();
            assertEquals(12, journal.journaledSequence());
            assertEquals(2, agent.ticksOutOfSequence());
            assertEquals(3, agent.ticksAppended());
            agent.onClose();
        }
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            assertEquals(10, replay.firstSequence());
            assertEquals(12, replay.lastSequence());
        }
    }

    @Test
    void shouldReplayExactlyTheRequestedRangeAndClampItToWhatIsJournaled()
    {
        JournalFixture.write(JournalFixture.context(dir), 100, 20_099);
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            final TestTicks.Collector middle = TestTicks.collector();
            assertEquals(1_001, replay.replay(5_000, 6_000, middle));
            assertEquals(LongStream.rangeClosed(5_000, 6_000).boxed().toList(), middle.sequences);

            final TestTicks.Collector edges = TestTicks.collector();
            assertEquals(101, replay.replay(1, 200, edges));
            assertEquals(100L, edges.sequences.get(0));
            assertEquals(51, replay.replay(20_049, 30_000, TestTicks.collector()));
            assertEquals(0, replay.replay(30_000, 40_000, TestTicks.collector()));
            assertEquals(0, replay.replay(6_000, 5_000, TestTicks.collector()));
        }
    }

    @Test
    void shouldFindTicksByExchangeTimeAndReplayATimeRange()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 10_000);
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            final long t = TestTicks.OPEN_NANOS;
            assertEquals(1, replay.sequenceAtOrAfter(0));
            assertEquals(500, replay.sequenceAtOrAfter(t + 499_500));
            assertEquals(499, replay.sequenceAtOrBefore(t + 499_500));
            assertEquals(500, replay.sequenceAtOrBefore(t + 500_000));
            assertEquals(TickReplay.NO_SEQUENCE, replay.sequenceAtOrAfter(t + 10_000_001));
            assertEquals(TickReplay.NO_SEQUENCE, replay.sequenceAtOrBefore(t));

            final TestTicks.Collector ticks = TestTicks.collector();
            assertEquals(2_001, replay.replayByTime(t + 3_000_000, t + 5_000_000, ticks));
            assertEquals(3_000L, ticks.sequences.get(0));
            assertEquals(5_000L, ticks.sequences.get(ticks.sequences.size() - 1));
            assertTrue(ticks.times.stream().allMatch(time -> time >= t + 3_000_000 && time <= t + 5_000_000));
        }
    }

    @Test
    void shouldReadOneTickBySequence()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 1_000);
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir));
            TickReplay replay = journal.newTickReplay())
        {
            final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
            assertTrue(replay.read(777, tick, 0));
            TestTicks.assertDerived(tick, 0);
            assertEquals(777, tick.getLong(0, java.nio.ByteOrder.LITTLE_ENDIAN));
            assertFalse(replay.read(1_001, tick, 0));
        }
    }

    @Test
    void shouldMarkReplayedTicksOnlyWhenAsked()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 10);
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            final boolean[] flags = new boolean[2];
            replay.replay(1, 1, (buffer, offset) -> flags[0] = replayedFlag(buffer, offset));
            replay.markReplayed(true).replay(1, 1, (buffer, offset) -> flags[1] = replayedFlag(buffer, offset));
            assertFalse(flags[0]);
            assertTrue(flags[1]);
        }
    }

    @Test
    void shouldRefuseToReopenWithAnotherRollCycle()
    {
        JournalFixture.write(JournalFixture.context(dir).rollCycle(JournalRollCycle.HOURLY), 1, 10);
        final JournalException refused = assertThrows(JournalException.class,
            () -> TickJournal.open(JournalFixture.context(dir).rollCycle(JournalRollCycle.DAILY)));
        assertTrue(refused.getMessage().contains("HOURLY"), refused.getMessage());
    }

    @Test
    void shouldRefuseADirectoryThatHoldsSomethingElse() throws Exception
    {
        Files.writeString(dir.resolve("notes.txt"), "not a journal");
        final JournalException refused =
            assertThrows(JournalException.class, () -> TickJournal.open(JournalFixture.context(dir)));
        assertTrue(refused.getMessage().contains("not an mdgate journal"), refused.getMessage());
        final JournalException notJournal = assertThrows(JournalException.class, () -> JournalReader.open(dir));
        assertTrue(notJournal.getMessage().contains(JournalLayout.MANIFEST), notJournal.getMessage());
    }

    @Test
    void shouldSummariseEachCycle()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 3_000);
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalInfo info = reader.info();
            final List<CycleSummary> cycles = info.tickCycles();
            assertEquals(1, cycles.size());
            assertEquals(3_000, info.ticks());
            assertEquals(1, info.firstSequence());
            assertEquals(3_000, info.lastSequence());
            assertEquals(TestTicks.OPEN_NANOS + 1_000, info.firstTime());
            assertEquals(TestTicks.OPEN_NANOS + 3_000_000, info.lastTime());
            assertEquals(0, info.packets());
            assertTrue(info.fileBytes() > 3_000 * 64);
        }
    }

    private static boolean replayedFlag(final org.agrona.DirectBuffer buffer, final int offset)
    {
        return new io.mdgate.core.tick.sbe.TickDecoder()
            .wrap(buffer, offset, 64, io.mdgate.core.tick.sbe.TickEncoder.SCHEMA_VERSION).flags().replayed();
    }
}
