package io.mdgate.consumerc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A native program started by a test: its standard output and error collected line by line on daemon threads,
 * signals sent to its pid only, destroyed (SIGKILL) on close if still running. Under the sanitizer build, any
 * AddressSanitizer, LeakSanitizer or UBSan report on its standard error is a failure ({@link #sanitizerReport()}).
 */
final class NativeProcess implements AutoCloseable
{
    private static final String[] SANITIZER_MARKS = {
        "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "SUMMARY: UndefinedBehaviorSanitizer",
        "SUMMARY: AddressSanitizer" };

    private final String label;
    private final Process process;
    private final List<String> out = Collections.synchronizedList(new ArrayList<>());
    private final List<String> err = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> drains = new ArrayList<>();

    NativeProcess(final String label, final NativeBuild build, final List<String> command) throws IOException
    {
        this.label = label;
        final ProcessBuilder builder = new ProcessBuilder(command);
        if (build.sanitized())
        {
            builder.environment().put("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:exitcode=86");
            builder.environment().put("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=87");
        }
        process = builder.start();
        drain(process.getInputStream(), out);
        drain(process.getErrorStream(), err);
    }

    private void drain(final InputStream stream, final List<String> into)
    {
        final Thread thread = new Thread(() ->
        {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8)))
            {
                String line;
                while (null != (line = reader.readLine()))
                {
                    into.add(line);
                }
            }
            catch (final IOException ignore)
            {
                // The process is gone; what it printed so far is kept.
            }
        }, "native-" + label);
        thread.setDaemon(true);
        thread.start();
        drains.add(thread);
    }

    long pid()
    {
        return process.pid();
    }

    List<String> out()
    {
        synchronized (out)
        {
            return new ArrayList<>(out);
        }
    }

    List<String> err()
    {
        synchronized (err)
        {
            return new ArrayList<>(err);
        }
    }

    boolean isAlive()
    {
        return process.isAlive();
    }

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

    /** Waits until a line of standard output or error matches, failing with both if it does not in time. */
    void awaitLine(final boolean stderr, final Predicate<String> matcher, final long timeoutSeconds, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline)
        {
            if ((stderr ? err() : out()).stream().anyMatch(matcher))
            {
                return;
            }
            if (!process.isAlive())
            {
                awaitDrained();
                if ((stderr ? err() : out()).stream().anyMatch(matcher))
                {
                    return;
                }
                throw new AssertionError(label + " exited with " + process.exitValue() + " before " + what +
                    "; stderr: " + err() + "; last output: " + tail());
            }
            sleep(20);
        }
        throw new AssertionError(label + " did not reach " + what + " in " + timeoutSeconds + " s; stderr: " + err() +
            "; last output: " + tail());
    }

    void awaitReady(final long timeoutSeconds)
    {
        awaitLine(true, line -> line.contains(": ready: "), timeoutSeconds, "ready");
    }

    int awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
        {
            throw new AssertionError(label + " still running after " + timeoutSeconds + " s; stderr: " + err() +
                "; last output: " + tail());
        }
        awaitDrained();
        return process.exitValue();
    }

    void signal(final String signal) throws IOException, InterruptedException
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0)
        {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** SIGKILL, then wait for it and its output. */
    void killHard() throws InterruptedException
    {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        awaitDrained();
    }

    /** @return the first sanitizer report line on standard error, or null when there is none. */
    String sanitizerReport()
    {
        for (final String line : err())
        {
            for (final String mark : SANITIZER_MARKS)
            {
                if (line.contains(mark))
                {
                    return line + " (stderr: " + String.join("\n", err()) + ")";
                }
            }
        }
        return null;
    }

    private List<String> tail()
    {
        final List<String> lines = out();
        return lines.subList(Math.max(0, lines.size() - 5), lines.size());
    }

    private static void sleep(final long millis)
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
