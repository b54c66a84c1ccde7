package io.mdgate.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a JVM with SIGKILL in the middle of a busy stream of sessions, messages and gaps, three times, each run
 * resuming from the resume point the journal gives, and checks after each kill that the resume point is the one
 * the whole journal read forwards gives: at the last tick in the files (never before a tick reported journaled,
 * never past the last one), with its session's name, and that the journal holds every exchange message exactly
 * once per session with exchange times never going backwards.
 */
class ResumePointCrashTest
{
    private static final long TICKS_PER_RUN = 300_000;
    private static final long SESSION_MESSAGES = 120_000;
    private static final int GAP_EVERY = 997;

    @TempDir
    Path dir;

    private final List<String> log = new ArrayList<>();

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldResumeAtTheLastJournaledTickAfterEachKillWithEveryMessageJournaledOnce() throws Exception
    {
        long reported = 0;
        long expectedStart = 1;
        for (int run = 0; run < 3; run++)
        {
            final Process process = start();
            try
            {
                final BlockingQueue<String> lines = lines(process);
                final long start = startOf(lines);
                assertEquals(expectedStart, start, "run " + run + " starts after the resume point; " + log);
                reported = Math.max(reported, journaledAtLeast(lines, start + TICKS_PER_RUN));
                process.destroyForcibly();
                assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the killed process did not end");
                reported = Math.max(reported, drainReported(lines));
            }
            finally
            {
                process.destroyForcibly();
            }

            final ResumePoint point;
            final long lastInFiles;
            try (TickJournal journal = TickJournal.open(JournalFixture.context(dir)))
            {
                point = journal.resumePoint().orElseThrow();
                lastInFiles = journal.lastSequenceAtOpen();
            }
            final JournalTruth truth = JournalTruth.read(dir);
            System.out.println("run " + run + " killed after reporting " + reported + " journaled; " + point +
                "; " + truth.messages() + " messages in " + truth.sessionChanges() + " sessions");
            assertEquals(lastInFiles + 1, point.nextGatewaySequence(), "the resume point is at the last tick");
            assertTrue(point.lastGatewaySequence() >= reported, "every tick reported journaled is behind it");
            assertEquals(truth.resumePoint().orElseThrow(), point);
            assertEquals(SessionTickStream.name(point.sessionNumber()), point.sessionNameText());
            expectedStart = point.nextGatewaySequence();
        }
        assertTrue(JournalTruth.read(dir).sessionChanges() >= 3, "the runs crossed session changes");
    }

    private Process start() throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (!argument.startsWith("-agentlib") && !argument.startsWith("-javaagent") &&
                !argument.startsWith("-Xrunjdwp"))
            {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ResumingJournalProcess.class.getName());
        command.add(dir.toString());
        command.add(Long.toString(SESSION_MESSAGES));
        command.add(Integer.toString(GAP_EVERY));
        return new ProcessBuilder(command).redirectErrorStream(true).directory(new File(".")).start();
    }

    private BlockingQueue<String> lines(final Process process)
    {
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII)))
            {
                String line;
                while ((line = in.readLine()) != null)
                {
                    lines.add(line);
                }
            }
            catch (final IOException ignored)
            {
                // the process was killed while its output was read
            }
            lines.add("eof");
        }, "resume-crash-test-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    private long startOf(final BlockingQueue<String> lines) throws InterruptedException
    {
        while (true)
        {
            final String line = lines.poll(60, TimeUnit.SECONDS);
            assertNotNull(line, "no start line; " + log);
            log.add(line);
            if (line.startsWith("start "))
            {
                return Long.parseLong(line.split(" ")[1]);
            }
            assertTrue(!line.equals("eof"), "the process ended before starting; " + log);
        }
    }

    private long journaledAtLeast(final BlockingQueue<String> lines, final long target) throws InterruptedException
    {
        while (true)
        {
            final String line = lines.poll(60, TimeUnit.SECONDS);
            assertNotNull(line, "the process stopped reporting; " + log);
            if (line.startsWith("journaled "))
            {
                final long journaled = Long.parseLong(line.substring(10));
                if (journaled >= target)
                {
                    return journaled;
                }
            }
            else
            {
                log.add(line);
                assertTrue(!line.equals("eof"), "the process ended early; " + log);
            }
        }
    }

    private long drainReported(final BlockingQueue<String> lines) throws InterruptedException
    {
        long reported = 0;
        while (true)
        {
            final String line = lines.poll(30, TimeUnit.SECONDS);
            if (line == null || line.equals("eof"))
            {
                return reported;
            }
            if (line.startsWith("journaled "))
            {
                reported = Math.max(reported, Long.parseLong(line.substring(10)));
            }
        }
    }
}
