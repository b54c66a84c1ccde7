package io.mdgate.systest;

import io.mdgate.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every exchange message exactly once, whatever happens: {@code mdgate sim} sends a lossy A/B feed on {@code lo}
 * and serves re-requests, {@code mdgate run} (a process of its own) journals and publishes it, and two consumer
 * processes (ring and stream) that stay up throughout record every tick ({@link ExactlyOnceRun}). In each scenario
 * the journal must hold every message the simulator says it sent exactly once, by MoldUDP64 session and exchange
 * sequence (the SESSION ticks name the sessions), with no GAP tick, gateway sequences contiguous and exchange times
 * never going backwards; each consumer must hold the journal's ticks, every gateway sequence once. Every problem
 * found is reported at once. Skipped, with the reason printed, where multicast cannot loop back on {@code lo}.
 */
@Tag("slow")
class ExactlyOnceSystemTest
{
    private static final String FIRST = "SIM0000001";
    private static final String SECOND = "SIM0000002";

    @TempDir
    Path dir;

    @BeforeEach
    void requireLoopbackMulticast()
    {
        final String problem = ExactlyOnceRun.unavailable(ExactlyOnceRun.groupPrefix() + 230);
        if (problem != null)
        {
            System.out.println("SKIPPED ExactlyOnceSystemTest: " + problem);
        }
        Assumptions.assumeTrue(problem == null, problem);
    }

    @Test
    @Timeout(300)
    void shouldHoldEveryMessageOnceInTheJournalAndAtAConsumerThroughTwoKillsAndRestartsUnderALossyFeed()
        throws Exception
    {
        try (ExactlyOnceRun run = new ExactlyOnceRun(dir, "kill"))
        {
            run.startGateway();
            run.startConsumers();
            run.startSim("--messages", "160000", "--seed", "31", "--instruments", "40", "--rate", "8000",
                "--loss-a", "0.02", "--loss-b", "0.02", "--loss-burst", "3", "--linger-ms", "10000");

            run.awaitCounters(s -> s.value("feed.next_sequence", 0) >= 25_000, "25,000 messages through gateway 1");
            run.killGateway();
            final boolean liveAtFirstKill = !run.simDone();
            run.startGateway();
            run.awaitCounters(s -> s.value("session.ticks", 0) >= 5_000, "5,000 ticks from gateway 2");
            Thread.sleep(1_000);
            run.killGateway();
            final boolean liveAtSecondKill = !run.simDone();
            run.startGateway();

            final Map<String, Object> sent = run.awaitSim(240);
            final CountersSnapshot last = run.awaitQuiet();
            final int exit = run.stopGateway();
            final List<String> problems = check(run, sent, last, 1);
            if (!liveAtFirstKill || !liveAtSecondKill)
            {
                problems.add("a kill came after the feed ended (live at the first: " + liveAtFirstKill +
                    ", at the second: " + liveAtSecondKill + "): the scenario needs a longer feed on this host");
            }
            report(run, problems, exit);
        }
    }

    @Test
    @Timeout(300)
    void shouldCatchUpWithEveryMessageOnceAfterBeingDownLongEnoughToFillItsHoldFromASlowServer() throws Exception
    {
        try (ExactlyOnceRun run = new ExactlyOnceRun(dir, "down"))
        {
            run.startGateway();
            run.startConsumers();
            // Answers of 8 messages: the server recovers about twice as fast as the feed runs, so catching up on
            // the seconds the gateway was down takes longer than its hold (8,192 packets) lasts.
            run.startSim("--messages", "120000", "--seed", "33", "--instruments", "40", "--rate", "8000",
                "--loss-a", "0.01", "--loss-b", "0.01", "--loss-burst", "2", "--answer-limit", "8",
                "--linger-ms", "15000");

            run.awaitCounters(s -> s.value("feed.next_sequence", 0) >= 15_000, "15,000 messages through gateway 1");
            run.killGateway();
            Thread.sleep(3_000);
            final boolean liveAtRestart = !run.simDone();
            run.startGateway();

            final Map<String, Object> sent = run.awaitSim(240);
            final CountersSnapshot last = run.awaitQuiet();
            final int exit = run.stopGateway();
            final List<String> problems = check(run, sent, last, 1);
            if (!liveAtRestart)
            {
                problems.add("the feed ended while the gateway was down: the scenario needs a longer feed here");
            }
            if (last != null && last.value("feed.packets_shed", 0) == 0)
            {
                problems.add("the hold never filled (feed.packets_shed 0), so shedding was not exercised: " +
                    ExactlyOnceRun.feed(last));
            }
            report(run, problems, exit);
        }
    }

