package io.mdgate.egress.publisher;

import io.mdgate.core.counters.CounterAllocator;
import io.mdgate.egress.transport.ControlServer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * What the publisher counted since it started: the counters of {@link PublisherCounterDescriptor}, allocated from
 * the publisher's context. Written on the publisher's thread only, with single-writer release stores, where each
 * event happens; any thread (any process, through the counters file) may read them. The HELLO timeouts and the
 * connections over the limit or malformed add what the transport's own screening thread closed, read from the
 * transport at each control poll.
 */
public final class PublisherCounters
{
    final AtomicCounter ticksPublished;
    final AtomicCounter inputGaps;
    final AtomicCounter connectionsAccepted;
    final AtomicCounter consumersWelcomed;
    final AtomicCounter authenticationFailures;
    final AtomicCounter rejected;
    final AtomicCounter sessionsTimedOut;
    final AtomicCounter sessionsDisconnected;
    final AtomicCounter laps;
    final AtomicCounter resyncs;
    final AtomicCounter recoveryRequests;
    final AtomicCounter recoveredTicks;
    final AtomicCounter ticksMissingFromSource;
    final AtomicCounter ringWriteFailures;
    final AtomicCounter tableWrites;
    final AtomicCounter ringTicksStaged;
    final AtomicCounter sharedLogTicks;
    final AtomicCounter malformedControlMessages;
    final AtomicCounter depthWrites;
    final AtomicCounter invalidViews;
    final AtomicCounter snapshotsSent;
    final AtomicCounter snapshotTicks;
    final AtomicCounter snapshotsRefused;
    final AtomicCounter refusalsNotLogged;
    final AtomicCounter lastSequence;
    final AtomicCounter consumers;
    final AtomicCounter datagrams;
    final AtomicCounter heartbeats;
    /** The publisher's own HELLO timeouts and refusals over the limit; the file's counters add the transport's. */
    long helloTimeouts;
    long connectionsOverLimit;
    private final AtomicCounter helloTimeoutsCounter;
    private final AtomicCounter connectionsOverLimitCounter;
    private final AtomicCounter connectionsMalformedCounter;
    private final AtomicCounter connectionsStaleCounter;
    private ControlServer server;

    /** Allocates every counter of {@link PublisherCounterDescriptor}, in its order. */
    PublisherCounters(final CounterAllocator allocator)
    {
        final AtomicCounter[] all = new AtomicCounter[PublisherCounterDescriptor.values().length];
        for (final PublisherCounterDescriptor descriptor : PublisherCounterDescriptor.values())
        {
            all[descriptor.ordinal()] = descriptor.newCounter(allocator, PublisherCounterDescriptor.PREFIX);
        }
        ticksPublished = all[PublisherCounterDescriptor.TICKS_PUBLISHED.ordinal()];
        inputGaps = all[PublisherCounterDescriptor.INPUT_GAPS.ordinal()];
        connectionsAccepted = all[PublisherCounterDescriptor.CONNECTIONS_ACCEPTED.ordinal()];
        consumersWelcomed = all[PublisherCounterDescriptor.CONSUMERS_WELCOMED.ordinal()];
        authenticationFailures = all[PublisherCounterDescriptor.AUTHENTICATION_FAILURES.ordinal()];
        rejected = all[PublisherCounterDescriptor.REJECTED.ordinal()];
        sessionsTimedOut = all[PublisherCounterDescriptor.TIMED_OUT.ordinal()];
        sessionsDisconnected = all[PublisherCounterDescriptor.SESSIONS_DISCONNECTED.ordinal()];
        laps = all[PublisherCounterDescriptor.LAPS.ordinal()];
        resyncs = all[PublisherCounterDescriptor.RESYNCS.ordinal()];
        recoveryRequests = all[PublisherCounterDescriptor.RECOVERY_REQUESTS.ordinal()];
        recoveredTicks = all[PublisherCounterDescriptor.RECOVERED_TICKS.ordinal()];
        ticksMissingFromSource = all[PublisherCounterDescriptor.TICKS_MISSING_FROM_SOURCE.ordinal()];
        ringWriteFailures = all[PublisherCounterDescriptor.RING_WRITE_FAILURES.ordinal()];
        tableWrites = all[PublisherCounterDescriptor.TABLE_WRITES.ordinal()];
        ringTicksStaged = all[PublisherCounterDescriptor.RING_TICKS_STAGED.ordinal()];
        sharedLogTicks = all[PublisherCounterDescriptor.SHARED_LOG_TICKS.ordinal()];
        malformedControlMessages = all[PublisherCounterDescriptor.MALFORMED_CONTROL_MESSAGES.ordinal()];
        depthWrites = all[PublisherCounterDescriptor.DEPTH_WRITES.ordinal()];
        invalidViews = all[PublisherCounterDescriptor.INVALID_VIEWS.ordinal()];
        snapshotsSent = all[PublisherCounterDescriptor.SNAPSHOTS_SENT.ordinal()];
        snapshotTicks = all[PublisherCounterDescriptor.SNAPSHOT_TICKS.ordinal()];
        snapshotsRefused = all[PublisherCounterDescriptor.SNAPSHOTS_REFUSED.ordinal()];
        refusalsNotLogged = all[PublisherCounterDescriptor.REFUSALS_NOT_LOGGED.ordinal()];
        lastSequence = all[PublisherCounterDescriptor.LAST_SEQUENCE.ordinal()];
        consumers = all[PublisherCounterDescriptor.CONSUMERS.ordinal()];
        datagrams = all[PublisherCounterDescriptor.DATAGRAMS.ordinal()];
        heartbeats = all[PublisherCounterDescriptor.HEARTBEATS.ordinal()];
        helloTimeoutsCounter = all[PublisherCounterDescriptor.HELLO_TIMEOUTS.ordinal()];
        connectionsOverLimitCounter = all[PublisherCounterDescriptor.CONNECTIONS_OVER_LIMIT.ordinal()];
        connectionsMalformedCounter = all[PublisherCounterDescriptor.CONNECTIONS_MALFORMED.ordinal()];
        connectionsStaleCounter = all[PublisherCounterDescriptor.CONNECTIONS_STALE.ordinal()];
    }

