package io.mdgate.egress.consumer;

/**
 * What a consumer counted since it was created (across reconnects). Written on the consumer's polling thread and
 * complete for every tick delivered when {@link EgressConsumer#poll} returns; during a handler's call, ticks of the
 * shared-log run being delivered (up to 64) may not be counted yet. Another thread reading them sees values that may
 * be slightly stale.
 */
public final class ConsumerCounters
{
    long delivered;
    long recoveredDelivered;
    long duplicates;
    long filtered;
    long gaps;
    long recoveriesRequested;
    long recoveriesCompleted;
    long unrecovered;
    long laps;
    long logTicksSkipped;
    long lapNotices;
    long tornReads;
    long datagramsLost;
    long transportLoss;
    long malformed;
    long connects;
    long disconnects;
    long reconnectFailures;
    long heartbeatsReceived;
    long pendingOverflows;
    long snapshots;
    long snapshotsRequested;
    long snapshotTicks;
    long snapshotSkipped;
    long snapshotsRefused;
    long directories;
    long directoryTicks;
    long directoriesRefused;

    /** @return instrument directories received whole (ConsumerContext.directoryOnConnect). */
    public long directories()
    {
        return directories;
    }

    /** @return directory ticks read (INSTRUMENT ticks naming symbols; not handed to the application). */
    public long directoryTicks()
    {
        return directoryTicks;
    }

    /** @return directory requests the publisher refused (one that predates the directory refuses every one). */
    public long directoriesRefused()
    {
        return directoriesRefused;
    }

    /** @return snapshots asked for (again after a reconnect cut one). */
    public long snapshotsRequested()
    {
        return snapshotsRequested;
    }

    /** @return snapshots received whole (SNAPSHOT_END status COMPLETE). */
    public long snapshots()
    {
        return snapshots;
    }

    /** @return snapshot ticks handed to the application (not in {@link #delivered()}). */
    public long snapshotTicks()
    {
        return snapshotTicks;
    }

    /**
     * @return live, recovered or replayed ticks dropped because a snapshot covered their sequence (at or below its
     *         S); not in {@link #duplicates()}.
     */
    public long snapshotSkipped()
    {
        return snapshotSkipped;
    }

    /** @return snapshot requests the publisher refused (malformed, too large) or that came back without a snapshot. */
    public long snapshotsRefused()
    {
        return snapshotsRefused;
    }

    /** @return ticks handed to the application. */
    public long delivered()
    {
        return delivered;
    }

    /** @return of those, ticks that came from recovery (flag {@code replayed}). */
    public long recoveredDelivered()
    {
        return recoveredDelivered;
    }

    /** @return ticks dropped because that sequence was already delivered. */
    public long duplicates()
    {
        return duplicates;
    }

    /**
     * @return ticks from the ring that the consumer's views do not take (the publisher filters the ring by view;
     *         these are ticks staged before it had a change of view, or from a publisher without views).
     */
    public long filtered()
    {
        return filtered;
    }

    /** @return gaps detected: in the stream's tick sequences, or a lapped ring. */
    public long gaps()
    {
        return gaps;
    }

    public long recoveriesRequested()
    {
        return recoveriesRequested;
    }

    public long recoveriesCompleted()
    {
        return recoveriesCompleted;
    }

    /** @return ticks the publisher could not recover (its source no longer held them). */
    public long unrecovered()
    {
        return unrecovered;
    }

    /**
     * @return times this consumer's ring was stopped because it was a whole ring behind, or it found the shared log
     *         had overwritten the tick it was about to read.
     */
    public long laps()
    {
        return laps;
    }

    /** @return shared log positions a lapped reader skipped (their ticks are then recovered over RECOVER). */
    public long logTicksSkipped()
    {
        return logTicksSkipped;
    }

    /** @return LAPPED messages received from the publisher. */
    public long lapNotices()
    {
        return lapNotices;
    }

    /** @return ring slots found torn (being written) and read again later. */
    public long tornReads()
    {
        return tornReads;
    }

    /** @return stream datagrams missing from the datagram sequence. */
    public long datagramsLost()
    {
        return datagramsLost;
    }

    /** @return datagrams the transport says it skipped because this consumer fell behind the stream. */
    public long transportLoss()
    {
        return transportLoss;
    }

    public long malformed()
    {
        return malformed;
    }

    public long connects()
    {
        return connects;
    }

    public long disconnects()
    {
        return disconnects;
    }

    /** @return attempts to reconnect that failed (no publisher answered, or it could not be set up). */
    public long reconnectFailures()
    {
        return reconnectFailures;
    }

    public long heartbeatsReceived()
    {
        return heartbeatsReceived;
    }

    /** @return times the stream's pending buffer filled while a gap was recovered. */
    public long pendingOverflows()
    {
        return pendingOverflows;
    }
}
