package io.mdgate.app.demo;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The processes a demo run started, each with its output in a log file, stopped by their own PIDs (never by
 * name): SIGTERM first so they can shut down cleanly, SIGKILL after a grace period, children of theirs included.
 * Thread-safe: the shutdown hook may stop them while the command's thread is still watching them.
 */
public final class ChildProcesses implements AutoCloseable
{
    private final List<Child> children = new ArrayList<>();
    private final long graceMillis;

    /**
     * @param graceMillis how long a process has between SIGTERM and SIGKILL.
     */
    public ChildProcesses(final long graceMillis)
    {
        this.graceMillis = graceMillis;
    }

    /**
     * Starts a process with standard output and error appended to {@code log} and no standard input.
     *
     * @param name    what the process is, for messages.
     * @param command the program and its arguments.
     * @param log     file for its output.
     * @return the started process.
     * @throws UncheckedIOException when it cannot be started.
     */
    public Child start(final String name, final List<String> command, final Path log)
    {
        return start(name, command, log, null);
    }

    /**
     * Starts a process with no standard input, its standard error appended to {@code log} and its standard output
     * written to {@code stdout} (or appended to the log too when null).
     *
     * @param name    what the process is, for messages.
     * @param command the program and its arguments.
     * @param log     file for its standard error.
     * @param stdout  file for its standard output, or null.
     * @return the started process.
     * @throws UncheckedIOException when it cannot be started.
     */
    public synchronized Child start(final String name, final List<String> command, final Path log, final Path stdout)
    {
        final ProcessBuilder builder = new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (null == stdout)
        {
            builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        }
        else
        {
            builder.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectOutput(ProcessBuilder.Redirect.to(stdout.toFile()));
        }
        try
        {
            final Child child = new Child(name, builder.start(), log);
            children.add(child);
            return child;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot start the " + name + " (" + String.join(" ", command) + "): " +
                ex.getMessage(), ex);
        }
    }

    /**
     * Stops one process: SIGTERM, then SIGKILL after the grace period; waits for it to exit.
     *
     * @param child a process started here.
     * @return its exit code.
     */
    public int stop(final Child child)
    {
        final Process process = child.process();
        final List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        try
        {
            if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS))
            {
                process.destroyForcibly();
                process.waitFor(graceMillis, TimeUnit.MILLISECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        return process.isAlive() ? -1 : process.exitValue();
    }

    /**
     * Stops every process still running, the last started first.
     */
    @Override
    public synchronized void close()
    {
        for (int i = children.size() - 1; i >= 0; i--)
        {
            final Child child = children.get(i);
            if (child.process().isAlive())
            {
                stop(child);
            }
        }
    }

    /**
     * One started process.
     *
     * @param name    what it is.
     * @param process the process.
     * @param log     its output.
     */
    public record Child(String name, Process process, Path log)
    {
        /** @return its PID. */
        public long pid()
        {
            return process.pid();
        }
    }
}
