package io.mdgate.consumerc;

import io.mdgate.egress.process.ChildJvm;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A native program started by a test (rdma-egress's {@link ChildJvm} runs it: output collected line by line, signals
 * to its pid only, destroyed on close). Under the sanitizer build the sanitizers are told to report through their
 * exit codes, and any AddressSanitizer, LeakSanitizer or UBSan report on its standard error is a failure
 * ({@link #sanitizerReport()}).
 */
final class NativeProcess implements AutoCloseable
{
    private static final String[] SANITIZER_MARKS = {
        "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "SUMMARY: UndefinedBehaviorSanitizer",
        "SUMMARY: AddressSanitizer" };
    private static final Map<String, String> SANITIZER_ENVIRONMENT = Map.of(
        "ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0:exitcode=86",
        "UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=87");

    private final ChildJvm child;

    NativeProcess(final String label, final NativeBuild build, final List<String> command) throws IOException
    {
        child = ChildJvm.program(label, command, build.sanitized() ? SANITIZER_ENVIRONMENT : Map.of());
    }

    long pid()
    {
        return child.pid();
    }

    List<String> out()
    {
        return child.lines();
    }

    List<String> err()
    {
        return child.errorLines();
    }

    boolean isAlive()
    {
        return child.isAlive();
    }

    /** Waits until a line of standard output (or error) matches, failing with both if it does not in time. */
    void awaitLine(final boolean stderr, final Predicate<String> matcher, final long timeoutSeconds, final String what)
    {
        if (stderr)
        {
            child.awaitErrorLine(matcher, timeoutSeconds, what);
        }
        else
        {
            child.awaitLine(matcher, timeoutSeconds, what);
        }
    }

    /** Waits for mdgate-consume-c's {@code ready} line (its subscriptions answered). */
    void awaitReady(final long timeoutSeconds)
    {
        awaitLine(true, line -> line.contains(": ready: "), timeoutSeconds, "ready");
    }

    int awaitExit(final long timeoutSeconds) throws InterruptedException
    {
        return child.awaitExit(timeoutSeconds);
    }

    void signal(final String signal) throws IOException, InterruptedException
    {
        child.signal(signal);
    }

    /** SIGKILL, then wait for it and its output. */
    void killHard() throws InterruptedException
    {
        child.killHard();
    }

    /** @return the first sanitizer report line on standard error, or null when there is none. */
    String sanitizerReport()
    {
        final List<String> err = err();
        for (final String line : err)
        {
            for (final String mark : SANITIZER_MARKS)
            {
                if (line.contains(mark))
                {
                    return line + " (stderr: " + String.join("\n", err) + ")";
                }
            }
        }
        return null;
    }

    @Override
    public void close()
    {
        child.close();
    }
}
