package io.mdgate.egress.support;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Polls until a condition holds or a deadline passes, failing with a message that says what was awaited.
 */
public final class Await
{
    private Await()
    {
    }

    public static void until(final String what, final long timeoutSeconds, final BooleanSupplier work)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!work.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("timed out after " + timeoutSeconds + " s waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }
}
