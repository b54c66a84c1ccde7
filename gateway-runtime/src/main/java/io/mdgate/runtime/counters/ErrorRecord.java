package io.mdgate.runtime.counters;

/**
 * One distinct error from the counters file's error log.
 *
 * @param observations     how many times it happened.
 * @param firstEpochMillis when first, ms since the epoch.
 * @param lastEpochMillis  when last, ms since the epoch.
 * @param text             the exception with its stack trace, as recorded.
 */
public record ErrorRecord(int observations, long firstEpochMillis, long lastEpochMillis, String text)
{
}
