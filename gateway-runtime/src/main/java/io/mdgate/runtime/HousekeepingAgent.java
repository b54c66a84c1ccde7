package io.mdgate.runtime;

import io.mdgate.core.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.List;

/**
 * The housekeeping duty cycle, once a second: stamps the counters file's heartbeat (which tells readers the gateway
 * runs), takes each stage's latency interval, publishes its percentiles and appends it to the stage's
 * {@code .hlog}, and publishes the uptime and whether the market is open (as the market-hours strategy sees it);
 * checks the journal's free space ({@link FreeSpaceCheck}); every {@link SpinningCpuGuard#SWEEP_INTERVAL_MILLIS} it moves threads started since off the spinning cores' CPUs.
 * <p>
 * Threading: the agent's thread; it is the only thread that touches the {@link StageLatency} logs.
 */
final class HousekeepingAgent implements Agent
{
    static final long INTERVAL_MILLIS = 1_000;

    private final CountersFileWriter counters;
    private final List<StageLatency> latencies;
    private final MarketHours marketHours;
    private final EpochClock clock;
    private final AtomicCounter uptime;
    private final AtomicCounter marketOpen;
    private final long startMillis;
    private final SpinningCpuGuard guard;
    private final FreeSpaceCheck freeSpace;
    private long nextMillis;
    private long nextSweepMillis;

    HousekeepingAgent(final CountersFileWriter counters, final List<StageLatency> latencies,
        final MarketHours marketHours, final EpochClock clock, final SpinningCpuGuard guard,
        final FreeSpaceCheck freeSpace)
    {
        this.guard = guard;
        this.freeSpace = freeSpace;
        this.counters = counters;
        this.latencies = List.copyOf(latencies);
        this.marketHours = marketHours;
        this.clock = clock;
        uptime = counters.newCounter("gateway.uptime_s", CounterType.LEVEL);
        marketOpen = counters.newCounter("gateway.market_open", CounterType.STATE);
        startMillis = clock.time();
    }

    @Override
    public void onStart()
    {
        nextMillis = clock.time();
        nextSweepMillis = nextMillis + SpinningCpuGuard.SWEEP_INTERVAL_MILLIS;
    }

    @Override
    public int doWork()
    {
        final long now = clock.time();
        if (now < nextMillis)
        {
            return 0;
        }
        nextMillis = now + INTERVAL_MILLIS;
        runOnce(now);
        if (null != guard && now >= nextSweepMillis)
        {
            nextSweepMillis = now + SpinningCpuGuard.SWEEP_INTERVAL_MILLIS;
            guard.sweep();
        }
        return 1;
    }

    private void runOnce(final long now)
    {
        counters.heartbeat(now);
        for (int i = 0; i < latencies.size(); i++)
        {
            latencies.get(i).publish(now);
        }
        uptime.setRelease((now - startMillis) / 1000);
        marketOpen.setRelease(marketHours != null && marketHours.isOpen(now) ? 1 : 0);
        if (null != freeSpace)
        {
            freeSpace.check();
        }
    }

    /** Publishes the last interval and closes the latency logs. */
    @Override
    public void onClose()
    {
        runOnce(clock.time());
        for (final StageLatency latency : latencies)
        {
            latency.close();
        }
    }

    @Override
    public String roleName()
    {
        return "housekeeping";
    }
}
