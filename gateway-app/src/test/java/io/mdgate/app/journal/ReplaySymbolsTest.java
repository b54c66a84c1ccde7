package io.mdgate.app.journal;

import io.mdgate.core.capture.ReadJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code replay} fills each tick's symbol from the INSTRUMENT ticks of its session, also for ranges that start in
 * the middle of a session (the directory is read first from the session's SESSION tick) and ranges across session
 * changes (each SESSION tick empties it), on a journal of three normalized sessions ({@link SessionsJournal#threeSessions}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplaySymbolsTest
{
    private static final Set<String> ORDER_EVENTS =
        Set.of("ADD", "EXECUTE", "EXECUTE_WITH_PRICE", "CANCEL", "DELETE", "REPLACE");

    @TempDir
    static Path dir;

    private static SessionsJournal journal;

    @BeforeAll
    static void journalThreeSessions()
    {
        journal = SessionsJournal.threeSessions(dir.resolve("journal"));
    }

    @Test
    void shouldGiveEveryTickOfTheJournalTheSymbolTheSimulatorGaveItsLocateInItsSession()
    {
        final CommandRun run = replay("--to", "json");

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(journal.lastSequence, run.lines().size());
        final int[] named = assertSymbols(run.lines());
        assertTrue(named[0] > 10_000 && named[1] > 5_000, "order ticks with a symbol in sessions 1 and 2: " +
            named[0] + ", " + named[1]);
        assertFalse(run.err().contains("symbols from"), "a range from the first tick reads nothing before: " +
            run.err());
    }

    @Test
    void shouldFindTheSymbolsNamedBeforeARangeThatStartsMidSessionAndRunsIntoTheNext()
    {
        final long from = journal.sessionStarts[0] + 9_000;
        final long to = journal.sessionStarts[1] + 5_000;
        final CommandRun run = replay("--from-seq", Long.toString(from), "--to-seq", Long.toString(to));

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(to - from + 1, run.lines().size());
        final int[] named = assertSymbols(run.lines());
        assertTrue(named[0] > 1_000 && named[1] > 1_000, "order ticks with a symbol: " + named[0] + ", " + named[1]);
        assertTrue(run.err().contains("symbols from 9,000 ticks of the session before the range"), run.err());
    }

    @Test
    void shouldForgetTheSymbolsAtASessionChangeInsideTheRangeAndBeforeIt()
    {
        final long intoThird = journal.sessionStarts[2] + 3_000;
        final CommandRun across = replay("--from-seq", Long.toString(journal.sessionStarts[1] + 100), "--to-seq",
            Long.toString(intoThird));
        final CommandRun inside = replay("--from-seq", Long.toString(intoThird));

        assertEquals(0, across.exitCode(), across::toString);
        assertEquals(0, inside.exitCode(), inside::toString);
        final int[] acrossNamed = assertSymbols(across.lines());
        assertTrue(acrossNamed[1] > 1_000, "session 2 named its instruments: " + acrossNamed[1]);
        assertSymbols(inside.lines()); // all null: the second session's symbols must not reach the third
        assertTrue(inside.err().contains("symbols from 3,000 ticks"), "read from the third session's start only: " +
            inside.err());
    }

    @Test
    void shouldWriteTheSymbolColumnOfTheCsvAfterTheInstrument()
    {
        final long from = journal.sessionStarts[1] + 2_000;
        final CommandRun run = replay("--from-seq", Long.toString(from), "--to-seq", Long.toString(from + 999),
            "--to", "csv");

        assertEquals(0, run.exitCode(), run::toString);
        final List<String> lines = run.lines();
        assertEquals("gatewaySequence,exchangeSequence,exchangeTimestamp,receiveTimestamp,instrument,symbol," +
            "sessionId,event,side,price,quantity,orderReference,matchOrNewReference,flags", lines.get(0));
        assertEquals(1_001, lines.size());
        int named = 0;
        for (final String row : lines.subList(1, lines.size()))
        {
            final String[] columns = row.split(",", -1);
            assertEquals(14, columns.length, row);
            final String expected = journal.symbol(Integer.parseInt(columns[6]), Integer.parseInt(columns[4]));
            assertEquals(expected == null ? "" : expected, columns[5], row);
            named += expected != null && ORDER_EVENTS.contains(columns[7]) ? 1 : 0;
        }
        assertTrue(named > 300, named + " order ticks with a symbol");
    }

    @Test
    void shouldLeaveTheSymbolsOutWithNoSymbols()
    {
        final CommandRun run = replay("--from-seq", Long.toString(journal.sessionStarts[0] + 9_000), "--to-seq",
            Long.toString(journal.sessionStarts[0] + 9_999), "--no-symbols");

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals(1_000, run.lines().size());
        for (final String line : run.lines())
        {
            assertNull(ReadJson.parseObject(line).get("symbol"), line);
        }
        assertFalse(run.err().contains("symbols from"), run.err());
    }

    private static CommandRun replay(final String... args)
    {
        final String[] all = new String[args.length + 2];
        all[0] = "--journal";
        all[1] = journal.directory.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return CommandRun.run(new ReplayCommand(), all);
    }

    /**
     * Checks each line's symbol against the simulator's for its session and locate (null for market-wide ticks and
     * in the session without a directory).
     *
     * @return order ticks with a symbol, per session.
     */
    private static int[] assertSymbols(final List<String> lines)
    {
        final int[] named = new int[3];
        for (final String line : lines)
        {
            final Map<String, Object> tick = ReadJson.parseObject(line);
            final int session = ((Number)tick.get("sessionId")).intValue();
            final String expected = journal.symbol(session, ((Number)tick.get("instrument")).intValue());
            assertEquals(expected, tick.get("symbol"), line);
            if (expected != null && ORDER_EVENTS.contains((String)tick.get("event")))
            {
                named[session - 1]++;
            }
        }
        return named;
    }
}
