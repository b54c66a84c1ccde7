package io.mdgate.journal;

import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A simulated day through FeedSession, MessageProcessor and Normalizer into the journal, stopped at message k as a
 * crash would stop it; then, as a restarted gateway does, the journal's resume point, a fresh normalizer whose books
 * are rebuilt from the session's journaled ticks, and the feed from the resume point on. From message k on the ticks
 * must be those of the same day normalized uninterrupted, everything but receive times and line flags equal.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class SessionRestoreTest
{
    private static SimulatedFeed feed;
    private static List<byte[]> uninterrupted;

    @TempDir
    Path dir;

    @BeforeAll
    static void normalizeTheWholeDay()
    {
        feed = new SimulatedFeed(new SimulationConfig().seed(5).instruments(60).messages(150_000));
        final Recorder recorder = new Recorder();
        feed.run(feed.normalizer(SimulatedFeed.books(), recorder, 1), 1, Long.MAX_VALUE);
        uninterrupted = recorder.ticks;
    }

    @Test
    void shouldGiveTheTicksOfAnUninterruptedDayAfterARestartMidSession()
    {
        final long k = 87_654;
        final List<byte[]> resumed = restartAt(k, true);

        final int from = firstTickOf(k);
        assertEquals(uninterrupted.size() - from, resumed.size(), "ticks from message " + k + " on");
        for (int i = 0; i < resumed.size(); i++)
        {
            if (!Arrays.equals(uninterrupted.get(from + i), resumed.get(i)))
            {
                assertEquals(json(uninterrupted.get(from + i)), json(resumed.get(i)), "tick " + i + " after " + k);
            }
        }
    }

    @Test
    void shouldGiveOtherTicksWhenTheBooksAreNotRestored()
    {
        final long k = 87_654;
        final List<byte[]> resumed = restartAt(k, false);

        final int from = firstTickOf(k);
        long differing = Math.abs(uninterrupted.size() - from - resumed.size());
        for (int i = 0; i < Math.min(resumed.size(), uninterrupted.size() - from); i++)
        {
            differing += Arrays.equals(uninterrupted.get(from + i), resumed.get(i)) ? 0 : 1;
        }
        assertTrue(differing > 1_000, differing + " ticks differ");
    }

    @Test
    void shouldResumeRightAfterTheFirstMessagesOfTheDay()
    {
        final List<byte[]> resumed = restartAt(3, true);
        final int from = firstTickOf(3);
        assertEquals(uninterrupted.size() - from, resumed.size());
        for (int i = 0; i < resumed.size(); i++)
        {
            assertTrue(Arrays.equals(uninterrupted.get(from + i), resumed.get(i)), "tick " + i);
        }
    }

    @Test
    void shouldCompleteAMessageACrashLeftPartlyJournaledWithEveryTickOnce()
    {
        // The first two-tick message after 40,000, and the message with the most ticks up to 60,000: a crash after
        // its first tick, and one before its last.
        long twoTicks = 0;
        long most = 0;
        int mostTicks = 0;
        int from = firstTickOf(40_000);
        for (long k = 40_000; k < 60_000; k++)
        {
            final int next = firstTickOf(k + 1, from);
            final int ticks = next - from;
            if (ticks >= 2 && twoTicks == 0)
            {
                twoTicks = k;
            }
            if (ticks > mostTicks)
            {
                mostTicks = ticks;
                most = k;
            }
            from = next;
        }
        assertTrue(twoTicks > 0, "no two-tick message in the range");
        checkPartial(twoTicks, 1);
        checkPartial(most, mostTicks - 1);
    }

    private void checkPartial(final long k, final int partial)
    {
        final int from = firstTickOf(k);
        final List<byte[]> resumed = restartInside(dir.resolve("partial-" + k + "-" + partial), k, from + partial);
        assertEquals(uninterrupted.size() - from - partial, resumed.size(), "ticks after the " + partial +
            " of message " + k + " journaled");
        for (int i = 0; i < resumed.size(); i++)
        {
            if (!Arrays.equals(uninterrupted.get(from + partial + i), resumed.get(i)))
            {
                assertEquals(json(uninterrupted.get(from + partial + i)), json(resumed.get(i)),
                    "tick " + i + " after the partial message " + k);
            }
        }
    }

    /**
     * Journals the day's ticks up to (not including) the one at index {@code ticksJournaled} of the uninterrupted
     * day, which falls inside message k, then resumes as the gateway does.
     */
    private static List<byte[]> restartInside(final Path journalDir, final long k, final int ticksJournaled)
    {
        final JournalContext context = new JournalContext().directory(journalDir);
        try (TickJournal journal = TickJournal.open(context))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            final long[] written = {0};
            final TickHandler journaling = (buffer, offset) ->
            {
                if (written[0]++ < ticksJournaled)
                {
                    journal.publisher().onTick(buffer, offset);
                    agent.doWork();
                }
            };
            feed.run(feed.normalizer(SimulatedFeed.books(), journaling, 1), 1, k + 1);
            agent.onClose();
        }

        final Recorder resumed = new Recorder();
        try (TickJournal journal = TickJournal.open(context))
        {
            final ResumePoint point = journal.resumePoint().orElseThrow();
            final int partial = ticksJournaled - firstTickOf(k);
            assertEquals(partial, point.partialTicks(), "ticks of message " + k + " journaled: " + point);
            assertEquals(k, point.nextExchangeSequence(), "the partial message is where the feed resumes");
            assertEquals(ticksJournaled + 1, point.nextGatewaySequence());
            assertEquals(firstTickOf(k) + 1, point.firstRenormalizedSequence());

            final OrderBooks books = SimulatedFeed.books();
            final Normalizer normalizer = feed.normalizer(books, resumed, point.nextGatewaySequence());
            final BookRestore bookRestore = new BookRestore(normalizer).upTo(point.lastWholeMessageSequence());
            journal.replaySession(point, bookRestore);
            assertEquals(0, bookRestore.topOfBookMismatches());
            normalizer.resume(point.sessionNumber(), point.lastExchangeTimestamp(), point.partialTicks(),
                point.nextExchangeSequence());
            feed.resume(normalizer, point);
            assertEquals(0, normalizer.partialMessagesNotCompleted());
        }
        return resumed.ticks;
    }

    /** @return the ticks of messages k.. after journaling messages 1..k-1, reopening and resuming. */
    private List<byte[]> restartAt(final long k, final boolean restore)
    {
        final JournalContext context = new JournalContext().directory(dir.resolve("k" + k + restore));
        try (TickJournal journal = TickJournal.open(context))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            final TickHandler journaling = (buffer, offset) ->
            {
                journal.publisher().onTick(buffer, offset);
                agent.doWork();
            };
            feed.run(feed.normalizer(SimulatedFeed.books(), journaling, 1), 1, k);
            agent.onClose();
        }

        final Recorder resumed = new Recorder();
        try (TickJournal journal = TickJournal.open(context))
        {
            final ResumePoint point = journal.resumePoint().orElseThrow();
            assertEquals(k, point.nextExchangeSequence());
            assertEquals(1, point.sessionNumber());
            assertEquals(SimulatedFeed.SESSION, point.sessionNameText());
            assertEquals(1, point.sessionStartSequence());
            final long firstAfter = ticksBefore(k) + 1;
            assertEquals(firstAfter, point.nextGatewaySequence());

            final OrderBooks books = SimulatedFeed.books();
            final Normalizer normalizer = feed.normalizer(books, resumed, point.nextGatewaySequence());
            if (restore)
            {
                final BookRestore bookRestore = new BookRestore(normalizer);
                final long start = System.nanoTime();
                assertEquals(point.lastGatewaySequence(), journal.replaySession(point, bookRestore));
                final long nanos = System.nanoTime() - start;
                assertEquals(0, bookRestore.topOfBookMismatches());
                System.out.printf("restored %,d ticks (%,d order events) up to message %,d in %.1f ms: %,.0f " +
                    "ticks/s%n", bookRestore.ticks(), bookRestore.orderEvents(), k, nanos / 1e6,
                    bookRestore.ticks() * 1e9 / nanos);
            }
            normalizer.resume(point.sessionNumber(), point.lastExchangeTimestamp());
            feed.resume(normalizer, point);
        }
        return resumed.ticks;
    }

    private static int firstTickOf(final long exchangeSequence)
    {
        return firstTickOf(exchangeSequence, 1);
    }

    private static int firstTickOf(final long exchangeSequence, final int searchFrom)
    {
        for (int i = searchFrom; i < uninterrupted.size(); i++)
        {
            if (new UnsafeBuffer(uninterrupted.get(i)).getLong(8, ByteOrder.LITTLE_ENDIAN) >= exchangeSequence)
            {
                return i;
            }
        }
        throw new AssertionError("no tick of message " + exchangeSequence);
    }

    private static long ticksBefore(final long exchangeSequence)
    {
        return firstTickOf(exchangeSequence);
    }

    private static String json(final byte[] tick)
    {
        return new TickDecoder().wrap(new UnsafeBuffer(tick), 0, TickEncoder.BLOCK_LENGTH, TickEncoder.SCHEMA_VERSION)
            .toString();
    }

    private static final class Recorder implements TickHandler
    {
        final List<byte[]> ticks = new ArrayList<>();

        @Override
        public void onTick(final org.agrona.DirectBuffer buffer, final int offset)
        {
            ticks.add(SimulatedFeed.comparable(buffer, offset));
        }
    }
}