    /** Checks for one gateway process that ran the whole session: it delivered every message the exchange sent. */
    private static void checkDelivered(final Map<String, Object> sent, final CountersSnapshot last,
        final List<String> problems)
    {
        final long messages = ExactlyOnceRun.sessions(sent).values().stream().mapToLong(Long::longValue).sum();
        if (last != null && last.value("feed.messages.delivered", -1) != messages)
        {
            problems.add("feed.messages.delivered is " + last.value("feed.messages.delivered", -1) + ", the exchange " +
                "sent " + messages);
        }
    }

    @Test
    @Timeout(240)
    void shouldHoldEveryMessageOfBothSessionsOnceUnderItsOwnSessionWhenTheSessionChangesWithLineBLagging()
        throws Exception
    {
        try (ExactlyOnceRun run = new ExactlyOnceRun(dir, "chg"))
        {
            run.startGateway();
            run.startConsumers();
            run.startSim("--messages", "60000", "--seed", "32", "--instruments", "30", "--rate", "10000",
                "--session-change-at", "30000", "--lag-b-ms", "10", "--loss-a", "0.03", "--loss-b", "0.01",
                "--loss-burst", "3", "--linger-ms", "5000");
            final Map<String, Object> sent = run.awaitSim(180);
            final CountersSnapshot last = run.awaitQuiet();
            final int exit = run.stopGateway();
            assertEquals(Map.of(FIRST, 30_000L, SECOND, 30_000L), ExactlyOnceRun.sessions(sent));

            final List<String> problems = check(run, sent, last, 2);
            checkDelivered(sent, last, problems);
            final List<TickLedger.SessionTick> sessions = TickLedger.ofJournal(run.journal).sessionTicks();
            if (sessions.size() == 2 && !(sessions.get(0).name().equals(FIRST) && sessions.get(0).sessionId() == 1 &&
                sessions.get(1).name().equals(SECOND) && sessions.get(1).sessionId() == 2))
            {
                problems.add("the SESSION ticks should name " + FIRST + " as session 1, then " + SECOND +
                    " as session 2: " + sessions);
            }
            report(run, problems, exit);
        }
    }

    @Test
    @Timeout(240)
    void shouldNeitherSwitchSessionNorOpenAGapForStrayPacketsOfAnotherSession() throws Exception
    {
        try (ExactlyOnceRun run = new ExactlyOnceRun(dir, "stray"))
        {
            run.startGateway();
            run.startConsumers();
            run.startSim("--messages", "40000", "--seed", "33", "--instruments", "30", "--rate", "10000",
                "--stray", "20", "--loss-a", "0.02", "--loss-b", "0.02", "--loss-burst", "3", "--linger-ms", "5000");
            final Map<String, Object> sent = run.awaitSim(180);
            final CountersSnapshot last = run.awaitQuiet();
            final int exit = run.stopGateway();
            assertEquals(20, ExactlyOnceRun.injected(sent, "stray"));

            final List<String> problems = check(run, sent, last, 1);
            checkDelivered(sent, last, problems);
            final long refused = sum(last, label -> label.startsWith("feed") && label.contains("session") &&
                (label.contains("other") || label.contains("refused") || label.contains("stray") ||
                    label.contains("candidate") || label.contains("rejected")));
            if (refused < 20)
            {
                problems.add("each of the 20 stray packets should be counted as refused: the feed's session " +
                    "refusal counters sum to " + refused);
            }
            report(run, problems, exit);
        }
    }

