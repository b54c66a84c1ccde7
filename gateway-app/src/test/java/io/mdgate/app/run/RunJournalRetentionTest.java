package io.mdgate.app.run;

import io.mdgate.app.feed.LoopbackMulticast;
import io.mdgate.app.journal.RecordCommand;
import io.mdgate.app.sim.SimCommand;
import io.mdgate.journal.JournalLayout;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;
import io.mdgate.runtime.LoopbackGatewayConfig;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code [journal] roll_cycle} and {@code retain_cycles} under {@code mdgate run}: a journal holding three
 * five-minute cycles of an earlier day (recorded from a capture by exchange time) is trimmed to the cycles kept when
 * the gateway opens it, and again when the live session rolls it into a cycle of today; the retained range replays.
 */
class RunJournalRetentionTest
{
    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void shouldDeleteCyclesBeyondTheRetentionWhileTheGatewayRunsAndReplayWhatIsKept() throws Exception
    {
        final String prefix = RunRestartTest.assumeLoopbackMulticast("RunJournalRetentionTest", 246);
        final String groupA = prefix + 247 + ":" + LoopbackMulticast.freePort();
        final String groupB = prefix + 248 + ":" + LoopbackMulticast.freePort();
        final Path journal = dir.resolve("journal");
        // 600 messages at one a second: ten minutes of exchange time, three five-minute cycles.
        final Path capture = dir.resolve("earlier.pcap");
        assertEquals(0, quiet(new SimCommand(), "--messages", "600", "--rate", "1", "--seed", "9", "--instruments",
            "5", "--group-a", groupA, "--group-b", groupB, "--pcap", capture.toString()));
        assertEquals(0, quiet(new RecordCommand(), capture.toString(), "--journal", journal.toString(),
            "--line-a", groupA, "--line-b", groupB, "--roll-cycle", "five-minutely"));
        assertEquals(3, tickCycles(journal).size(), tickCycles(journal).toString());

        Files.createDirectories(dir.resolve("shm"));
        final Path config = dir.resolve("gw.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "retain-" + ProcessHandle.current().pid(), groupA,
            groupB, LoopbackMulticast.freePort(), LoopbackGatewayConfig.oneCore())
            .replace("[journal]\nenabled = true\n", "[journal]\nenabled = true\nroll_cycle = \"five-minutely\"\n" +
                "retain_cycles = 2\n"));
        final Path counters = dir.resolve("counters");
        final StringWriter runErr = new StringWriter();
        final RunCommand run = new RunCommand();
        final CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> new CommandLine(run)
            .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(runErr))
            .execute("--config", config.toString(), "--no-pin"));
        final CountersSnapshot live;
        try
        {
            RunRestartTest.await(counters, s -> s.has("gateway.uptime_s"));
            // The journal agent trims when it starts, on its own thread.
            final long trimmed = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (tickCycles(journal).size() > 2 && System.nanoTime() < trimmed)
            {
                Thread.sleep(20);
            }
            final List<String> atOpen = tickCycles(journal);
            assertEquals(2, atOpen.size(), "trimmed to retain_cycles = 2 at open: " + atOpen);
            // The same day again, live and longer: the journaled first 600 are duplicates, the rest new ticks of
            // today, which start a new cycle and trim the journal once more while the gateway runs.
            assertEquals(0, quiet(new SimCommand(), "--messages", "1000", "--rate", "20000", "--seed", "9",
                "--instruments", "5", "--send", "lo", "--group-a", groupA, "--group-b", groupB, "--max-idle-ms", "5",
                "--linger-ms", "200"));
            live = RunRestartTest.await(counters, s -> s.value("feed.end_of_session", 0) == 1 &&
                s.value("journal.cycles_deleted", 0) > 0 && s.value("journal.position", 0) ==
                s.value("session.last_sequence", -1));
            final List<String> whileRunning = tickCycles(journal);
            System.out.println("cycles at open " + atOpen + ", while running " + whileRunning + "; deleted " +
                live.value("journal.cycles_deleted") + " by the running gateway");
            assertEquals(2, whileRunning.size(), whileRunning.toString());
            assertEquals(atOpen.get(1), whileRunning.get(0), "the older of the two kept at open went next");
            assertTrue(live.value("session.ticks") > 0, "live ticks journaled");
        }
        finally
        {
            run.stop();
            assertEquals(0, running.get(60, TimeUnit.SECONDS), runErr.toString());
        }
        try (JournalReader reader = JournalReader.open(journal); TickReplay replay = reader.newTickReplay())
        {
            final long[] count = { 0 };
            final long replayed = replay.replay(replay.firstSequence(), replay.lastSequence(),
                (buffer, offset) -> count[0]++);
            assertTrue(replay.firstSequence() > 1, "the deleted cycles' ticks are gone: first " +
                replay.firstSequence());
            assertEquals(replay.lastSequence() - replay.firstSequence() + 1, replayed);
            assertEquals(replayed, count[0]);
        }
        final Path out = dir.resolve("replay.json");
        RunRestartTest.cli("replay", "--journal", journal.toString(), "--out", out.toString());
        assertTrue(Files.size(out) > 0, "replay of the retained range wrote ticks");
    }

    private static List<String> tickCycles(final Path journal) throws IOException
    {
        try (Stream<Path> files = Files.list(JournalLayout.ticks(journal)))
        {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cq4")).sorted().toList();
        }
    }

    private static int quiet(final Object command, final String... args)
    {
        final StringWriter text = new StringWriter();
        final int rc = new CommandLine(command).setOut(new PrintWriter(text)).setErr(new PrintWriter(text))
            .execute(args);
        if (rc != 0)
        {
            System.out.println(text);
        }
        return rc;
    }
}
