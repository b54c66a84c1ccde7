package io.mdgate.runtime.config;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations as written in the configuration file: a whole number and a unit, {@code ns}, {@code us}, {@code ms},
 * {@code s} or {@code m}, e.g. {@code 500us}, {@code 1ms}, {@code 2s}. Stateless.
 */
public final class Durations
{
    private Durations()
    {
    }

    /**
     * @param text e.g. {@code 1ms}.
     * @return the duration.
     * @throws IllegalArgumentException saying what is wrong and what the form is.
     */
    public static Duration parse(final String text)
    {
        final String value = text.trim().toLowerCase(Locale.ROOT);
        int digits = 0;
        while (digits < value.length() && Character.isDigit(value.charAt(digits)))
        {
            digits++;
        }
        if (0 == digits || digits > 12)
        {
            throw new IllegalArgumentException("'" + text + "' is not a duration; write a whole number and a unit " +
                "(ns, us, ms, s or m), e.g. 1ms");
        }
        final long amount = Long.parseLong(value.substring(0, digits));
        switch (value.substring(digits))
        {
            case "ns":
                return Duration.ofNanos(amount);
            case "us":
                return Duration.ofNanos(amount * 1_000L);
            case "ms":
                return Duration.ofMillis(amount);
            case "s":
                return Duration.ofSeconds(amount);
            case "m":
                return Duration.ofMinutes(amount);
            default:
                throw new IllegalArgumentException("'" + text + "' has no known unit; write ns, us, ms, s or m " +
                    "after the number, e.g. " + amount + "ms");
        }
    }

    /**
     * @param duration a duration.
     * @return it in the largest unit that keeps it whole, e.g. {@code 1ms}; {@link #parse} reads it back.
     */
    public static String format(final Duration duration)
    {
        final long nanos = duration.toNanos();
        if (0 != nanos && 0 == nanos % 60_000_000_000L)
        {
            return nanos / 60_000_000_000L + "m";
        }
        if (0 != nanos && 0 == nanos % 1_000_000_000L)
        {
            return nanos / 1_000_000_000L + "s";
        }
        if (0 != nanos && 0 == nanos % 1_000_000L)
        {
            return nanos / 1_000_000L + "ms";
        }
        if (0 != nanos && 0 == nanos % 1_000L)
        {
            return nanos / 1_000L + "us";
        }
        return nanos + "ns";
    }
}
