package io.mdgate.app.journal;

import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.SymbolDirectory;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What finding the symbols before a replay's range costs on a session of about 10M ticks (7.4M messages, 1,000
 * instruments): the binary search for the session's start, and the read of the session's ticks up to a range at its
 * end, side by side with a bare replay of the same ticks into a handler that only sums, three rounds each.
 */
@Tag("slow")
class ReplaySymbolsCostTest
{
    private static final long MESSAGES = 7_400_000;
    private static final int INSTRUMENTS = 1_000;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void shouldFindTheSymbolsBeforeARangeAtTheEndOfATenMillionTickSessionAsFastAsABareReplay()
    {
        final long last = new SessionsJournal(dir, new SimulationConfig[] {
            new SimulationConfig().seed(3).instruments(INSTRUMENTS).ordersPerInstrument(500).messages(MESSAGES) },
            SessionsJournal.ALL_WITH_DIRECTORY).lastSequence;
        assertTrue(last >= 9_000_000, last + " ticks journaled");
        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            for (int round = 1; round <= 3; round++)
            {
                final long searchStart = System.nanoTime();
                final long start = replay.sessionStartOf(last);
                final long searchNanos = System.nanoTime() - searchStart;
                assertEquals(1, start, "the session's SESSION tick");

                final long[] sum = { 0 };
                final long bareStart = System.nanoTime();
                final long bare = replay.replay(start, last - 1, (buffer, offset) -> sum[0] += buffer.getByte(offset));
                final long bareNanos = System.nanoTime() - bareStart;

                final SymbolDirectory symbols = new SymbolDirectory();
                final long scanStart = System.nanoTime();
                final long scanned = ReplayCommand.learnSymbols(replay, last, symbols);
                final long scanNanos = System.nanoTime() - scanStart;

                assertEquals(bare, scanned);
                assertEquals(last - 1, scanned);
                assertEquals(INSTRUMENTS, symbols.named());
                System.out.printf(Locale.ROOT, "round %d: session start found in %.2f ms; symbols from %,d ticks " +
                    "in %.2f s (%.1fM ticks/s), bare replay of the same ticks %.2f s (%.1fM ticks/s), ratio %.2f%n",
                    round, searchNanos / 1e6, scanned, scanNanos / 1e9, scanned * 1e3 / scanNanos, bareNanos / 1e9,
                    bare * 1e3 / bareNanos, (double)scanNanos / bareNanos);
            }
        }
    }
}