    /** Adds the counts of connections the transport closed before handing them over. */
    void screenedBy(final ControlServer server)
    {
        this.server = server;
    }

    /**
     * Sets the four counters that add the transport's screening (done on a thread of its own, which counts for
     * itself) to the publisher's own counts: at each control poll, on the publisher's thread, their only writer.
     */
    void screeningChanged()
    {
        helloTimeoutsCounter.setRelease(helloTimeouts());
        connectionsOverLimitCounter.setRelease(connectionsOverLimit());
        connectionsMalformedCounter.setRelease(connectionsMalformed());
        connectionsStaleCounter.setRelease(null == server ? 0 : server.connectionsStale());
    }

    public long ticksPublished()
    {
        return ticksPublished.get();
    }

    /** @return times a live tick's sequence did not follow the previous one. */
    public long inputGaps()
    {
        return inputGaps.get();
    }

    public long connectionsAccepted()
    {
        return connectionsAccepted.get();
    }

    public long consumersWelcomed()
    {
        return consumersWelcomed.get();
    }

    /** @return connections refused for an unknown consumer name or a wrong token. */
    public long authenticationFailures()
    {
        return authenticationFailures.get();
    }

    /** @return connections refused for any reason, authentication included. */
    public long rejected()
    {
        return rejected.get();
    }

    public long sessionsTimedOut()
    {
        return sessionsTimedOut.get();
    }

    public long sessionsDisconnected()
    {
        return sessionsDisconnected.get();
    }

    /** @return times a consumer fell a whole ring behind. */
    public long laps()
    {
        return laps.get();
    }

    public long resyncs()
    {
        return resyncs.get();
    }

    public long recoveryRequests()
    {
        return recoveryRequests.get();
    }

    /** @return ticks sent again from the recovery source, through rings and control channels. */
    public long recoveredTicks()
    {
        return recoveredTicks.get();
    }

    /** @return ticks asked for that the recovery source did not hold. */
    public long ticksMissingFromSource()
    {
        return ticksMissingFromSource.get();
    }

    public long ringWriteFailures()
    {
        return ringWriteFailures.get();
    }

    public long tableWrites()
    {
        return tableWrites.get();
    }

    /** @return live ticks copied into consumers' rings: one copy per tick and consumer that takes it. */
    public long ringTicksStaged()
    {
        return ringTicksStaged.get();
    }

    /** @return ticks written into the shared log: one copy per tick, whatever the number of its readers. */
    public long sharedLogTicks()
    {
        return sharedLogTicks.get();
    }

    public long malformedControlMessages()
    {
        return malformedControlMessages.get();
    }

    /** @return depth table writes (one per changed book and consumer subscribed to its levels, and per snapshot). */
    public long depthWrites()
    {
        return depthWrites.get();
    }

    /** @return SUBSCRIBE / UNSUBSCRIBE messages refused for a view byte that names no view. */
    public long invalidViews()
    {
        return invalidViews.get();
    }

    /** @return snapshots sent whole. */
    public long snapshotsSent()
    {
        return snapshotsSent.get();
    }

    /** @return ticks sent in snapshots. */
    public long snapshotTicks()
    {
        return snapshotTicks.get();
    }

    /** @return SNAPSHOT requests refused (malformed, or larger than the snapshot buffer). */
    public long snapshotsRefused()
    {
        return snapshotsRefused.get();
    }

    /** @return connections closed because no valid HELLO arrived within the HELLO timeout. */
    public long helloTimeouts()
    {
        return helloTimeouts + (null == server ? 0 : server.connectionsTimedOut());
    }

    /** @return connections closed at once because too many were waiting for their HELLO. */
    public long connectionsOverLimit()
    {
        return connectionsOverLimit + (null == server ? 0 : server.connectionsOverLimit());
    }

    /** @return connections closed before their HELLO because their first message broke the framing. */
    public long connectionsMalformed()
    {
        return null == server ? 0 : server.connectionsMalformed();
    }

    /** @return refusals not logged because enough distinct ones were logged already (they are still counted). */
    public long refusalsNotLogged()
    {
        return refusalsNotLogged.get();
    }
}
