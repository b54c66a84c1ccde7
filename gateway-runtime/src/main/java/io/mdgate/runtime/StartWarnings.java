package io.mdgate.runtime;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Warnings raised while the gateway is assembled, held until it has started so that a gateway that cannot start
 * says why on the first line of stderr; once started, a warning is printed at once. Thread-safe (it is called at
 * most a few times, never on a tick).
 */
final class StartWarnings implements Consumer<String>
{
    private final PrintStream err;
    private final List<String> held = new ArrayList<>();
    private boolean started;

    StartWarnings(final PrintStream err)
    {
        this.err = err;
    }

    @Override
    public synchronized void accept(final String warning)
    {
        if (started)
        {
            err.println(warning);
        }
        else
        {
            held.add(warning);
        }
    }

    /** Prints what was held, in order, and every later warning at once. */
    synchronized void started()
    {
        started = true;
        held.forEach(err::println);
        held.clear();
    }
}
