package io.mdgate.journal;

import io.mdgate.core.ticklog.TickLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The journal's part of the run-to-completion duty cycle, with Chronicle behind it: ticks written into the tick log,
 * the agent appending them from its reader (each record one bulk copy), measured per round on the calling thread.
 */
class JournalAllocationTest
{
    private static final int ROUNDS = 8;
    private static final int MEASURED = 3;
    private static final int TICKS_PER_ROUND = 50_000;
    private static final int TICKS_PER_CYCLE = 16;

    @TempDir
    Path dir;

    @Test
    void shouldAppendFromTheTickLogWithoutAllocatingInSteadyState()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter unavailable");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        final TestTicks ticks = new TestTicks();
        final TickLog log = new TickLog(1 << 14, "journal");
        final long[] allocatedPerRound = new long[MEASURED];
        long sequence = 0;
        try (TickJournal journal = TickJournal.open(new JournalContext().directory(dir.resolve("journal"))))
        {
            final JournalAgent agent = journal.agent().tickSource(log.reader(0), null);
            agent.onStart();
            for (int round = 0; round < ROUNDS; round++)
            {
                final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
                for (int i = 0; i < TICKS_PER_ROUND; i += TICKS_PER_CYCLE)
                {
                    for (int t = 0; t < TICKS_PER_CYCLE; t++)
                    {
                        log.onTick(ticks.tick(++sequence), 0);
                    }
                    agent.doWork();
                }
                if (round >= ROUNDS - MEASURED)
                {
                    allocatedPerRound[round - (ROUNDS - MEASURED)] =
                        threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
                }
            }
            agent.onClose();
            assertEquals(sequence, journal.journaledSequence(), "every tick journaled");
        }
        // An allocation per append, per duty cycle or per timer shows in every measured round; a one-off of the JIT
        // in two adjacent rounds at most.
        assertTrue(Arrays.stream(allocatedPerRound).anyMatch(bytes -> bytes == 0),
            "bytes allocated in steady state, per measured round: " + Arrays.toString(allocatedPerRound));

        try (JournalReader reader = JournalReader.open(dir.resolve("journal"));
            TickReplay replay = reader.newTickReplay())
        {
            final long[] read = { 0 };
            replay.replay(1, sequence, (buffer, offset) ->
            {
                read[0]++;
                TestTicks.assertDerived(buffer, offset);
            });
            assertEquals(sequence, read[0], "every tick read back as written");
        }
    }
}
