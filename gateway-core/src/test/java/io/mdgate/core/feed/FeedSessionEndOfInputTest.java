package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The end of an input that has one (a capture read offline): a session nothing corroborated before the end is
 * accepted then, the candidate with the most packets, unless two are level; nothing changes once a session was
 * accepted.
 */
@Timeout(30)
class FeedSessionEndOfInputTest
{
    private static final long MILLIS = 1_000_000L;
    private static final long GAP_WAIT = 2 * MILLIS;
    /** {@link io.mdgate.core.capture.CaptureFixtures#SESSION} with one bit flipped in its last character. */
    private static final String FLIPPED = "000010059C";
    private static final String NEXT = "NEXTSESS01";

    private final SessionOutput output = new SessionOutput();
    private final RecordingSessionListener events = new RecordingSessionListener();
    private long now = 1_000 * MILLIS;
    private FeedSession session;

    private void start(final FeedSession.Context context)
    {
        session = new FeedSession(context
            .messageHandler(output)
            .gapHandler(output)
            .listener(events)
            .gapWaitNanos(GAP_WAIT));
        session.doWork(now);
    }

    private void start()
    {
        start(new FeedSession.Context());
    }

    private void data(final int line, final String name, final long sequence, final int count)
    {
        final byte[] packet = moldPacketOfAdds(name, sequence, count);
        now += 1_000;
        session.doWork(now);
        session.onPacket(line, new UnsafeBuffer(packet), 0, packet.length, now);
    }

    private void waitPastTheGapWait()
    {
        now += GAP_WAIT;
        session.doWork(now);
    }

    @Test
    void shouldAcceptTheOnlyCandidateOfAOneLineInputAtItsEndAndDeliverWhatItHeld()
    {
        start();
        data(A, SESSION, 1, 2);
        data(A, SESSION, 3, 1);
        assertEquals("[]", output.stream(), "two consecutive packets of one line: not corroborated");

        assertTrue(session.onEndOfInput());

        assertEquals("[session 1 " + SESSION + "@1, 1, 2, 3]", output.stream());
        assertEquals(List.of("started 1 " + SESSION + " next 1"), events.events("started"));
        assertEquals(1, session.sessionNumber());
        assertFalse(session.onEndOfInput(), "a second end changes nothing");
        assertEquals(1, session.sessionNumber());
    }

    @Test
    void shouldTakeTheCandidateWithMorePacketsSoAStrayWithAnotherNameNeverBecomesTheSession()
    {
        start();
        data(A, FLIPPED, 1, 2);
        data(A, SESSION, 1, 2);
        data(A, SESSION, 4, 1);

        assertTrue(session.onEndOfInput());
        waitPastTheGapWait();

        assertEquals(SESSION, session.sessionString());
        assertEquals("[session 1 " + SESSION + "@1, 1, 2, gap 3x1, 4]", output.stream());
        assertEquals(3, session.candidateSessionPackets());
    }

    @Test
    void shouldAcceptNoCandidateWhenTwoCameInEquallyManyPackets()
    {
        start();
        data(A, FLIPPED, 1, 2);
        data(A, SESSION, 1, 2);

        assertFalse(session.onEndOfInput());
        waitPastTheGapWait();

        assertEquals("[]", output.stream(), "nothing tells the session from the stray");
        assertEquals(0, session.sessionNumber());
    }

    @Test
    void shouldStartAtTheLowestSequenceShownEvenWhenAFarJumpRestartedTheCandidatesEvidence()
    {
        start();
        data(A, SESSION, 10, 1);
        data(A, SESSION, 10 + FeedSession.Context.DEFAULT_PLAUSIBLE_SEQUENCE_WINDOW + 5, 2);

        assertTrue(session.onEndOfInput());
        waitPastTheGapWait();

        final long jump = 10 + FeedSession.Context.DEFAULT_PLAUSIBLE_SEQUENCE_WINDOW + 5;
        assertEquals("[session 1 " + SESSION + "@10, 10, gap 11x" + (jump - 11) + ", " + jump + ", " + (jump + 1) + "]",
            output.stream());
    }

    @Test
    void shouldLeaveACandidateForAChangeWaitingOnceASessionWasAccepted()
    {
        start();
        data(A, SESSION, 1, 1);
        data(B, SESSION, 1, 1);
        data(A, NEXT, 1, 1);

        assertFalse(session.onEndOfInput());
        waitPastTheGapWait();

        assertEquals("[session 1 " + SESSION + "@1, 1]", output.stream());
        assertEquals(SESSION, session.sessionString());
        assertEquals(0, session.sessionChanges());
    }

    @Test
    void shouldDoNothingWithAConfiguredSessionWhoseFirstPacketStartedIt()
    {
        start(new FeedSession.Context().session(SESSION));
        data(A, FLIPPED, 1, 2);
        data(A, FLIPPED, 3, 2);
        data(A, SESSION, 1, 1);

        assertFalse(session.onEndOfInput());

        assertEquals("[session 1 " + SESSION + "@1, 1]", output.stream());
        assertEquals(2, session.refusedSessionPackets());
    }
}
