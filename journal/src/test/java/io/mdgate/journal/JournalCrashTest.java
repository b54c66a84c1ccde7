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
 * Kills a separate JVM with SIGKILL while it journals a busy stream, twice, then lets a third run finish, and
 * checks the journal: every tick any run reported as journaled is there, none twice, the sequences contiguous and
 * every tick intact.
 */
class JournalCrashTest
{
    private static final long TICKS_PER_RUN = 400_000;

    @TempDir
    Path dir;

    private final List<String> log = new ArrayList<>();

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldLoseNoJournaledTickAndDuplicateNoneWhenTheProcessIsKilledMidStream() throws Exception
    {
        long reported = 0;
        long expectedStart = 1;
        for (int run = 0; run < 2; run++)
        {
            final Process process = start();
            try
            {
                final BlockingQueue<String> lines = lines(process);
                final long start = startOf(lines);
                assertTrue(start >= expectedStart && start - 1 >= reported,
                    "run " + run + " starts at " + start + " after " + reported + " was reported journaled; " + log);
                reported = Math.max(reported, journaledAtLeast(lines, start + TICKS_PER_RUN));
                process.destroyForcibly();
                assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the killed process did not end");
                reported = Math.max(reported, drainReported(lines));
                expectedStart = reported + 1;
                System.out.println("run " + run + " started at " + start + ", killed after reporting " + reported +
                    " journaled");
            }
            finally
            {
                process.destroyForcibly();
            }
        }

        final long last = reported + TICKS_PER_RUN;
        final Process finisher = start(Long.toString(last));
        final BlockingQueue<String> lines = lines(finisher);
        final long start = startOf(lines);
        assertTrue(start - 1 >= reported, "the last run starts at " + start + " after " + reported + "; " + log);
        System.out.println("last run started at " + start + " (" + (start - 1 - reported) +
            " ticks journaled after the last report before the kill), finishing at " + last);
        assertTrue(finisher.waitFor(60, TimeUnit.SECONDS), "the last run did not finish; " + log);
        assertEquals(0, finisher.exitValue(), log::toString);

        try (JournalReader reader = JournalReader.open(dir); TickReplay replay = reader.newTickReplay())
        {
            assertEquals(1, replay.firstSequence());
            assertEquals(last, replay.lastSequence());
            final long[] expected = { 1 };
            final long delivered = replay.replay(1, last, (buffer, offset) ->
            {
                TestTicks.assertDerived(buffer, offset);
                assertEquals(expected[0]++, buffer.getLong(offset + TickReplay.SEQUENCE_OFFSET,
                    java.nio.ByteOrder.LITTLE_ENDIAN));
            });
            assertEquals(last, delivered);
            assertEquals(last, replay.count(), "every record is a tick: no duplicate, no stray record");
        }
    }

    private Process start(final String... extra) throws IOException
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
        command.add(CrashingJournalProcess.class.getName());
        command.add(dir.toString());
        command.addAll(List.of(extra));
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
        }, "crash-test-output");
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
                return Long.parseLong(line.substring(6));
            }
            assertTrue(!line.equals("eof"), "the process ended before starting; " + log);
        }
    }

    /** @return the journaled sequence reported once it reaches the target. */
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

    /** @return the highest journaled sequence among the lines the killed process printed before it died. */
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
