package io.mdgate.app;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Turns SIGTERM and SIGINT into {@link StopSignal#stop()} while it is open, so that a signal ends a command's loop as
 * its own end would (`mdgate run` like {@code --duration}, `mdgate sim`'s linger like its time running out); closing it puts the JVM's own handlers back. A second signal, or a stop still not
 * finished {@code graceSeconds} after the first, ends the JVM as its own handler would (shutdown hooks, then
 * exit 128 + the signal's number). Threading: the signals arrive on the JVM's signal thread.
 */
public final class TerminationTrap implements AutoCloseable
{
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private final StopSignal stop;
    private final long graceSeconds;
    private volatile boolean signalled;
    private volatile boolean closed;

    /**
     * @param stop         stopped by the first signal.
     * @param graceSeconds how long the stop may take before the JVM is ended as the signal would have.
     */
    public TerminationTrap(final StopSignal stop, final long graceSeconds)
    {
        this.stop = stop;
        this.graceSeconds = graceSeconds;
        for (final String name : List.of("TERM", "INT"))
        {
            final Signal signal = new Signal(name);
            try
            {
                previous.put(signal, Signal.handle(signal, this::onSignal));
            }
            catch (final IllegalArgumentException reserved)
            {
                // The JVM keeps this signal (e.g. -Xrs): its shutdown hook, StopSignal, still stops the run.
            }
        }
    }

    private void onSignal(final Signal signal)
    {
        if (closed)
        {
            return;
        }
        if (signalled)
        {
            exitAsSignalled(signal);
            return;
        }
        signalled = true;
        stop.stop();
        final Thread watchdog = new Thread(() -> escalateAfterGrace(signal), "mdgate-stop-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private void escalateAfterGrace(final Signal signal)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(graceSeconds);
        while (!closed && System.nanoTime() < deadline)
        {
            try
            {
                Thread.sleep(50);
            }
            catch (final InterruptedException ex)
            {
                return;
            }
        }
        exitAsSignalled(signal);
    }

    /** Ends the JVM as its own handler would have: shutdown hooks, then 128 + the signal's number. */
    private void exitAsSignalled(final Signal signal)
    {
        if (!closed)
        {
            Runtime.getRuntime().exit(128 + signal.getNumber());
        }
    }

    @Override
    public void close()
    {
        closed = true;
        previous.forEach(Signal::handle);
    }
}
