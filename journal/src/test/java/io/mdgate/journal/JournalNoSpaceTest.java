package io.mdgate.journal;

import io.mdgate.core.counters.PrivateCounters;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.core.ticklog.TickLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A journal whose filesystem runs out of room, stood in for by an allocator that refuses blocks past an offset (the
 * real filesystem is filled by {@code JournalDiskFullNetnsTest} in system-tests): the journal appends nothing of the
 * refused tick, leaves it and every later tick unread in the tick log (so the egress, which follows the journal,
 * never gets them), says where it stopped, and a reopened journal with room goes on at the next sequence.
 */
@Timeout(60)
class JournalNoSpaceTest
{
    /** Where the stand-in filesystem ends in the tick queue's cycle file: room for about 25,000 ticks. */
    private static final long LIMIT = 2L << 20;

    @TempDir
    Path dir;

    private final List<String> allocations = new ArrayList<>();

    @Test
    void shouldStopBeforeTheFirstTickItHasNoRoomForLeaveItUnreadAndResumeAfterTheLastOneOnReopen()
    {
        final PrivateCounters counters = new PrivateCounters(JournalCounterDescriptor.values().length);
        final TestTicks ticks = new TestTicks();
        final TickLog log = new TickLog(1 << 16, "journal", "egress");
        final TickLogReader egress = log.reader(1).follow(log.reader(0));
        final long last;
        try (TickJournal journal = TickJournal.open(context(LIMIT).counters(counters)))
        {
            final JournalAgent agent = journal.agent().tickSource(log.reader(0), null);
            agent.onStart();
            JournalSpaceException full = null;
            long sequence = 1;
            while (null == full && sequence < 200_000)
            {
                for (int i = 0; i < 500; i++)
                {
                    log.onTick(ticks.tick(sequence++), 0);
                }
                try
                {
                    agent.doWork();
                }
                catch (final JournalSpaceException ex)
                {
                    full = ex;
                }
            }
            assertTrue(null != full, "the journal never ran out of room: " + allocations);
            last = full.lastSequence();
            System.out.println("JournalNoSpaceTest: " + full.getMessage());
            assertTrue(last > 10_000 && last < 40_000, "the limit leaves room for about 25,000 ticks, stopped at " +
                last);
            assertEquals(last, log.reader(0).position(), "the journal's reader stops before the refused tick");
            assertEquals(last, journal.journaledSequence());
            assertEquals(last, counters.value("journal.position"));
            assertEquals(1, counters.value("journal.no_space"));
            assertEquals(last, counters.value("journal.ticks"));
            assertTrue(full.getMessage().startsWith("no space left on " + dir) &&
                full.getMessage().endsWith("at sequence " + last + "; free space and start again: the run resumes at " +
                (last + 1)), full.getMessage());
            assertEquals(full, agent.noSpace());

            final List<Long> published = new ArrayList<>();
            egress.poll((buffer, offset) -> published.add(buffer.getLong(offset + TickReplay.SEQUENCE_OFFSET,
                java.nio.ByteOrder.LITTLE_ENDIAN)), Integer.MAX_VALUE);
            assertEquals(LongStream.rangeClosed(1, last).boxed().toList(), published,
                "a reader following the journal gets exactly the journaled ticks");
            assertEquals(0, agent.doWork(), "nothing more once stopped");
            assertEquals(last, log.reader(0).position());
            agent.onClose();
        }

        try (TickJournal journal = TickJournal.open(context(Long.MAX_VALUE)))
        {
            assertEquals(last, journal.lastSequenceAtOpen(), "every tick appended is whole in the files");
            assertEquals(last + 1, journal.nextGatewaySequence());
            JournalFixture.write(journal, ticks, last + 1, last + 1_000);
        }
        final TestTicks.Collector all = TestTicks.collector();
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            replay.replay(1, Long.MAX_VALUE, all);
        }
        assertEquals(LongStream.rangeClosed(1, last + 1_000).boxed().toList(), all.sequences,
            "each sequence once, none missing, across the stop");
    }

    @Test
    void shouldLeaveARefusedPacketInTheRingAndThrowOnceFromTheDutyCycle()
    {
        final PrivateCounters counters = new PrivateCounters(JournalCounterDescriptor.values().length);
        try (TickJournal journal = TickJournal.open(context(LIMIT).counters(counters)))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            final org.agrona.concurrent.UnsafeBuffer packet = new org.agrona.concurrent.UnsafeBuffer(new byte[1200]);
            JournalSpaceException full = null;
            for (int round = 0; round < 200 && null == full; round++)
            {
                for (int i = 0; i < 100; i++)
                {
                    journal.publisher().onPacket(0, packet, 0, packet.capacity(), 1L);
                }
                try
                {
                    agent.doWork();
                }
                catch (final JournalSpaceException ex)
                {
                    full = ex;
                }
            }
            assertTrue(null != full, "the packet queue never ran out of room");
            final long appended = counters.value("journal.packets");
            assertTrue(appended > 1_000 && appended * 1220 < LIMIT, "appended " + appended);
            assertTrue(full.getMessage().contains("before the first tick; free space and start again: the run " +
                "starts at sequence 1"), full.getMessage());
            assertEquals(0, agent.doWork(), "thrown once; then the agent appends nothing");
            assertEquals(appended, counters.value("journal.packets"));
            agent.onClose();
        }
    }

    @Test
    void shouldRefuseToOpenOnAFilesystemWithLessThanANewCycleFileAndOneReserveFree()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 500);
        final JournalContext context = context(LIMIT).freeBytes(path -> JournalSpace.START_FREE_BYTES - 1);
        final JournalSpaceException full = assertThrows(JournalSpaceException.class, () -> TickJournal.open(context));
        assertEquals(JournalSpace.START_FREE_BYTES - 1, full.freeBytes());
        assertEquals(500, full.lastSequence());
        assertEquals("no space left on " + dir + " (" + (JournalSpace.START_FREE_BYTES - 1) + " bytes free) at " +
            "sequence 500; free space and start again: the run resumes at 501", full.getMessage());
        try (TickJournal journal = TickJournal.open(context(LIMIT)))
        {
            assertEquals(501, journal.nextGatewaySequence(), "the refused open left the journal as it was");
        }
    }

    /** @param limit the offset past which the stand-in filesystem has no blocks, in every cycle file. */
    private JournalContext context(final long limit)
    {
        return JournalFixture.context(dir).freeBytes(path -> 1L << 40).fileBlocks((file, dataEnd) ->
        {
            final FileBlocks real = FileBlocks.open(file, dataEnd);
            return new FileBlocks()
            {
                @Override
                public int allocate(final long offset, final long length)
                {
                    allocations.add(file.getFileName() + ":" + offset + "+" + length);
                    return offset + length > limit ? ENOSPC : real.allocate(offset, length);
                }

                @Override
                public void close()
                {
                    real.close();
                }
            };
        });
    }
}
