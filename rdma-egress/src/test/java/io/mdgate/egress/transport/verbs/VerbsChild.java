package io.mdgate.egress.transport.verbs;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.egress.consumer.EgressConsumer;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@link VerbsConsumerProcess} in a child JVM with this JVM's flags and a class path made of where this JVM
 * found the classes it needs (so it works under surefire and under the JUnit console launcher, whose class path is
 * not {@code java.class.path}). Output lines are collected on a daemon thread; closing kills it by its pid.
 */
final class VerbsChild implements AutoCloseable
{
    private final String label;
    private final Process process;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());

    VerbsChild(final String label, final List<String> args) throws IOException
    {
        this.label = label;
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(classPath());
        command.add(VerbsConsumerProcess.class.getName());
        command.addAll(args);
        process = new ProcessBuilder(command).start();
        drain(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII)), lines);
        drain(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), errors);
    }

    private static String classPath()
    {
        final Set<String> entries = new LinkedHashSet<>();
        for (final Class<?> type : new Class<?>[] {VerbsChild.class, EgressConsumer.class, TickHandler.class,
            DirectBuffer.class, Histogram.class})
        {
            try
            {
                entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            }
            catch (final URISyntaxException | NullPointerException ex)
            {
                throw new IllegalStateException("cannot tell where " + type + " comes from", ex);
            }
        }
        entries.add(System.getProperty("java.class.path"));
        return String.join(File.pathSeparator, entries);
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
                // The child is gone; what it printed is kept.
            }
        }, "child-" + label);
        thread.setDaemon(true);
        thread.start();
    }

    void awaitLine(final Predicate<String> matcher, final long timeoutSeconds, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline)
        {
            synchronized (lines)
            {
                for (int i = lines.size() - 1; i >= 0; i--)
                {
                    if (matcher.test(lines.get(i)))
                    {
                        return;
                    }
                }
            }
            if (!process.isAlive())
            {
                sleepMillis(200);
                synchronized (lines)
                {
                    if (lines.stream().anyMatch(matcher))
                    {
                        return;
                    }
                }
                throw new AssertionError(label + " exited with " + process.exitValue() + " before " + what +
                    "; stderr: " + errors + "; last output: " + tail());
            }
            sleepMillis(20);
        }
        throw new AssertionError(label + " did not reach " + what + " in " + timeoutSeconds + " s; stderr: " + errors +
            "; last output: " + tail());
    }

    /** @return the sequences of the {@code T} lines printed so far, in order. */
    List<Long> sequences()
    {
        final List<Long> sequences = new ArrayList<>();
        synchronized (lines)
        {
            for (final String line : lines)
            {
                if (line.startsWith("T "))
                {
                    sequences.add(Long.parseLong(line.substring(2).trim()));
                }
            }
        }
        return sequences;
    }

    String stats()
    {
        synchronized (lines)
        {
            return lines.stream().filter(line -> line.startsWith("STATS")).findFirst().orElse("no STATS line");
        }
    }

    int awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            throw new AssertionError(label + " still running after " + timeoutSeconds + " s; stderr: " + errors +
                "; last output: " + tail());
        }
        sleepMillis(200);
        return process.exitValue();
    }

    void killHard() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        sleepMillis(200);
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
