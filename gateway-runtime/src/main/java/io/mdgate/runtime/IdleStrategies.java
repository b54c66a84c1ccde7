package io.mdgate.runtime;

import io.mdgate.runtime.config.GatewayConfig;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.time.Duration;

/** Makes each core's idle strategy from its {@code idle} setting. Start-up only. */
final class IdleStrategies
{
    private IdleStrategies()
    {
    }

    /**
     * @param idle        the core's {@code idle}.
     * @param marketHours the market hours (copied for the thread) for {@code market-hours}.
     * @param outsidePark {@code [market_hours] outside}: the park between polls outside market hours.
     * @return a new strategy for one thread.
     */
    static IdleStrategy of(final GatewayConfig.Idle idle, final MarketHours marketHours, final Duration outsidePark)
    {
        return switch (idle.kind())
        {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy();
            case SLEEP -> new SleepingIdleStrategy(idle.sleep().toNanos());
            case MARKET_HOURS -> new MarketHoursIdleStrategy(new BusySpinIdleStrategy(),
                new SleepingIdleStrategy(Math.max(1, outsidePark.toNanos())), marketHours.copy(),
                SystemEpochClock.INSTANCE, MarketHoursIdleStrategy.DEFAULT_BUSY_AFTER_WORK_NANOS);
        };
    }
}
