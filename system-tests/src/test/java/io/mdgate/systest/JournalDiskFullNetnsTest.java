package io.mdgate.systest;

import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersSnapshot;
import io.mdgate.runtime.counters.ErrorRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate run} whose journal fills its filesystem: a 48 MiB tmpfs this test mounts (and unmounts, even when it
 * fails), half taken by another file. The free-space warning must come first; then the gateway must stop by itself
 * with exit code 3 and one line saying where, how much was free and where the run resumes, no Java trace, and
 * {@code journal.no_space} and the error log saying so, having published no tick beyond the last one journaled. A
 * start while the disk is still full is refused the same way, touching nothing. Once the other file is deleted, the
 * next start resumes from the journal, re-requests what the feed sent meanwhile, and the journal and both consumers
 * (which stay up throughout) hold every message once, every gateway sequence once. Tagged {@code netns}, the group
 * of tests that need root (here: for the mount); skipped, saying why, without root or loopback multicast.
 */
@Tag("netns")
class JournalDiskFullNetnsTest
{
    private static final long MIB = 1 << 20;
    private static final Pattern NO_SPACE = Pattern.compile("mdgate run: journal: no space left on (\\S+) \\((\\d+) " +
        "bytes free\\) at sequence (\\d+); free space and start again: the run resumes at (\\d+)");

    @TempDir
    Path dir;

    @BeforeEach
    void requireRootAndLoopbackMulticast() throws IOException
    {
        if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")))
        {
            FeedNamespaces.skip("mounting a tmpfs needs root");
        }
        final String problem = ExactlyOnceRun.unavailable(ExactlyOnceRun.groupPrefix() + 230);
        if (problem != null)
        {
            FeedNamespaces.skip(problem);
        }
    }

