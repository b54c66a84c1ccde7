package io.mdgate.runtime;

import io.mdgate.journal.JournalSpaceException;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.PrintStream;

/**
 * Where every agent's errors go: counted ({@code gateway.errors}), recorded once per distinct error in the counters
 * file's log (what {@code mdgate errors} prints, with how often and when), and said on standard error by their
 * reason ({@link Causes#reason}), not by the wrapper around it. While the gateway starts, the lines are held: a
 * failure to start is said once by whoever called {@link Gateway#start()}, first; once started, the held lines are
 * printed ({@link #started()}). Never throws. Threading: any thread.
 */
final class GatewayErrorHandler implements ErrorHandler
{
    private final DistinctErrorLog log;
    private final AtomicCounter errors;
    private final PrintStream err;
    private final java.util.List<String> held = new java.util.ArrayList<>();
    private boolean starting = true;

    GatewayErrorHandler(final DistinctErrorLog log, final AtomicCounter errors, final PrintStream err)
    {
        this.log = log;
        this.errors = errors;
        this.err = err;
    }

    @Override
    public void onError(final Throwable throwable)
    {
        errors.increment();
        final boolean recorded = log.record(throwable);
        // A full journal is the operator's to fix, not a fault of the core thread that met it: said as the journal's.
        final String where = throwable instanceof JournalSpaceException ? "journal: " + throwable.getMessage() :
            Thread.currentThread().getName() + ": " + Causes.reason(throwable);
        final String line = "mdgate run: " + where + (recorded ? "" : " (the error log is full)");
        synchronized (held)
        {
            if (starting)
            {
                held.add(line);
                return;
            }
        }
        say(line);
    }

    /** The gateway started: says the lines held meanwhile, and says every later error at once. */
    void started()
    {
        final java.util.List<String> lines;
        synchronized (held)
        {
            starting = false;
            lines = java.util.List.copyOf(held);
            held.clear();
        }
        lines.forEach(this::say);
    }

    private void say(final String line)
    {
        try
        {
            err.println(line);
            err.flush();
        }
        catch (final RuntimeException ignore)
        {
            // Standard error gone: the error is in the log and the count.
        }
    }
}
