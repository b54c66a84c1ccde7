package io.mdgate.app.run;

/**
 * Pins the calling thread to one CPU and checks that it now runs only there. Called on each core's thread before
 * its agents start.
 */
@FunctionalInterface
interface CpuPinner
{
    /** Leaves threads where the scheduler puts them (tests, and {@code run --no-pin}). */
    CpuPinner NONE = cpu -> {};

    /**
     * @param cpu the CPU.
     * @throws IllegalStateException when the thread could not be pinned or the check after found it elsewhere,
     *                               saying why.
     */
    void pin(int cpu);
}
