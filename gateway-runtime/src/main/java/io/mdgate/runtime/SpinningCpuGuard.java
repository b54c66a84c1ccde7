package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.ThreadPinning;
import io.mdgate.runtime.counters.CountersFileWriter;
import org.agrona.concurrent.status.AtomicCounter;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the CPUs of the spinning cores (idle {@code busy-spin} or {@code market-hours}) for their core threads. A
 * core thread is pinned to its CPU, but every other thread of the process may still run there: the JVM's compiler
 * and garbage-collector threads, the main thread, threads that DPDK's EAL or Chronicle start from a core thread
 * (which inherit its one-CPU mask). On a two-CPU host each of them preempts the hot path for a scheduler slice,
 * milliseconds at a time. {@link #sweep()} moves every thread of the process that is not a core thread and may run
 * on a spinning CPU to the CPUs it may run on without those, or, when that leaves none (a thread started from a
 * core thread), to the CPUs the process was given that no core spins on. The gateway sweeps once its cores are up
 * and then every {@link #SWEEP_INTERVAL_MILLIS} from housekeeping (threads started later), unless housekeeping itself
 * runs on a spinning core (a one-thread map), whose duty cycle the sweep's allocation and syscalls would stall;
 * {@link #close()} gives
 * the moved threads that still run their masks back, so an embedding process is left as it was.
 * <p>
 * Two kinds of JVM thread stay where they are: the VM thread and the garbage collector's pause workers
 * ({@code VM Thread}, {@code GC Thread#N}). They run while every Java thread, the core threads included, is stopped
 * at a safepoint, so on a spinning core's CPU they take nothing from it, and on a busy other CPU they would make
 * every such stop longer.
 * <p>
 * {@code gateway.threads_moved} counts the threads moved. Nothing is moved when no core spins, or when the cores
 * spin on every CPU the process may use (the gateway says so at start).
 * <p>
 * Threading: {@link #coreThread(int)} from the core threads, {@link #sweep()} and {@link #close()} from the starting
 * thread and housekeeping; all synchronized. {@link #sweep()} allocates (it lists {@code /proc/self/task}).
 */
final class SpinningCpuGuard implements AutoCloseable
{
    static final long SWEEP_INTERVAL_MILLIS = 10_000;

    private static final File TASKS = new File("/proc/self/task");

    private final SortedSet<Integer> spinning;
    private final SortedSet<Integer> elsewhere;
    private final Set<Integer> coreThreads = ConcurrentHashMap.newKeySet();
    private final Map<Integer, SortedSet<Integer>> movedFrom = new HashMap<>();
    private final AtomicCounter moved;

    private SpinningCpuGuard(final SortedSet<Integer> spinning, final SortedSet<Integer> elsewhere,
        final AtomicCounter moved)
    {
        this.spinning = spinning;
        this.elsewhere = elsewhere;
        this.moved = moved;
    }

    /**
     * @param config   the configuration, whose spinning cores are kept.
     * @param allowed  the CPUs the process may use (the starting thread's mask).
     * @param counters where {@code gateway.threads_moved} goes.
     * @return the guard, or null when no core spins.
     */
    static SpinningCpuGuard of(final GatewayConfig config, final SortedSet<Integer> allowed,
        final CountersFileWriter counters)
    {
        final SortedSet<Integer> spinning = spinningCpus(config);
        if (spinning.isEmpty())
        {
            return null;
        }
        final SortedSet<Integer> elsewhere = new TreeSet<>(allowed);
        elsewhere.removeAll(spinning);
        return new SpinningCpuGuard(spinning, elsewhere, counters.newCounter("gateway.threads_moved", CounterType.TOTAL));
    }

    /** @return the CPUs of the cores whose idle strategy spins (always, or while the market is open). */
    static SortedSet<Integer> spinningCpus(final GatewayConfig config)
    {
        final SortedSet<Integer> cpus = new TreeSet<>();
        for (final GatewayConfig.Core core : config.cores())
        {
            final GatewayConfig.IdleKind kind = core.idle().kind();
            if (kind == GatewayConfig.IdleKind.BUSY_SPIN || kind == GatewayConfig.IdleKind.MARKET_HOURS)
            {
                cpus.add(core.cpu());
            }
        }
        return cpus;
    }

    /** @return the CPUs kept for core threads. */
    SortedSet<Integer> spinning()
    {
        return spinning;
    }

    /** @return where threads go that may run nowhere else; empty when the cores spin on every CPU. */
    SortedSet<Integer> elsewhere()
    {
        return elsewhere;
    }

    /** @param threadId a core thread's id, which is never moved; ignored when negative. */
    void coreThread(final int threadId)
    {
        if (threadId >= 0)
        {
            coreThreads.add(threadId);
        }
    }

    /**
     * Moves the threads that may run on a spinning CPU and are not core threads.
     *
     * @return how many were moved by this sweep.
     */
    synchronized int sweep()
    {
        if (elsewhere.isEmpty())
        {
            return 0;
        }
        final String[] names = TASKS.list();
        if (null == names)
        {
            return 0;
        }
        int count = 0;
        for (final String name : names)
        {
            final int threadId = Integer.parseInt(name);
            if (!coreThreads.contains(threadId) && !runsOnlyAtSafepoints(name) && moveOff(threadId))
            {
                count++;
            }
        }
        moved.getAndAdd(count);
        return count;
    }

    private static boolean runsOnlyAtSafepoints(final String threadId)
    {
        try
        {
            final String comm = Files.readString(TASKS.toPath().resolve(threadId).resolve("comm")).trim();
            return comm.equals("VM Thread") || comm.startsWith("GC Thread#");
        }
        catch (final IOException ex)
        {
            return false; // ended since the listing: moveOff finds that out
        }
    }

    private boolean moveOff(final int threadId)
    {
        try
        {
            final SortedSet<Integer> mask = ThreadPinning.affinity(threadId);
            final SortedSet<Integer> without = new TreeSet<>(mask);
            without.removeAll(spinning);
            if (without.size() == mask.size())
            {
                return false;
            }
            ThreadPinning.affinity(threadId, without.isEmpty() ? elsewhere : without);
            movedFrom.putIfAbsent(threadId, mask);
            return true;
        }
        catch (final IllegalStateException ex)
        {
            return false; // the thread ended between the listing and now
        }
    }

    /** Gives the moved threads that still run the masks they had. */
    @Override
    public synchronized void close()
    {
        for (final Map.Entry<Integer, SortedSet<Integer>> entry : movedFrom.entrySet())
        {
            try
            {
                ThreadPinning.affinity(entry.getKey(), entry.getValue());
            }
            catch (final IllegalStateException ex)
            {
                // ended, or its old mask is no longer allowed: nothing to give back
            }
        }
        movedFrom.clear();
    }
}
