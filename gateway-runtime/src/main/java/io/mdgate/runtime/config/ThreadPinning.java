package io.mdgate.runtime.config;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;

import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Pins the calling thread to one CPU with Linux's {@code sched_setaffinity}, called through JNA, and verifies the
 * pinning: the thread's affinity mask afterwards holds that CPU alone and the thread runs on it. Unlike OpenHFT's
 * affinity library it hands out any CPU, CPU 0 included. Thread-safe: every call acts on the calling thread only.
 */
public final class ThreadPinning
{
    /** The largest CPU number this class can pin to (the mask it passes covers 1024 CPUs). */
    public static final int MAX_CPU = 1023;

    private static final int MASK_BYTES = (MAX_CPU + 1) / 8;
    private static final int EINVAL = 22;
    private static final int EPERM = 1;

    private static final LibC LIBC;
    private static final Throwable UNAVAILABILITY_CAUSE;

    static
    {
        LibC libc = null;
        Throwable cause = null;
        try
        {
            libc = Native.load("c", LibC.class);
        }
        catch (final LinkageError | RuntimeException ex)
        {
            cause = ex;
        }
        LIBC = libc;
        UNAVAILABILITY_CAUSE = cause;
    }

    /**
     * The C library functions used, bound by JNA.
     */
    interface LibC extends Library
    {
        int sched_setaffinity(int pid, int cpusetsize, byte[] mask) throws LastErrorException;

        int sched_getaffinity(int pid, int cpusetsize, byte[] mask) throws LastErrorException;

        int sched_getcpu() throws LastErrorException;

        int gettid();
    }

    private ThreadPinning()
    {
    }

    /**
     * @return whether pinning works in this process (JNA and the C library load).
     */
    public static boolean isAvailable()
    {
        return null != LIBC;
    }

    /**
     * Pins the calling thread to {@code cpu} and verifies that it now may run only there and runs there.
     *
     * @param cpu the CPU, as numbered in /sys/devices/system/cpu.
     * @throws IllegalStateException saying why the thread could not be pinned (no such CPU, a CPU outside this
     *                               process's cpuset, no permission) or why the pinning did not hold.
     */
    public static void pin(final int cpu)
    {
        ensureAvailable();
        if (cpu < 0 || cpu > MAX_CPU)
        {
            throw new IllegalStateException("cannot pin to CPU " + cpu + ": CPUs are numbered 0.." + MAX_CPU);
        }
        final SortedSet<Integer> only = new TreeSet<>();
        only.add(cpu);
        affinity(only);
        final SortedSet<Integer> after = affinity();
        if (!after.equals(only))
        {
            throw new IllegalStateException("pinning to CPU " + cpu + " did not hold: the thread may run on CPUs " +
                SysFs.formatCpuList(after));
        }
        final int running = currentCpu();
        if (running != cpu)
        {
            throw new IllegalStateException("pinned to CPU " + cpu + " but the thread runs on CPU " + running);
        }
    }

    /**
     * For a check after start: whether the calling thread is still pinned to {@code cpu} alone and runs there.
     *
     * @param cpu the CPU it was pinned to.
     * @return true when its affinity mask is that CPU alone and it runs on it.
     */
    public static boolean isPinnedTo(final int cpu)
    {
        final SortedSet<Integer> mask = affinity();
        return 1 == mask.size() && mask.first() == cpu && currentCpu() == cpu;
    }

    /**
     * Sets the calling thread's affinity mask, e.g. to give back the CPUs it had before a {@link #pin}.
     *
     * @param cpus the CPUs the thread may run on, at least one.
     * @throws IllegalStateException saying why the kernel refused.
     */
    public static void affinity(final SortedSet<Integer> cpus)
    {
        affinity(0, cpus);
    }

    /**
     * Sets another thread's affinity mask (a thread of this process, by its kernel thread id).
     *
     * @param threadId the thread id ({@link #threadId()} on that thread, or a name in {@code /proc/self/task}); 0 for
     *                 the calling thread.
     * @param cpus     the CPUs it may run on.
     * @throws IllegalStateException when the kernel refuses, saying why.
     */
    public static void affinity(final int threadId, final SortedSet<Integer> cpus)
    {
        ensureAvailable();
        if (cpus.isEmpty() || cpus.first() < 0 || cpus.last() > MAX_CPU)
        {
            throw new IllegalStateException("an affinity mask needs CPUs from 0 to " + MAX_CPU + ", was " + cpus);
        }
        final byte[] mask = new byte[MASK_BYTES];
        for (final int cpu : cpus)
        {
            mask[cpu >>> 3] |= (byte)(1 << (cpu & 7));
        }
        try
        {
            LIBC.sched_setaffinity(threadId, MASK_BYTES, mask);
        }
        catch (final LastErrorException ex)
        {
            throw new IllegalStateException(refusal(cpus, ex.getErrorCode()), ex);
        }
    }

    /**
     * @return the CPUs the calling thread may run on.
     * @throws IllegalStateException when the kernel does not say.
     */
    public static SortedSet<Integer> affinity()
    {
        return affinity(0);
    }

    /**
     * @param threadId a thread of this process; 0 for the calling thread.
     * @return the CPUs it may run on.
     * @throws IllegalStateException when the kernel refuses (the thread ended, say).
     */
    public static SortedSet<Integer> affinity(final int threadId)
    {
        ensureAvailable();
        final byte[] mask = new byte[MASK_BYTES];
        try
        {
            LIBC.sched_getaffinity(threadId, MASK_BYTES, mask);
        }
        catch (final LastErrorException ex)
        {
            throw new IllegalStateException("sched_getaffinity failed with errno " + ex.getErrorCode(), ex);
        }
        final SortedSet<Integer> cpus = new TreeSet<>();
        for (int cpu = 0; cpu <= MAX_CPU; cpu++)
        {
            if (0 != (mask[cpu >>> 3] & (1 << (cpu & 7))))
            {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    /** @return the calling thread's kernel thread id (gettid). */
    public static int threadId()
    {
        ensureAvailable();
        return LIBC.gettid();
    }

    /**
     * @return the CPU the calling thread runs on at this moment.
     */
    public static int currentCpu()
    {
        ensureAvailable();
        try
        {
            return LIBC.sched_getcpu();
        }
        catch (final LastErrorException ex)
        {
            throw new IllegalStateException("sched_getcpu failed with errno " + ex.getErrorCode(), ex);
        }
    }

    private static String refusal(final SortedSet<Integer> cpus, final int errno)
    {
        final String which = "CPU" + (1 == cpus.size() ? " " : "s ") + SysFs.formatCpuList(cpus);
        if (EINVAL == errno)
        {
            return "cannot pin to " + which + ": not online, or outside the CPUs this process may use (" +
                "its cpuset, e.g. a container's --cpuset-cpus, or taskset); the online CPUs are in " +
                "/sys/devices/system/cpu/online (see `mdgate cores`)";
        }
        if (EPERM == errno)
        {
            return "cannot pin to " + which + ": not permitted (errno EPERM); run as the gateway's own user or " +
                "with CAP_SYS_NICE";
        }
        return "cannot pin to " + which + ": sched_setaffinity failed with errno " + errno;
    }

    private static void ensureAvailable()
    {
        if (null == LIBC)
        {
            throw new IllegalStateException("threads cannot be pinned: the C library could not be bound through " +
                "JNA (" + UNAVAILABILITY_CAUSE + ")", UNAVAILABILITY_CAUSE);
        }
    }
}
