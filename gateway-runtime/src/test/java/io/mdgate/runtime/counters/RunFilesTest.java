package io.mdgate.runtime.counters;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class RunFilesTest
{
    @TempDir
    Path dir;

    @Test
    void shouldShiftEachRunBackOneAndDropTheRunsBeyondTheBound() throws Exception
    {
        final Path current = dir.resolve("counters");
        for (int run = 1; run <= 5; run++)
        {
            RunFiles.rotate(current, 3);
            Files.writeString(current, "run " + run);
        }

        assertEquals("run 5", Files.readString(current));
        assertEquals("run 4", Files.readString(RunFiles.ofRun(current, 1)));
        assertEquals("run 2", Files.readString(RunFiles.ofRun(current, 3)));
        assertFalse(Files.exists(RunFiles.ofRun(current, 4)));
        assertEquals(List.of(1, 2, 3), RunFiles.kept(current));
    }

    @Test
    void shouldDropTheRunsALowerBoundNoLongerKeeps() throws Exception
    {
        final Path current = dir.resolve("x.hlog");
        for (int run = 1; run <= 4; run++)
        {
            RunFiles.rotate(current, 5);
            Files.writeString(current, "run " + run);
        }
        RunFiles.rotate(current, 1);

        assertFalse(Files.exists(current), "the current name is free for the new run");
        assertEquals("run 4", Files.readString(RunFiles.ofRun(current, 1)));
        assertEquals(List.of(1), RunFiles.kept(current));
        RunFiles.rotate(RunFiles.ofRun(current, 1).resolveSibling("absent"), 2);
        RunFiles.rotate(current, 0);
        assertTrue(RunFiles.kept(current).isEmpty(), "keep 0 keeps nothing");
    }

    @Test
    void shouldReadRunNamesAndRefuseOthersSayingWhatIsAccepted()
    {
        assertEquals(0, RunFiles.parseRun("current"));
        assertEquals(1, RunFiles.parseRun("previous"));
        assertEquals(1, RunFiles.parseRun("-1"));
        assertEquals(2, RunFiles.parseRun("2"));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RunFiles.parseRun("yesterday"));
        assertEquals("--run 'yesterday' is not a run; give current (0), previous (1, -1) or N runs back (-N), up " +
            "to 100", ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RunFiles.parseRun("-101"));
    }
}
