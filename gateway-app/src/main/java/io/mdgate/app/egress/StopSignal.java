package io.mdgate.app.egress;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a command's loop end cleanly on Ctrl-C or SIGTERM: a shutdown hook clears {@link #running()} and waits (a
 * few seconds at most) for the loop to close its resources, so shared-memory files and sockets are removed.
 * Create it before the loop, {@link #close()} it after. Threading: {@link #running()} from the loop's thread.
 */
final class StopSignal implements AutoCloseable
{
    private static final long GRACE_SECONDS = 5;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean running = true;

    StopSignal()
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
        }, "mdgate-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    boolean running()
    {
        return running;
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
