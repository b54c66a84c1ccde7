package io.mdgate.runtime.counters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Names and rotates the files one gateway run leaves (counters file, latency logs): the current run's file keeps its
 * name, the previous run's is {@code NAME.1}, the one before {@code NAME.2}, up to the runs kept. A new run renames
 * rather than rewrites, so what a crashed or SIGKILLed run left (a memory-mapped counters file, flushed latency logs)
 * is there to read after the restart. Start-up only; not thread-safe.
 */
public final class RunFiles
{
    /** Previous runs kept by default ({@code [gateway] keep_runs}). */
    public static final int DEFAULT_KEEP_RUNS = 5;
    /** Most previous runs that can be kept. */
    public static final int MAX_KEEP_RUNS = 100;

    private RunFiles()
    {
    }

    /**
     * @param current the current run's file.
     * @param runsBack 0 for the current run, 1 for the previous, and so on.
     * @return the file of that run.
     */
    public static Path ofRun(final Path current, final int runsBack)
    {
        return runsBack == 0 ? current : current.resolveSibling(current.getFileName() + "." + runsBack);
    }

    /**
     * Makes room for a new run: the current file becomes {@code .1}, {@code .1} becomes {@code .2}, and so on; the
     * files of runs older than {@code keep} (from a larger keep earlier) are deleted.
     *
     * @param current the current run's file, absent or not.
     * @param keep    previous runs to keep, 0 to {@link #MAX_KEEP_RUNS}; 0 deletes the current file.
     * @throws IllegalStateException when a file cannot be renamed or deleted.
     */
    public static void rotate(final Path current, final int keep)
    {
        if (keep < 0 || keep > MAX_KEEP_RUNS)
        {
            throw new IllegalArgumentException("keep must be 0.." + MAX_KEEP_RUNS + ", was " + keep);
        }
        try
        {
            for (int run = MAX_KEEP_RUNS; run >= Math.max(keep, 1); run--)
            {
                Files.deleteIfExists(ofRun(current, run));
            }
            for (int run = keep - 1; run >= 0; run--)
            {
                final Path from = ofRun(current, run);
                if (Files.exists(from))
                {
                    Files.move(from, ofRun(current, run + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.deleteIfExists(current);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot keep the previous run's " + current + ": " + ex.getMessage() +
                "; make its directory writable, or set [gateway] keep_runs = 0", ex);
        }
    }

    /** @return runs back (1 first) whose file exists beside {@code current}. */
    public static List<Integer> kept(final Path current)
    {
        final List<Integer> runs = new ArrayList<>();
        for (int run = 1; run <= MAX_KEEP_RUNS; run++)
        {
            if (Files.exists(ofRun(current, run)))
            {
                runs.add(run);
            }
        }
        return runs;
    }

    /**
     * @param text {@code current} (or 0), {@code previous} (or 1, -1), or N (or -N) runs back.
     * @return runs back.
     * @throws IllegalArgumentException naming what is accepted.
     */
    public static int parseRun(final String text)
    {
        final String value = text.trim().toLowerCase(Locale.ROOT);
        if ("current".equals(value))
        {
            return 0;
        }
        if ("previous".equals(value))
        {
            return 1;
        }
        try
        {
            final int runsBack = Math.abs(Integer.parseInt(value));
            if (runsBack <= MAX_KEEP_RUNS)
            {
                return runsBack;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // Said below.
        }
        throw new IllegalArgumentException("--run '" + text + "' is not a run; give current (0), previous (1, -1) " +
            "or N runs back (-N), up to " + MAX_KEEP_RUNS);
    }
}
