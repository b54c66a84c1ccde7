package io.mdgate.journal;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class ResumePointTest
{
    @TempDir
    Path dir;

    @Test
    void shouldGiveNoResumePointForAnEmptyJournal()
    {
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            assertEquals(Optional.empty(), journal.resumePoint());
        }
    }

    @Test
    void shouldGiveNoResumePointForAJournalWrittenBeforeSessionTicks()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 20_000);

        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            assertEquals(Optional.empty(), journal.resumePoint(), "ticks of session 1 but no SESSION tick");
            assertEquals(20_001, journal.nextGatewaySequence());
        }
    }

    @Test
    void shouldResumeAfterTheLastMessageOfTheOnlySession()
    {
        final SessionTickStream stream = new SessionTickStream(1_000_000, 0);
        write(stream, 10_000);

        final ResumePoint point = resumePoint();
        assertEquals(10_001, point.nextGatewaySequence());
        assertEquals(1, point.sessionNumber());
        assertArrayEquals("SESS000001".getBytes(StandardCharsets.US_ASCII), point.sessionName());
        assertEquals(1, point.sessionStartSequence());
        assertEquals(stream.nextExchangeSequence(), point.nextExchangeSequence());
        assertEquals(SessionTickStream.time(1, stream.nextExchangeSequence() - 1), point.lastExchangeTimestamp());
        assertEquals(JournalTruth.read(dir).resumePoint().orElseThrow(), point);
    }

    @Test
    void shouldResumeTheNewSessionAfterASessionChange()
    {
        final SessionTickStream stream = new SessionTickStream(3_000, 0);
        write(stream, 6_000);
        assertEquals(2, stream.session(), "the stream changed session once");

        final ResumePoint point = resumePoint();
        assertEquals(2, point.sessionNumber());
        assertEquals("SESS000002", point.sessionNameText());
        assertEquals(1, point.partialTicks(), "the 6,000th tick is the first of a two-tick message");
        assertEquals(stream.nextExchangeSequence() - 1, point.nextExchangeSequence(), "at the partial message");
        assertEquals(6_001, point.nextGatewaySequence());
        final JournalTruth truth = JournalTruth.read(dir);
        assertEquals(truth.resumePoint().orElseThrow(), point);
        assertTrue(point.sessionStartSequence() > 1);
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            final org.agrona.concurrent.UnsafeBuffer tick = new org.agrona.concurrent.UnsafeBuffer(new byte[64]);
            assertTrue(replay.read(point.sessionStartSequence(), tick, 0));
            assertEquals(EventType.SESSION.value(), tick.getByte(io.mdgate.core.tick.sbe.TickEncoder
                .eventTypeEncodingOffset()));
        }
    }

    @Test
    void shouldResumeAtAMessageWhoseLastTickACrashKeptOutOfTheJournal()
    {
        final SessionTickStream stream = new SessionTickStream(1_000_000, 0);
        write(stream, 500);
        final long message;
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            final ResumePoint whole = journal.resumePoint().orElseThrow();
            assertEquals(0, whole.partialTicks(), "500 ticks end a message: " + whole);
            stream.resume(whole);
            message = stream.nextExchangeSequence();
            publish(journal, handler -> stream.tick(handler, EventType.ADD, message,
                SessionTickStream.time(1, message), 42, false));
        }

        final ResumePoint point = resumePoint();
        assertEquals(1, point.partialTicks());
        assertEquals(message, point.nextExchangeSequence(), "the message is normalized again");
        assertEquals(502, point.nextGatewaySequence());
        assertEquals(501, point.firstRenormalizedSequence());
        assertEquals(500, point.lastWholeMessageSequence());
        assertEquals(JournalTruth.read(dir).resumePoint().orElseThrow(), point);
    }

    @Test
    void shouldTakeTicksWithoutTheLastInMessageFlagAsWholeMessagesWhenMoreThanOneMessageMakes()
    {
        final SessionTickStream stream = new SessionTickStream(1_000_000, 0);
        write(stream, 500);
        final long first;
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            stream.resume(journal.resumePoint().orElseThrow());
            first = stream.nextExchangeSequence();
            publish(journal, handler ->
            {
                for (int i = 0; i < ResumePointFinder.MAX_TICKS_PER_MESSAGE; i++)
                {
                    stream.tick(handler, EventType.ADD, first, SessionTickStream.time(1, first), 42 + i, false);
                }
            });
        }

        final ResumePoint point = resumePoint();
        assertEquals(0, point.partialTicks(), "six unflagged ticks are more than one message makes: " + point);
        assertEquals(first + 1, point.nextExchangeSequence());
    }

    @Test
    void shouldCountTheRangeOfAGapThatEndsTheJournal()
    {
        final SessionTickStream stream = new SessionTickStream(1_000_000, 0);
        write(stream, 500);
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            stream.resume(journal.resumePoint().orElseThrow());
            publish(journal, handler -> stream.gap(handler, stream.nextExchangeSequence(), 40,
                journal.resumePoint().orElseThrow().lastExchangeTimestamp() + 5));
        }

        final ResumePoint point = resumePoint();
        assertEquals(stream.nextExchangeSequence() + 40, point.nextExchangeSequence());
        assertEquals(SessionTickStream.time(1, stream.nextExchangeSequence() - 1) + 5, point.lastExchangeTimestamp(),
            "the GAP tick's time, the last journaled");
        assertEquals(JournalTruth.read(dir).resumePoint().orElseThrow(), point);
    }

    @Test
    void shouldResumeAtTheFirstSequenceOfASessionWhoseOnlyTickIsItsSessionTick()
    {
        final SessionTickStream stream = new SessionTickStream(2_000, 0);
        write(stream, 2_000);
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            stream.resume(journal.resumePoint().orElseThrow());
            publish(journal, handler -> stream.session(handler, 2, "NEXTSESS02", 1, 99L));
        }

        final ResumePoint point = resumePoint();
        assertEquals(2, point.sessionNumber());
        assertEquals("NEXTSESS02", point.sessionNameText());
        assertEquals(1, point.nextExchangeSequence());
        assertEquals(2_001, point.sessionStartSequence());
        assertEquals(2_002, point.nextGatewaySequence());
    }

    @Test
    void shouldFindTheSessionTickOfASessionSpreadOverManyCycleFiles()
    {
        final JournalContext context = JournalFixture.context(dir).rollCycle(JournalRollCycle.FIVE_MINUTELY)
            .cycleClock(JournalCycleClock.RECORD_TIME);
        final SessionTickStream stream = new SessionTickStream(400, 0);
        try (TickJournal journal = TickJournal.open(context))
        {
            publish(journal, handler ->
            {
                for (int i = 0; i < 4_000; i++)
                {
                    stream.next(handler);
                }
            });
        }

        try (TickJournal journal = TickJournal.open(context); TickReplay replay = journal.newTickReplay())
        {
            assertTrue(replay.cycles().size() >= 8, "one cycle file per session at least: " + replay.cycles());
            final ResumePoint point = journal.resumePoint().orElseThrow();
            assertEquals(stream.session(), point.sessionNumber());
            assertEquals(JournalTruth.read(dir).resumePoint().orElseThrow(), point);
        }
    }

    @Test
    void shouldStillFindTheSessionTickWhenOlderTicksCarryTheSameNumber()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 10_000);
        final SessionTickStream stream = new SessionTickStream(1_000_000, 0);
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            publish(journal, handler ->
            {
                stream.resumeAt(10_001);
                final Limit limit = new Limit(handler, 19_000);
                while (stream.nextGatewaySequence() <= 19_000)
                {
                    stream.next(limit);
                }
            });
        }

        final ResumePoint point = resumePoint();
        assertEquals(10_001, point.sessionStartSequence(), "found past the ticks that carry session 1 too");
        assertEquals("SESS000001", point.sessionNameText());
        assertEquals(19_001, point.nextGatewaySequence());
    }

    @Test
    void shouldReadAJournalWhoseManifestNamesTickSchemaVersionOneAndMarkItCurrentWhenWritingToIt() throws IOException
    {
        final SessionTickStream stream = new SessionTickStream(1_000_000, 0);
        write(stream, 100);
        final Path manifest = dir.resolve(JournalLayout.MANIFEST);
        final String text = Files.readString(manifest);
        assertTrue(text.contains("tickSchemaVersion=3"), text);
        Files.writeString(manifest, text.replace("tickSchemaVersion=3", "tickSchemaVersion=1"));

        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            assertEquals(100, replay.lastSequence());
        }
        assertTrue(Files.readString(manifest).contains("tickSchemaVersion=1"), "a reader leaves it as it is");
        assertEquals(101, resumePoint().nextGatewaySequence());
        assertTrue(Files.readString(manifest).contains("tickSchemaVersion=3"), "a writer may add SESSION ticks");
        Files.writeString(manifest, text.replace("tickSchemaVersion=3", "tickSchemaVersion=4"));
        final JournalException refused = org.junit.jupiter.api.Assertions.assertThrows(JournalException.class,
            () -> TickJournal.open(JournalFixture.context(dir)));
        assertTrue(refused.getMessage().contains("reads 1 to 3"), refused.getMessage());
    }

    @Test
    void shouldGiveTheSameResumePointWhenOpenedAgainWithoutWriting()
    {
        write(new SessionTickStream(700, 13), 5_000);
        final ResumePoint first = resumePoint();
        assertFalse(first.nextExchangeSequence() == 0);
        assertEquals(first, resumePoint());
        assertEquals(JournalTruth.read(dir).resumePoint().orElseThrow(), first);
    }

    @Test
    void shouldFindTheSessionTickThatStartsTheSessionOfAnyTick()
    {
        final SessionTickStream stream = new SessionTickStream(3_000, 0);
        write(stream, 12_000);
        assertTrue(stream.session() >= 3, "the stream changed session " + (stream.session() - 1) + " times");
        final List<Long> starts = new ArrayList<>();
        final long[] startOf = new long[12_001];
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            replay.replay(1, 12_000, (buffer, offset) ->
            {
                final long sequence = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
                if (buffer.getByte(offset + TickEncoder.eventTypeEncodingOffset()) == EventType.SESSION.value())
                {
                    starts.add(sequence);
                }
                startOf[(int)sequence] = starts.get(starts.size() - 1);
            });
            assertEquals(stream.session(), starts.size());
            for (final long start : starts)
            {
                for (final long sequence : new long[] { start, start + 1, start + 1_234, start + 2_999 })
                {
                    if (sequence <= 12_000)
                    {
                        assertEquals(startOf[(int)sequence], replay.sessionStartOf(sequence), "tick " + sequence);
                    }
                }
            }
            assertEquals(starts.get(starts.size() - 1), replay.sessionStartOf(12_000));
            assertEquals(TickReplay.NO_SEQUENCE, replay.sessionStartOf(12_001), "a tick not in the journal");
        }
    }

    @Test
    void shouldFindNoSessionStartInAJournalWithoutSessionTicks()
    {
        JournalFixture.write(JournalFixture.context(dir), 1, 20_000);

        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            assertEquals(TickReplay.NO_SEQUENCE, replay.sessionStartOf(15_000));
        }
    }

    private ResumePoint resumePoint()
    {
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            return journal.resumePoint().orElseThrow();
        }
    }

    private void write(final SessionTickStream stream, final int ticks)
    {
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            publish(journal, handler ->
            {
                while (stream.nextGatewaySequence() <= ticks)
                {
                    stream.next(new Limit(handler, ticks));
                }
            });
        }
    }

    private static void publish(final TickJournal journal, final java.util.function.Consumer<io.mdgate.core.tick
        .TickHandler> ticks)
    {
        final JournalAgent agent = journal.agent();
        agent.onStart();
        ticks.accept((buffer, offset) ->
        {
            journal.publisher().onTick(buffer, offset);
            agent.doWork();
        });
        agent.onClose();
        assertEquals(0, agent.ticksOutOfSequence());
    }

    /** Passes ticks up to a gateway sequence, so a journal can end in the middle of a message. */
    private record Limit(io.mdgate.core.tick.TickHandler handler, long last) implements io.mdgate.core.tick.TickHandler
    {
        @Override
        public void onTick(final org.agrona.DirectBuffer buffer, final int offset)
        {
            if (buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN) <= last)
            {
                handler.onTick(buffer, offset);
            }
        }
    }
}
