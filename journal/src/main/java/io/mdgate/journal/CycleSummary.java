package io.mdgate.journal;

import java.nio.file.Path;

/**
 * One cycle file of a queue: its records, and the keys of its first and last record (for ticks the gateway
 * sequence and exchange time, for packets the receive time). Immutable.
 *
 * @param cycle         the queue's cycle number.
 * @param file          the cycle file.
 * @param fileBytes     the file's length (files are pre-allocated in blocks and sparse: this is not disk usage).
 * @param records       records in the cycle.
 * @param firstSequence gateway sequence of the first tick, {@link TickReplay#NO_SEQUENCE} for packets or when empty.
 * @param lastSequence  gateway sequence of the last tick, {@link TickReplay#NO_SEQUENCE} for packets or when empty.
 * @param firstTime     exchange time of the first tick or receive time of the first packet, ns since the epoch.
 * @param lastTime      the same of the last record.
 */
public record CycleSummary(
    int cycle,
    Path file,
    long fileBytes,
    long records,
    long firstSequence,
    long lastSequence,
    long firstTime,
    long lastTime)
{
}
