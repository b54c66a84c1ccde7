package io.mdgate.runtime;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one core's thread runs: pins the thread to its CPU, starts its agents (a composite when several), checks the
 * pinning again (a port's start may move the thread) and reports to the gateway that the core is up, or why it is
 * not (pinning refused or lost, a port that would not open). {@code gateway.core.<cpu>.pinned} is 1 once checked.
 * Threading: the core's thread.
 */
final class CoreAgent implements Agent
{
    private final int cpu;
    private final Agent agent;
    private final CpuPinner pinner;
    private final CountDownLatch started;
    private final AtomicReference<Throwable> failure;
    private final AtomicCounter pinned;
    private final SpinningCpuGuard guard;

    /**
     * @param started counted down once this core is up or failed.
     * @param failure the first failure of any core.
     * @param guard   told this core's thread id once pinned, so that it is not moved; null for none.
     */
    CoreAgent(final int cpu, final Agent agent, final CpuPinner pinner, final CountDownLatch started,
        final AtomicReference<Throwable> failure, final AtomicCounter pinned, final SpinningCpuGuard guard)
    {
        this.guard = guard;
        this.pinned = pinned;
        this.cpu = cpu;
        this.agent = agent;
        this.pinner = pinner;
        this.started = started;
        this.failure = failure;
    }

    @Override
    public void onStart()
    {
        try
        {
            pinner.pin(cpu);
            if (null != guard)
            {
                guard.coreThread(pinner.threadId());
            }
            agent.onStart();
            if (!pinner.holds(cpu))
            {
                throw new IllegalStateException("the thread was pinned to CPU " + cpu + " but no longer runs only " +
                    "there after its agents started");
            }
            pinned.setRelease(1);
        }
        catch (final RuntimeException | Error ex)
        {
            failure.compareAndSet(null, new IllegalStateException("core " + cpu + " (" + agent.roleName() +
                ") did not start: " + Causes.reason(ex), ex));
            throw ex;
        }
        finally
        {
            started.countDown();
        }
    }

    @Override
    public int doWork() throws Exception
    {
        return agent.doWork();
    }

    @Override
    public void onClose()
    {
        agent.onClose();
    }

    @Override
    public String roleName()
    {
        return "core-" + cpu + "[" + agent.roleName() + "]";
    }
}
