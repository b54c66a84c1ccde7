package io.mdgate.journal;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a restart costs at start-up for a 10M-tick session: opening the journal (resume point included) and
 * rebuilding the books from the session's ticks, measured side by side with a bare replay of the same ticks, three
 * rounds each. The books have the gateway's default capacities; the simulated day keeps 500,000 orders live.
 */
@Tag("slow")
class SessionRestoreCostTest
{
    private static final long TICKS = 10_000_000;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldRebuildTheBooksOfATenMillionTickSessionWithinSecondsOfStartUp()
    {
        final SimulationConfig config = new SimulationConfig().seed(3).instruments(1_000).ordersPerInstrument(500)
            .messages(8_000_000);
        final long journaled = journalDay(config);
        assertTrue(journaled >= TICKS, journaled + " ticks journaled");

        for (int round = 1; round <= 3; round++)
        {
            final long openStart = System.nanoTime();
            try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
            {
                final ResumePoint point = journal.resumePoint().orElseThrow();
                final long openNanos = System.nanoTime() - openStart;

                final long[] sum = { 0 };
                final long bareCpu = CPU.getCurrentThreadCpuTime();
                final long bareStart = System.nanoTime();
                final long bare = journal.replaySession(point, (buffer, offset) -> sum[0] += buffer.getLong(offset));
                final long bareNanos = System.nanoTime() - bareStart;
                final long bareCpuNanos = CPU.getCurrentThreadCpuTime() - bareCpu;

                final BookRestore restore = new BookRestore(normalizer(config, (buffer, offset) -> { }));
                final long restoreCpu = CPU.getCurrentThreadCpuTime();
                final long restoreStart = System.nanoTime();
                final long restored = journal.replaySession(point, restore);
                final long restoreNanos = System.nanoTime() - restoreStart;
                final long restoreCpuNanos = CPU.getCurrentThreadCpuTime() - restoreCpu;

                assertEquals(bare, restored);
                assertEquals(point.lastGatewaySequence(), restored);
                assertEquals(0, restore.topOfBookMismatches());
                System.out.printf(Locale.ROOT, "round %d: open with resume point %.1f ms; %,d ticks (%,d order " +
                    "events, %,d orders live after): bare replay %.2f s wall / %.2f s cpu (%.1fM ticks/s of cpu), " +
                    "replay into BookRestore %.2f s wall / %.2f s cpu (%.1fM ticks/s of cpu, %.2f x the bare " +
                    "replay's cpu)%n", round, openNanos / 1e6, restored, restore.orderEvents(),
                    restore.normalizer().books().orderCount(), bareNanos / 1e9, bareCpuNanos / 1e9,
                    bare * 1e3 / bareCpuNanos, restoreNanos / 1e9, restoreCpuNanos / 1e9,
                    restored * 1e3 / restoreCpuNanos, (double)restoreCpuNanos / bareCpuNanos);
            }
        }
    }

    private long journalDay(final SimulationConfig config)
    {
        try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
        {
            final JournalAgent agent = journal.agent();
            agent.onStart();
            final long[] count = { 0 };
            final TickHandler journaling = (buffer, offset) ->
            {
                journal.publisher().onTick(buffer, offset);
                if ((++count[0] & 255) == 0)
                {
                    agent.doWork();
                }
            };
            SimulatedFeed.sessionTick(journaling, 1, 1);
            final MessageProcessor processor = new MessageProcessor(normalizer(config, journaling));
            final ItchSessionGenerator generator = new ItchSessionGenerator(config);
            final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
            final long start = System.nanoTime();
            final long cpu = CPU.getCurrentThreadCpuTime();
            long sequence = 1;
            int length;
            while (count[0] < TICKS && (length = generator.next(message, 0)) > 0)
            {
                processor.process(message, 0, length, sequence++);
            }
            agent.onClose();
            System.out.printf(Locale.ROOT, "generated, normalized and journaled %,d ticks of %,d messages in " +
                "%.1f s wall / %.1f s cpu of this thread%n", count[0], sequence - 1, (System.nanoTime() - start) / 1e9,
                (CPU.getCurrentThreadCpuTime() - cpu) / 1e9);
            return journal.journaledSequence();
        }
    }

    private static Normalizer normalizer(final SimulationConfig config, final TickHandler handler)
    {
        return new Normalizer(new OrderBooks(new BookContext().conclude()), new ExchangeClock(config.sessionDate()),
            handler, 2).sessionId(1);
    }
}
