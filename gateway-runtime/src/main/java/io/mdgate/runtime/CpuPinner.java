package io.mdgate.runtime;

/**
 * Pins the calling thread to one CPU and checks that it now runs only there. Called on each core's thread before
 * its agents start.
 */
@FunctionalInterface
public interface CpuPinner
{
    /** Leaves threads where the scheduler puts them (tests, and {@code run --no-pin}). */
    CpuPinner NONE = cpu -> {};

    /**
     * @param cpu the CPU.
     * @throws IllegalStateException when the thread could not be pinned or the check after found it elsewhere,
     *                               saying why.
     */
    void pin(int cpu);

    /**
     * Checks again, after the core's agents started (a port's start may move the thread), that the calling thread
     * is still pinned to {@code cpu} alone.
     *
     * @return true when it is (always, for a pinner that does not pin).
     */
    default boolean holds(final int cpu)
    {
        return true;
    }

    /**
     * @return true when the gateway should also keep every other thread of the process off the CPUs of its spinning
     *         cores ({@link SpinningCpuGuard}); only a pinner that really pins says so (the default says no).
     */
    default boolean placesOtherThreads()
    {
        return false;
    }

    /** @return the calling thread's kernel thread id, for {@link SpinningCpuGuard}; -1 when unknown. */
    default int threadId()
    {
        return -1;
    }
}
