package io.mdgate.runtime;

import io.mdgate.runtime.config.ConfigLoader;
import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.runtime.config.ThreadPinning;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GatewayPinningTest
{
    @TempDir
    Path dir;

    private GatewayConfig config(final String cores) throws Exception
    {
        Files.createDirectories(dir.resolve("shm"));
        return ConfigLoader.parse(LoopbackGatewayConfig.toml(dir, "pin-" + ProcessHandle.current().pid(),
            "239.255.77.1:40001", "239.255.77.2:40001", 40002, cores));
    }

    @Test
    @Timeout(60)
    void shouldRunEachCoresAgentsOnAThreadPinnedToItsCpu() throws Exception
    {
        Assumptions.assumeTrue(ThreadPinning.isAvailable(), "sched_setaffinity unavailable");
        final SortedSet<Integer> allowed = ThreadPinning.affinity();
        Assumptions.assumeTrue(allowed.size() >= 2, "needs two CPUs this process may use, has " + allowed);
        final int first = allowed.first();
        final int second = allowed.last();
        final Map<Integer, SortedSet<Integer>> seen = new ConcurrentHashMap<>();
        final CpuPinner recording = new CpuPinner()
        {
            @Override
            public void pin(final int cpu)
            {
                ThreadPinning.pin(cpu);
                seen.put(cpu, ThreadPinning.affinity());
            }

            @Override
            public boolean holds(final int cpu)
            {
                return ThreadPinning.isPinnedTo(cpu);
            }
        };
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Gateway gateway = Gateway.create(config(LoopbackGatewayConfig.twoCores()
            .replace("cpu = 0", "cpu = " + first).replace("cpu = 1", "cpu = " + second)), recording,
            new PrintStream(err, true)))
        {
            gateway.start();
            assertEquals(Map.of(first, new TreeSet<>(java.util.Set.of(first)),
                second, new TreeSet<>(java.util.Set.of(second))), seen, "each core's thread runs only on its CPU");
            try (CountersFile file = CountersFile.open(gateway.countersFile()))
            {
                assertEquals(CountersSnapshot.State.RUNNING, file.snapshot().state());
                assertEquals(1, file.snapshot().value("gateway.core." + first + ".pinned"));
                assertEquals(1, file.snapshot().value("gateway.core." + second + ".pinned"));
            }
        }
        try (CountersFile file = CountersFile.open(dir.resolve("counters")))
        {
            assertEquals(CountersSnapshot.State.STOPPED, file.snapshot().state(), err.toString());
        }
    }

    @Test
    @Timeout(60)
    void shouldMoveEveryOtherThreadOffASpinningCoresCpuAndGiveTheirMasksBackAtClose() throws Exception
    {
        Assumptions.assumeTrue(ThreadPinning.isAvailable(), "sched_setaffinity unavailable");
        final SortedSet<Integer> allowed = ThreadPinning.affinity();
        Assumptions.assumeTrue(allowed.size() >= 2, "needs two CPUs this process may use, has " + allowed);
        final int quiet = allowed.first();
        final int spinning = allowed.last();
        final Set<Integer> coreThreads = ConcurrentHashMap.newKeySet();
        final CpuPinner pinning = new CpuPinner()
        {
            @Override
            public void pin(final int cpu)
            {
                ThreadPinning.pin(cpu);
                coreThreads.add(ThreadPinning.threadId());
            }

            @Override
            public boolean holds(final int cpu)
            {
                return ThreadPinning.isPinnedTo(cpu);
            }

            @Override
            public boolean placesOtherThreads()
            {
                return true;
            }

            @Override
            public int threadId()
            {
                return ThreadPinning.threadId();
            }
        };
        // A thread of this process that may run anywhere, as the JVM's own threads may.
        final CountDownLatch bystanderUp = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final int[] bystander = new int[1];
        final Thread thread = new Thread(() ->
        {
            ThreadPinning.affinity(allowed);
            bystander[0] = ThreadPinning.threadId();
            bystanderUp.countDown();
            awaitQuietly(release);
        }, "bystander");
        thread.start();
        bystanderUp.await();
        final String cores = """
            [[cores]]
            cpu = %d
            agents = ["journal", "egress", "housekeeping"]
            idle = "sleep:1ms"

            [[cores]]
            cpu = %d
            agents = ["ingress:p0:0", "session"]
            idle = "busy-spin"
            """.formatted(quiet, spinning);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final SortedSet<Integer> others = new TreeSet<>(allowed);
        others.remove(spinning);
        try
        {
            try (Gateway gateway = Gateway.create(config(cores), pinning, new PrintStream(err, true)))
            {
                gateway.start();
                assertEquals(others, ThreadPinning.affinity(bystander[0]), "the bystander left the spinning CPU");
                for (final String task : Objects.requireNonNull(new java.io.File("/proc/self/task").list()))
                {
                    final int threadId = Integer.parseInt(task);
                    final String name = threadName(threadId);
                    if (name.equals("VM Thread") || name.startsWith("GC Thread#"))
                    {
                        assertEquals(allowed, affinityOrNull(threadId), name + " runs only at safepoints: not moved");
                    }
                    else if (!coreThreads.contains(threadId))
                    {
                        final SortedSet<Integer> mask = affinityOrNull(threadId);
                        assertTrue(null == mask || !mask.contains(spinning), "thread " + threadId + " (" +
                            name + ") may still run on CPU " + spinning + ": " + mask);
                    }
                }
                assertTrue(err.toString().contains("CPU " + spinning + " kept for the spinning cores: moved "),
                    err.toString());
                try (CountersFile file = CountersFile.open(gateway.countersFile()))
                {
                    final long moved = file.snapshot().value("gateway.threads_moved");
                    assertTrue(err.toString().contains("moved " + moved + " other thread"), err.toString());
                }
            }
            assertEquals(allowed, ThreadPinning.affinity(bystander[0]), "its mask is given back at close");
        }
        finally
        {
            release.countDown();
            thread.join();
            ThreadPinning.affinity(allowed);
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static SortedSet<Integer> affinityOrNull(final int threadId)
    {
        try
        {
            return ThreadPinning.affinity(threadId);
        }
        catch (final IllegalStateException ex)
        {
            return null; // ended since the listing
        }
    }

    private static String threadName(final int threadId)
    {
        try
        {
            return Files.readString(Path.of("/proc/self/task/" + threadId + "/comm")).trim();
        }
        catch (final java.io.IOException ex)
        {
            return "?";
        }
    }

    @Test
    @Timeout(60)
    void shouldNotStartWhenACoreCannotBePinnedAndSayWhich() throws Exception
    {
        final CpuPinner refusing = cpu ->
        {
            if (cpu == 1)
            {
                throw new IllegalStateException("CPU 1 is outside this process's cpuset");
            }
        };
        final Gateway gateway = Gateway.create(config(LoopbackGatewayConfig.twoCores()), refusing,
            new PrintStream(new ByteArrayOutputStream(), true));
        final IllegalStateException ex = assertThrows(IllegalStateException.class, gateway::start);
        assertTrue(ex.getMessage().contains("core 1"), ex.getMessage());
        assertTrue(ex.getMessage().contains("outside this process's cpuset"), ex.getMessage());
        try (CountersFile file = CountersFile.open(dir.resolve("counters")))
        {
            assertEquals(CountersSnapshot.State.STOPPED, file.snapshot().state(), "closed after the failed start");
            assertTrue(file.errors().stream().anyMatch(e -> e.text().contains("cpuset")), "recorded in the error log");
        }
    }

    @Test
    @Timeout(60)
    void shouldNotStartWhenThePinningDidNotHoldAfterTheAgentsStarted() throws Exception
    {
        final CpuPinner lost = new CpuPinner()
        {
            @Override
            public void pin(final int cpu)
            {
            }

            @Override
            public boolean holds(final int cpu)
            {
                return cpu != 0;
            }
        };
        final Gateway gateway = Gateway.create(config(LoopbackGatewayConfig.twoCores()), lost,
            new PrintStream(new ByteArrayOutputStream(), true));
        final IllegalStateException ex = assertThrows(IllegalStateException.class, gateway::start);
        assertTrue(ex.getMessage().contains("core 0"), ex.getMessage());
        assertTrue(ex.getMessage().contains("no longer runs only there"), ex.getMessage());
    }
}
