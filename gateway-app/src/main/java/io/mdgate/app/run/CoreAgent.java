package io.mdgate.app.run;

import org.agrona.concurrent.Agent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What one core's thread runs: pins the thread to its CPU, then starts its agents (a composite when several) and
 * reports to the gateway that the core is up, or why it is not (pinning refused, a port that would not open).
 * Threading: the core's thread.
 */
final class CoreAgent implements Agent
{
    private final int cpu;
    private final Agent agent;
    private final CpuPinner pinner;
    private final CountDownLatch started;
    private final AtomicReference<Throwable> failure;

    /**
     * @param started counted down once this core is up or failed.
     * @param failure the first failure of any core.
     */
    CoreAgent(final int cpu, final Agent agent, final CpuPinner pinner, final CountDownLatch started,
        final AtomicReference<Throwable> failure)
    {
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
            agent.onStart();
        }
        catch (final RuntimeException | Error ex)
        {
            failure.compareAndSet(null, new IllegalStateException("core " + cpu + " (" + agent.roleName() +
                ") did not start: " + ex.getMessage(), ex));
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
