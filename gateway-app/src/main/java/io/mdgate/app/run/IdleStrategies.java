package io.mdgate.app.run;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Makes a core's idle strategy from its configuration text: {@code busy-spin}, {@code yield}, {@code backoff},
 * {@code sleep:<duration>} (also {@code park:<duration>}) or {@code market-hours}; a duration is a number with
 * {@code ns}, {@code us}, {@code ms} or {@code s}, e.g. {@code 1ms}. Not thread-safe; start-up only.
 */
final class IdleStrategies
{
    private IdleStrategies()
    {
    }

    /**
     * @param spec        the core's {@code idle}.
     * @param marketHours the schedule for {@code market-hours} (copied per thread), null when none is configured.
     * @param outside     the {@code [market_hours] outside} text, e.g. {@code park:1ms}.
     * @return a new strategy for one thread.
     * @throws IllegalArgumentException saying what is wrong and what would be right.
     */
    static IdleStrategy parse(final String spec, final MarketHours marketHours, final String outside)
    {
        final String text = spec.trim().toLowerCase(Locale.ROOT);
        if (text.equals("market-hours"))
        {
            if (marketHours == null)
            {
                throw new IllegalArgumentException("idle = \"market-hours\" needs a [market_hours] section " +
                    "(zone, open, close, outside)");
            }
            final IdleStrategy parked = parse(outside, null, null);
            if (parked instanceof BusySpinIdleStrategy || parked instanceof MarketHoursIdleStrategy)
            {
                throw new IllegalArgumentException("[market_hours] outside must idle with a bounded wake-up, e.g. " +
                    "\"park:1ms\", was \"" + outside + "\"");
            }
            return new MarketHoursIdleStrategy(new BusySpinIdleStrategy(), parked, marketHours.copy(),
                SystemEpochClock.INSTANCE, MarketHoursIdleStrategy.DEFAULT_BUSY_AFTER_WORK_NANOS);
        }
        if (text.equals("busy-spin"))
        {
            return new BusySpinIdleStrategy();
        }
        if (text.equals("yield"))
        {
            return new YieldingIdleStrategy();
        }
        if (text.equals("backoff"))
        {
            return new BackoffIdleStrategy();
        }
        if (text.startsWith("sleep:") || text.startsWith("park:"))
        {
            return new SleepingIdleStrategy(parseDuration(text.substring(text.indexOf(':') + 1), spec));
        }
        throw new IllegalArgumentException("idle strategy \"" + spec + "\" is not one of busy-spin, yield, backoff, " +
            "sleep:<duration> (e.g. sleep:1ms), park:<duration>, market-hours");
    }

    /** @return nanoseconds of a duration such as {@code 100us} or {@code 1ms}. */
    static long parseDuration(final String text, final String context)
    {
        final String t = text.trim().toLowerCase(Locale.ROOT);
        final TimeUnit unit;
        final int suffix;
        if (t.endsWith("ns"))
        {
            unit = TimeUnit.NANOSECONDS;
            suffix = 2;
        }
        else if (t.endsWith("us"))
        {
            unit = TimeUnit.MICROSECONDS;
            suffix = 2;
        }
        else if (t.endsWith("ms"))
        {
            unit = TimeUnit.MILLISECONDS;
            suffix = 2;
        }
        else if (t.endsWith("s"))
        {
            unit = TimeUnit.SECONDS;
            suffix = 1;
        }
        else
        {
            throw new IllegalArgumentException("\"" + context + "\": duration \"" + text + "\" needs a unit, " +
                "e.g. 500us, 1ms, 2s");
        }
        try
        {
            final long value = Long.parseLong(t.substring(0, t.length() - suffix).trim());
            if (value < 1)
            {
                throw new NumberFormatException();
            }
            return unit.toNanos(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("\"" + context + "\": duration \"" + text + "\" must be a positive " +
                "whole number with a unit, e.g. 500us, 1ms, 2s");
        }
    }
}
