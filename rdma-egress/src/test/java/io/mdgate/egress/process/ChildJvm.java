package io.mdgate.egress.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM started with this test JVM's class path and input arguments (or, through {@link #program}, any
 * program), its standard output collected line by line on a daemon thread and its standard error kept for
 * diagnostics. Signals go to its pid only; closing destroys it (forcibly if need be).
 */
public final class ChildJvm implements AutoCloseable
{
    private final String label;
    private final Process process;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> drains = new ArrayList<>();

    ChildJvm(final String label, final Class<?> mainClass, final List<String> args) throws IOException
    {
        this(label, jvmCommand(mainClass, args), Map.of());
    }

    private ChildJvm(final String label, final List<String> command, final Map<String, String> environment)
        throws IOException
    {
        this.label = label;
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        process = builder.start();
        drain(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), lines);
        drain(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), errors);
    }

    /** Starts any program (a native one, say) with these environment variables added to this JVM's. */
    public static ChildJvm program(final String label, final List<String> command,
        final Map<String, String> environment) throws IOException
    {
        return new ChildJvm(label, command, environment);
    }

    private static List<String> jvmCommand(final Class<?> mainClass, final List<String> args)
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(args);
        return command;
    }

    private void drain(final BufferedReader reader, final List<String> into)
    {
        final Thread thread = new Thread(() ->
        {
            try (reader)
            {
                String line;
                while (null != (line = reader.readLine()))
                {
                    into.add(line);
                }
            }
            catch (final IOException ignore)
            {
                // The child is gone; what it printed so far is kept.
            }
        }, "child-" + label);
        thread.setDaemon(true);
        thread.start();
        drains.add(thread);
    }

    /** Waits until everything the exited child printed has been read. */
    private void awaitDrained()
    {
        for (final Thread drain : drains)
        {
            try
            {
                drain.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    public long pid()
    {
        return process.pid();
    }

    /** @return a copy of what the child printed so far. */
    public List<String> lines()
    {
        return copy(lines);
    }

    /** @return a copy of what the child wrote to its standard error so far. */
    public List<String> errorLines()
    {
        return copy(errors);
    }

    private static List<String> copy(final List<String> from)
    {
        synchronized (from)
        {
            return new ArrayList<>(from);
        }
    }

    public boolean isAlive()
    {
        return process.isAlive();
    }

    /** Waits until a printed line matches, failing with the child's output if it does not in time. */
    public void awaitLine(final Predicate<String> matcher, final long timeoutSeconds, final String what)
    {
        await(lines, matcher, timeoutSeconds, what);
    }

    /** Waits until a line of standard error matches, as {@link #awaitLine} does for standard output. */
    public void awaitErrorLine(final Predicate<String> matcher, final long timeoutSeconds, final String what)
    {
        await(errors, matcher, timeoutSeconds, what);
    }

    private void await(final List<String> source, final Predicate<String> matcher, final long timeoutSeconds,
        final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline)
        {
            if (printed(source, matcher))
            {
                return;
            }
            if (!process.isAlive())
            {
                awaitDrained();
                if (!printed(source, matcher))
                {
                    throw new AssertionError(label + " exited with " + process.exitValue() + " before " + what +
                        "; stderr: " + errors + "; last output: " + tail());
                }
            }
            sleepMillis(20);
        }
        throw new AssertionError(label + " did not reach " + what + " in " + timeoutSeconds + " s; stderr: " +
            errors + "; last output: " + tail());
    }

    private static boolean printed(final List<String> source, final Predicate<String> matcher)
    {
        synchronized (source)
        {
            for (int i = source.size() - 1; i >= 0; i--)
            {
                if (matcher.test(source.get(i)))
                {
                    return true;
                }
            }
            return false;
        }
    }

    public int awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            throw new AssertionError(label + " still running after " + timeoutSeconds + " s; stderr: " + errors +
                "; last output: " + tail());
        }
        awaitDrained();
        return process.exitValue();
    }

    /** Sends a signal (STOP, CONT) to this child's pid. */
    public void signal(final String signal) throws IOException, InterruptedException
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0)
        {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    public void killHard() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        awaitDrained();
    }

    List<String> errors()
    {
        return errors;
    }

    private List<String> tail()
    {
        synchronized (lines)
        {
            final int size = lines.size();
            return new ArrayList<>(lines.subList(Math.max(0, size - 5), size));
        }
    }

    private static void sleepMillis(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        if (process.isAlive())
        {
            try
            {
                signal("CONT");
            }
            catch (final IOException | InterruptedException | IllegalStateException ignore)
            {
                // It may have exited between the check and the signal.
            }
            process.destroyForcibly();
            try
            {
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
