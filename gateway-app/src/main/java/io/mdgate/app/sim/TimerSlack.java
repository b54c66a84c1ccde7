package io.mdgate.app.sim;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The calling thread's timer slack ({@code prctl(PR_SET_TIMERSLACK)}): how late the kernel may fire the thread's
 * timers to group wake-ups, 50 us by default. A sender that sleeps between packets sets it to about a microsecond so
 * that a short park ends close to its deadline.
 */
final class TimerSlack
{
    private static final int PR_SET_TIMERSLACK = 29;

    private TimerSlack()
    {
    }

    interface LibC extends Library
    {
        int prctl(int option, long arg2, long arg3, long arg4, long arg5) throws LastErrorException;
    }

    /**
     * @param nanos the slack for the calling thread, at least 1.
     * @return null when set, else why not (no libc through JNA, or the kernel refused).
     */
    static String set(final long nanos)
    {
        try
        {
            Native.load("c", LibC.class).prctl(PR_SET_TIMERSLACK, nanos, 0, 0, 0);
            return null;
        }
        catch (final LastErrorException ex)
        {
            return "prctl(PR_SET_TIMERSLACK) failed with errno " + ex.getErrorCode();
        }
        catch (final LinkageError | RuntimeException ex)
        {
            return "libc is not reachable through JNA: " + ex.getMessage();
        }
    }
}
