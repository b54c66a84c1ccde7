package io.mdgate.app.run;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ends {@code run}'s wait on SIGTERM or Ctrl-C: a shutdown hook clears {@link #running()} and waits (at most
 * {@link #GRACE_SECONDS}) until the gateway has closed, so ports are stopped, the journal closed and consumers told
 * before the JVM exits. {@link #stop()} ends the wait from inside the process. Create before the wait,
 * {@link #close()} after the gateway closed.
 */
final class ShutdownSignal implements AutoCloseable
{
    static final long GRACE_SECONDS = 20;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean running = true;

    ShutdownSignal()
    {
        hook = new Thread(() ->
        {
            running = false;
            try
            {
                finished.await(GRACE_SECONDS, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "mdgate-run-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    boolean running()
    {
        return running;
    }

    void stop()
    {
        running = false;
    }

    @Override
    public void close()
    {
        finished.countDown();
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException ignore)
        {
            // The JVM is shutting down: the hook runs and has just been released.
        }
    }
}
