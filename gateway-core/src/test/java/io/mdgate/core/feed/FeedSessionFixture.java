package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the feed session's rule tests share: a session whose messages, gaps and events are recorded, a fake
 * re-request server, and a clock the test moves by hand ({@link #now}).
 */
abstract class FeedSessionFixture
{
    static final long MILLIS = 1_000_000L;

    final SessionOutput output = new SessionOutput();
    final RecordingSessionListener events = new RecordingSessionListener();
    final FakeRequester requester = new FakeRequester();
    long now = 1_000 * MILLIS;
    FeedSession session;

    /**
     * @param staleLineNanos how long a silent line takes to go stale.
     * @return settings wired to this fixture's recorders and requester.
     */
    FeedSession.Context context(final long staleLineNanos)
    {
        return new FeedSession.Context()
            .messageHandler(output)
            .gapHandler(output)
            .listener(events)
            .requester(requester)
            .staleLineNanos(staleLineNanos);
    }

    void start(final FeedSession.Context context)
    {
        session = new FeedSession(context);
        session.doWork(now);
    }

    void send(final int line, final byte[] packet)
    {
        session.onPacket(line, new UnsafeBuffer(packet), 0, packet.length, now);
    }
}
