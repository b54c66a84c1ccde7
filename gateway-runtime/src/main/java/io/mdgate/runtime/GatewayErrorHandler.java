package io.mdgate.runtime;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.PrintStream;

/**
 * Where every agent's errors go: counted ({@code gateway.errors}), recorded once per distinct error in the counters
 * file's log (what {@code mdgate errors} prints, with how often and when), and said on standard error. Never
 * throws. Threading: any thread.
 */
final class GatewayErrorHandler implements ErrorHandler
{
    private final DistinctErrorLog log;
    private final AtomicCounter errors;
    private final PrintStream err;

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
        try
        {
            err.println("mdgate run: " + Thread.currentThread().getName() + ": " + throwable +
                (recorded ? "" : " (the error log is full)"));
            err.flush();
        }
        catch (final RuntimeException ignore)
        {
            // Standard error gone: the error is in the log and the count.
        }
    }
}
