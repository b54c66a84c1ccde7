package io.mdgate.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a command's loop end cleanly on Ctrl-C or SIGTERM: a shutdown hook clears {@link #running()} and waits (at
 * most the grace time) for the loop to close its resources, so ports are stopped, the journal closed, consumers told
 * and shared-memory files and sockets removed before the JVM exits. {@link #stop()} ends the loop from inside the
 * process. Create it before the loop, {@link #close()} it after. Threading: {@link #running()} from the loop's
 * thread, {@link #stop()} from any.
 */
public final class StopSignal implements AutoCloseable
{
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean running = true;

    /** With a grace time of 5 s, enough for a command's own resources. */
    public StopSignal()
    {
        this(5);
    }

    /** @param graceSeconds how long the shutdown hook waits for {@link #close()}. */
    public StopSignal(final long graceSeconds)
    {
        hook = new Thread(() ->
        {
            running = false;
            try
            {
                finished.await(graceSeconds, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "mdgate-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** @return false once Ctrl-C, SIGTERM or {@link #stop()} asked the loop to end. */
    public boolean running()
    {
        return running;
    }

    /** Asks the loop to end, from inside the process. */
    public void stop()
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
            // The JVM is shutting down already: the hook is running and has just been released.
        }
    }
}
