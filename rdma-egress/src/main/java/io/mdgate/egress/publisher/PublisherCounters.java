package io.mdgate.egress.publisher;

import io.mdgate.egress.transport.ControlServer;

/**
 * What the publisher counted since it started. Written on the publisher's thread only; another thread reading them
 * sees values that may be slightly stale (plain fields, single writer).
 */
public final class PublisherCounters
{
    long ticksPublished;
    long inputGaps;
    long connectionsAccepted;
    long consumersWelcomed;
    long authenticationFailures;
    long rejected;
    long sessionsTimedOut;
    long sessionsDisconnected;
    long laps;
    long resyncs;
    long recoveryRequests;
    long recoveredTicks;
    long ticksMissingFromSource;
    long ringWriteFailures;
    long tableWrites;
    long ringTicksStaged;
    long sharedLogTicks;
    long malformedControlMessages;
    long helloTimeouts;
    long connectionsOverLimit;
    long refusalsNotLogged;
    private ControlServer server;

    /** Adds the counts of connections the transport closed before handing them over. */
    void screenedBy(final ControlServer server)
    {
        this.server = server;
    }

    public long ticksPublished()
    {
        return ticksPublished;
    }

    /** @return times a live tick's sequence did not follow the previous one. */
    public long inputGaps()
    {
        return inputGaps;
    }

    public long connectionsAccepted()
    {
        return connectionsAccepted;
    }

    public long consumersWelcomed()
    {
        return consumersWelcomed;
    }

    /** @return connections refused for an unknown consumer name or a wrong token. */
    public long authenticationFailures()
    {
        return authenticationFailures;
    }

    /** @return connections refused for any reason, authentication included. */
    public long rejected()
    {
        return rejected;
    }

    public long sessionsTimedOut()
    {
        return sessionsTimedOut;
    }

    public long sessionsDisconnected()
    {
        return sessionsDisconnected;
    }

    /** @return times a consumer fell a whole ring behind. */
    public long laps()
    {
        return laps;
    }

    public long resyncs()
    {
        return resyncs;
    }

    public long recoveryRequests()
    {
        return recoveryRequests;
    }

    /** @return ticks sent again from the recovery source, through rings and control channels. */
    public long recoveredTicks()
    {
        return recoveredTicks;
    }

    /** @return ticks asked for that the recovery source did not hold. */
    public long ticksMissingFromSource()
    {
        return ticksMissingFromSource;
    }

    public long ringWriteFailures()
    {
        return ringWriteFailures;
    }

    public long tableWrites()
    {
        return tableWrites;
    }

    /** @return live ticks copied into consumers' rings: one copy per tick and consumer that takes it. */
    public long ringTicksStaged()
    {
        return ringTicksStaged;
    }

    /** @return ticks written into the shared log: one copy per tick, whatever the number of its readers. */
    public long sharedLogTicks()
    {
        return sharedLogTicks;
    }

    public long malformedControlMessages()
    {
        return malformedControlMessages;
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
        return refusalsNotLogged;
    }
}