    @Test
    @Timeout(300)
    void shouldWarnThenStopBeforeAnUnjournaledTickWithExitCode3AndResumeEveryMessageOnceOnceSpaceIsFreed()
        throws Exception
    {
        final Path disk = dir.resolve("disk");
        try (Tmpfs ignored = Tmpfs.mount(disk, 48);
            ExactlyOnceRun run = new ExactlyOnceRun(dir, "full", disk.resolve("journal"), "min_free_mb = 10"))
        {
            final Path filler = disk.resolve("other-data");
            Files.write(filler, new byte[(int)(24 * MIB)]);
            run.startGateway();
            run.startConsumers();
            run.startSim("--messages", "200000", "--seed", "35", "--instruments", "40", "--rate", "20000",
                "--loss-a", "0.01", "--loss-b", "0.01", "--loss-burst", "2", "--linger-ms", "30000");

            final int exit = run.awaitGatewayExit(120);
            final String log = Files.readString(run.gatewayLog());
            System.out.println("disk full, gateway 1 (exit " + exit + "):\n" + tail(log));
            final List<String> problems = new ArrayList<>();
            if (exit != 3)
            {
                problems.add("the gateway should exit 3 on a full journal, exited " + exit);
            }
            if (log.contains("Exception") || log.contains("\tat ") || log.contains("InternalError"))
            {
                problems.add("a Java trace reached the output");
            }
            final Matcher line = NO_SPACE.matcher(log);
            final int warning = log.indexOf("mdgate run: warning: the journal's filesystem (" + disk.resolve("journal"));
            long stoppedAt = -1;
            if (!line.find())
            {
                problems.add("no 'journal: no space left on ...' line");
            }
            else
            {
                stoppedAt = Long.parseLong(line.group(3));
                check(problems, line.group(1).equals(disk.resolve("journal").toString()), "names the journal");
                check(problems, Long.parseLong(line.group(2)) < 8 * MIB, "free bytes " + line.group(2) + " said");
                check(problems, Long.parseLong(line.group(4)) == stoppedAt + 1, "resumes at S+1");
                check(problems, warning >= 0 && warning < line.start(), "the free-space warning came first");
            }
            final CountersSnapshot stopped = run.counters();
            final TickLedger journaled = TickLedger.ofJournal(run.journal);
            check(problems, journaled.lastGatewaySequence() == stoppedAt, "the journal ends at the sequence said, " +
                journaled.lastGatewaySequence());
            check(problems, stopped.value("journal.no_space", 0) == 1, "journal.no_space is 1");
            check(problems, stopped.value("journal.free_space_low", 0) > 0, "journal.free_space_low counted");
            check(problems, stopped.value("egress.last_sequence", Long.MAX_VALUE) <= stoppedAt,
                "nothing published past the journal: egress.last_sequence " + stopped.value("egress.last_sequence", -1));
            check(problems, errorTexts(run.counters).contains("no space left on " + disk.resolve("journal")),
                "the error log has the stop");
            for (final Map.Entry<String, Path> consumer : run.recordings().entrySet())
            {
                final long seen = TickLedger.ofRecording(consumer.getKey(), consumer.getValue()).lastGatewaySequence();
                check(problems, seen <= stoppedAt, consumer.getKey() + " got " + seen + ", past the journal's " +
                    stoppedAt);
            }

            final int refused = run.runGatewayToExit(60);
            final String refusal = Files.readString(run.gatewayLog());
            System.out.println("disk still full, gateway 2 (exit " + refused + "): " + refusal.trim());
            check(problems, refused == 3, "a start on the full disk exits 3, exited " + refused);
            check(problems, refusal.lines().findFirst().orElse("").startsWith("mdgate run: journal: no space left on " +
                disk.resolve("journal")) && refusal.contains("at sequence " + stoppedAt + ";"),
                "its first line says the disk is full at the same sequence");
            check(problems, TickLedger.ofJournal(run.journal).lastGatewaySequence() == stoppedAt,
                "the refused start left the journal as it was");

            Files.delete(filler);
            run.startGateway();
            final Map<String, Object> sent = run.awaitSim(240);
            final CountersSnapshot last = run.awaitQuiet();
            final int stop = run.stopGateway();
            problems.addAll(ExactlyOnceSystemTest.check(run, sent, last, 1));
            check(problems, TickLedger.ofJournal(run.journal).lastGatewaySequence() > stoppedAt,
                "the restart journaled on");
            ExactlyOnceSystemTest.report(run, problems, stop);
        }
    }

    private static void check(final List<String> problems, final boolean ok, final String what)
    {
        if (!ok)
        {
            problems.add("expected: " + what);
        }
    }

    private static String errorTexts(final Path counters)
    {
        try (CountersFile file = CountersFile.open(counters))
        {
            return String.join("\n", file.errors().stream().map(ErrorRecord::text).toList());
        }
    }

    private static String tail(final String log)
    {
        return log.length() > 3000 ? "..." + log.substring(log.length() - 3000) : log;
    }

    /** A tmpfs of a given size mounted for one test; {@link #close()} unmounts it (lazily when still busy). */
    private record Tmpfs(Path where) implements AutoCloseable
    {
        static Tmpfs mount(final Path where, final int mib) throws IOException, InterruptedException
        {
            Files.createDirectories(where);
            final int rc = run("mount", "-t", "tmpfs", "-o", "size=" + mib + "m,mode=0755", "mdgate-test", where.toString());
            if (rc != 0)
            {
                FeedNamespaces.skip("cannot mount a tmpfs on " + where + " (mount exited " + rc + ")");
            }
            return new Tmpfs(where);
        }

        @Override
        public void close() throws IOException, InterruptedException
        {
            if (run("umount", where.toString()) != 0 && run("umount", "-l", where.toString()) != 0)
            {
                throw new IOException("could not unmount the test's tmpfs " + where);
            }
        }

        private static int run(final String... command) throws IOException, InterruptedException
        {
            final Process process = new ProcessBuilder(command).inheritIO().start();
            if (!process.waitFor(30, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        }
    }
}