    @Test
    @Timeout(240)
    void shouldCountFarAheadPacketsAsImplausibleAndStillHoldEveryMessageOnceAndEndTheRunNormally()
        throws Exception
    {
        try (ExactlyOnceRun run = new ExactlyOnceRun(dir, "far"))
        {
            run.startGateway();
            run.startConsumers();
            run.startSim("--messages", "40000", "--seed", "34", "--instruments", "30", "--rate", "10000",
                "--far-ahead", "5", "--loss-a", "0.02", "--loss-b", "0.02", "--loss-burst", "3", "--linger-ms", "5000");
            final Map<String, Object> sent = run.awaitSim(180);
            final CountersSnapshot last = run.awaitQuiet();
            final int exit = run.stopGateway();
            assertEquals(5, ExactlyOnceRun.injected(sent, "farAhead"));

            final List<String> problems = check(run, sent, last, 1);
            checkDelivered(sent, last, problems);
            final long implausible = sum(last, label -> label.startsWith("feed") && label.contains("implausible"));
            if (implausible != 5)
            {
                problems.add("the 5 far-ahead packets should be counted as implausible: counters named " +
                    "*implausible* sum to " + implausible);
            }
            report(run, problems, exit);
        }
    }

    /**
     * The checks every scenario shares.
     *
     * @param sessions how many sessions the gateway must have started (SESSION ticks).
     */
    static List<String> check(final ExactlyOnceRun run, final Map<String, Object> sent,
        final CountersSnapshot last, final int sessions) throws Exception
    {
        final Map<String, Long> expected = ExactlyOnceRun.sessions(sent);
        final List<String> problems = new ArrayList<>();
        final TickLedger journal = TickLedger.ofJournal(run.journal);
        problems.addAll(journal.sequenceProblems());
        problems.addAll(journal.messageProblems(expected));
        problems.addAll(journal.timeProblems());
        final List<String> gaps = journal.gapTicks();
        if (!gaps.isEmpty())
        {
            problems.add("the journal has " + gaps.size() + " GAP ticks (every message was there to recover): " +
                gaps.subList(0, Math.min(5, gaps.size())));
        }
        final List<TickLedger.SessionTick> sessionTicks = journal.sessionTicks();
        if (sessionTicks.size() != sessions)
        {
            problems.add("the journal should have " + sessions + " SESSION tick(s), one per session started, has " +
                sessionTicks.size() + ": " + sessionTicks);
        }
        if (last == null)
        {
            problems.add("no counters to read at the end");
        }
        else
        {
            if (last.value("feed.gaps.open", 0) != 0 || last.value("feed.messages.missing", 0) != 0)
            {
                problems.add("gaps still open at the end: " + ExactlyOnceRun.feed(last));
            }
            if (last.value("journal.position", -1) != journal.lastGatewaySequence())
            {
                problems.add("journal.position " + last.value("journal.position", -1) + " but the journal ends at " +
                    journal.lastGatewaySequence());
            }
        }
        if (!run.consumersGone().isEmpty())
        {
            problems.add("consumer processes ended, they must stay up: " + run.consumersGone());
        }
        for (final Map.Entry<String, Path> consumer : run.recordings().entrySet())
        {
            final TickLedger recorded = TickLedger.ofRecording(consumer.getKey(), consumer.getValue());
            problems.addAll(recorded.sequenceProblems());
            if (recorded.lastGatewaySequence() != journal.lastGatewaySequence())
            {
                problems.add("consumer " + consumer.getKey() + " ends at gateway sequence " +
                    recorded.lastGatewaySequence() + ", the journal at " + journal.lastGatewaySequence());
            }
            problems.addAll(recorded.messageProblems(expected));
            problems.addAll(recorded.differencesFrom(journal));
        }
        System.out.println(run.dir.getFileName() + ": journal " + journal.count() + " ticks, sessions " +
            sessionTicks + ", expected " + expected + "; " + (last == null ? "" : ExactlyOnceRun.feed(last)));
        return problems;
    }

    static void report(final ExactlyOnceRun run, final List<String> problems, final int exit)
    {
        if (exit != 0)
        {
            problems.add("the gateway exited with " + exit + " on SIGTERM; a clean stop exits 0");
        }
        problems.forEach(p -> System.out.println(run.dir.getFileName() + " PROBLEM: " + p));
        assertEquals(List.of(), problems, () -> "logs: " + run.logs());
    }

    private static long sum(final CountersSnapshot s, final java.util.function.Predicate<String> label)
    {
        return s == null ? 0 : s.values().entrySet().stream().filter(e -> label.test(e.getKey()))
            .mapToLong(Map.Entry::getValue).sum();
    }
}
