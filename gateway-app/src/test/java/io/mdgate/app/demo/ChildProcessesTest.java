package io.mdgate.app.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChildProcessesTest
{
    @TempDir
    Path dir;

    @Test
    void shouldStopEveryStartedProcessOnCloseEvenOneThatIgnoresSigterm() throws Exception
    {
        final ChildProcesses children = new ChildProcesses(300);
        final ChildProcesses.Child polite = children.start("polite", List.of("sleep", "60"), dir.resolve("a.log"));
        final ChildProcesses.Child stubborn = children.start("stubborn",
            List.of("bash", "-c", "trap '' TERM; echo ready; while true; do sleep 0.05; done"), dir.resolve("b.log"));
        waitFor(() -> Files.readString(dir.resolve("b.log")).contains("ready"));

        children.close();

        assertFalse(polite.process().isAlive());
        assertFalse(stubborn.process().isAlive());
        assertEquals(143, polite.process().exitValue(), "sleep ended by SIGTERM");
        assertEquals(137, stubborn.process().exitValue(), "the one ignoring SIGTERM ended by SIGKILL");
    }

    @Test
    void shouldAppendOutputToTheLogAndReportTheExitCode() throws Exception
    {
        final Path log = Files.writeString(dir.resolve("c.log"), "earlier\n");
        try (ChildProcesses children = new ChildProcesses(1_000))
        {
            final ChildProcesses.Child child = children.start("echo", List.of("bash", "-c", "echo out; echo err >&2; exit 3"), log);

            assertEquals(3, child.process().waitFor());
            assertEquals("earlier\nout\nerr\n", Files.readString(log));
            assertTrue(child.pid() > 0);
        }
    }

    private interface Condition
    {
        boolean met() throws Exception;
    }

    private static void waitFor(final Condition condition) throws Exception
    {
        final long end = System.nanoTime() + 10_000_000_000L;
        while (!condition.met())
        {
            if (System.nanoTime() > end)
            {
                throw new AssertionError("condition not met in 10 s");
            }
            Thread.sleep(20);
        }
    }
}
