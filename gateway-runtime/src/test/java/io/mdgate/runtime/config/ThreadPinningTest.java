package io.mdgate.runtime.config;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadPinningTest
{
    @Test
    void shouldPinAThreadToEachCpuItMayUseAndSeeItRunThere() throws Exception
    {
        assertTrue(ThreadPinning.isAvailable());
        final SortedSet<Integer> allowed = ThreadPinning.affinity();
        assertFalse(allowed.isEmpty());

        for (final int cpu : allowed)
        {
            final List<Object> seen = onNewThread(() ->
            {
                final boolean before = allowed.size() > 1 && ThreadPinning.isPinnedTo(cpu);
                ThreadPinning.pin(cpu);
                return List.of(ThreadPinning.affinity(), ThreadPinning.currentCpu(), before,
                    ThreadPinning.isPinnedTo(cpu));
            });
            assertEquals(new TreeSet<>(List.of(cpu)), seen.get(0));
            assertEquals(cpu, seen.get(1));
            assertEquals(false, seen.get(2), "a thread free to run on several CPUs is not pinned");
            assertEquals(true, seen.get(3));
        }
        assertEquals(allowed, ThreadPinning.affinity(), "pinning another thread leaves this one alone");
    }

    @Test
    void shouldRestoreTheAffinityAThreadHadBefore() throws Exception
    {
        final SortedSet<Integer> allowed = ThreadPinning.affinity();

        final Object restored = onNewThread(() ->
        {
            final SortedSet<Integer> before = ThreadPinning.affinity();
            ThreadPinning.pin(before.first());
            ThreadPinning.affinity(before);
            return ThreadPinning.affinity();
        });

        assertEquals(allowed, restored);
    }

    @Test
    void shouldRefuseACpuThatIsNotOnlineSayingWhy() throws Exception
    {
        final int absent = HostTopology.local().presentCpus().last() + 1;

        final Object message = onNewThread(() ->
            assertThrows(IllegalStateException.class, () -> ThreadPinning.pin(absent)).getMessage());

        assertTrue(message.toString().contains("cannot pin to CPU " + absent + ": not online, or outside the CPUs " +
            "this process may use"), message.toString());
        assertTrue(assertThrows(IllegalStateException.class, () -> ThreadPinning.pin(-1)).getMessage()
            .contains("CPUs are numbered 0..1023"));
    }

    @SuppressWarnings("unchecked")
    private static <T> T onNewThread(final java.util.concurrent.Callable<T> task) throws Exception
    {
        final AtomicReference<Object> result = new AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                result.set(task.call());
            }
            catch (final Throwable ex)
            {
                result.set(ex);
            }
        }, "pinning-test");
        thread.start();
        thread.join(10_000);
        if (result.get() instanceof Throwable)
        {
            throw new AssertionError("the pinned thread failed", (Throwable)result.get());
        }
        return (T)result.get();
    }
}
