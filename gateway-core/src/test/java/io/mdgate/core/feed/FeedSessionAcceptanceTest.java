package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.stream.LongStream;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldHeartbeat;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which session the feed session accepts and when it changes: one stray or bit-flipped packet must never take over
 * the feed, a real new session must, and with a configured session nothing else is ever accepted.
 */
@Timeout(30)
class FeedSessionAcceptanceTest extends FeedSessionFixture
{
    private static final long MICROS = 1_000L;
    private static final String NEXT = "NEXTSESS01";
    /** {@link io.mdgate.core.capture.CaptureFixtures#SESSION} with one bit flipped in its last character. */
    private static final String FLIPPED = "000010059C";


    private FeedSession.Context context()
    {
        return context(10_000 * MILLIS);
    }


    private void data(final int line, final String name, final long sequence, final int count)
    {
        send(line, moldPacketOfAdds(name, sequence, count));
    }

    private void both(final String name, final long sequence, final int count)
    {
        data(A, name, sequence, count);
        data(B, name, sequence, count);
    }

    private void advance(final long nanos)
    {
        now += nanos;
        session.doWork(now);
    }

    private static List<Long> range(final long from, final long toInclusive)
    {
        return LongStream.rangeClosed(from, toInclusive).boxed().toList();
    }

    @Test
    void shouldNotLetOneStrayPacketWithAnotherSessionNameTakeOverTheFeed()
    {
        start(context());
        both(SESSION, 1, 2);
        both(SESSION, 3, 2);

        data(A, FLIPPED, 5, 2);
        both(SESSION, 5, 2);
        both(SESSION, 7, 2);

        assertEquals("[session 1 " + SESSION + "@1, 1, 2, 3, 4, 5, 6, 7, 8]", output.stream());
        assertEquals(1, session.sessionNumber());
        assertEquals(SESSION, session.sessionString());
        assertEquals(0, session.sessionChanges());
        assertEquals(3, session.candidateSessionPackets(), "the first session's two packets, then the stray");
        assertEquals(List.of(), events.events("changed"));
        assertEquals(List.of(), output.gaps());
    }

    @Test
    void shouldAcceptTheFirstSessionOnlyOnceTheOtherLineShowsItAndDeliverWhatWasHeldMeanwhile()
    {
        start(context());
        data(A, SESSION, 1, 2);
        data(A, SESSION, 4, 1);

        assertEquals("[]", output.stream(), "one line, two packets that do not follow on: not corroborated yet");
        assertEquals(0, session.sessionNumber());
        assertEquals(2, session.candidateSessionPackets());

        data(B, SESSION, 1, 2);

        assertEquals(1, session.sessionNumber());
        assertEquals(List.of("started 1 " + SESSION + " next 1"), events.events("started"));
        assertEquals("[session 1 " + SESSION + "@1, 1, 2]", output.stream());
        data(B, SESSION, 3, 1);
        assertEquals(range(1, 4), output.sequences(), "the held packet 4 left once 3 came");
        assertEquals(0, session.openGaps());
        assertEquals("[]", requester.requested());
    }

    @Test
    void shouldAcceptASessionSeenOnOneLineAfterConsecutivePacketsAndNeverAStrayBeforeIt()
    {
        start(context().confirmPackets(3));
        data(A, "STRAY00001", 77, 1);
        data(A, SESSION, 1, 2);
        data(A, SESSION, 3, 2);
        assertEquals(0, session.sessionNumber(), "two consecutive packets are not enough with confirmPackets 3");

        send(A, moldHeartbeat(SESSION, 5));
        assertEquals(List.of("started 1 " + SESSION + " next 1"), events.events("started"),
            "a heartbeat where the last packet ended is the third consecutive packet");
        data(A, SESSION, 5, 1);

        assertEquals(range(1, 5), output.sequences());
        assertEquals(4, session.candidateSessionPackets(), "the stray and the three packets of the first session");
        assertEquals(0, session.sessionChanges());
    }

    @Test
    void shouldChangeSessionAfterTheEndOfSessionOnceTheNewOneIsCorroboratedAndReportItOnceWithBothNames()
    {
        start(context());
        both(SESSION, 1, 2);
        both(SESSION, 3, 2);
        send(A, moldEndOfSession(SESSION, 5));
        send(B, moldEndOfSession(SESSION, 5));
        assertTrue(session.isEndOfSession());

        data(A, NEXT, 1, 2);
        assertEquals(1, session.sessionNumber(), "the new session on one line, once, is not corroborated");
        data(B, NEXT, 1, 2);
        data(A, NEXT, 3, 1);
        data(B, SESSION, 3, 2);

        assertEquals("[session 1 " + SESSION + "@1, 1, 2, 3, 4, session 2 " + NEXT + "@1, 1, 2, 3]", output.stream());
        assertEquals(List.of("changed 2 " + SESSION + " to " + NEXT + " next 1"), events.events("changed"));
        assertEquals(1, events.events("started").size(), "the first session only");
        assertEquals(1, session.sessionChanges());
        assertEquals(1, session.otherSessionPackets(), "a packet of the previous session after the change");
        assertEquals(4, session.candidateSessionPackets(), "two of each session before it was accepted");
        assertEquals(List.of(), output.gaps());
    }

    @Test
    void shouldNotLetAStrayAfterTheEndOfSessionTakeOverBeforeTheRealNextSession()
    {
        start(context());
        both(SESSION, 1, 2);
        send(A, moldEndOfSession(SESSION, 3));
        send(B, moldEndOfSession(SESSION, 3));

        data(B, FLIPPED, 1, 1);
        advance(10 * MILLIS);
        assertEquals(1, session.sessionNumber());

        both(NEXT, 1, 2);

        assertEquals("[session 1 " + SESSION + "@1, 1, 2, session 2 " + NEXT + "@1, 1, 2]", output.stream());
        assertEquals(List.of("changed 2 " + SESSION + " to " + NEXT + " next 1"), events.events("changed"));
    }

    @Test
    void shouldNotChangeWhileTheCurrentSessionIsStillLiveOnALineThoughTheCandidateIsCorroboratedOnTheOther()
    {
        start(context());
        both(SESSION, 1, 1);
        for (long sequence = 1; sequence <= 5; sequence++)
        {
            data(A, NEXT, sequence, 1);
            data(B, SESSION, sequence + 1, 1);
            advance(100 * MICROS);
        }
        assertEquals(1, session.sessionNumber(), "B still carries the current session, which has not ended");
        assertEquals(range(1, 6), output.sequences());

        data(B, NEXT, 1, 1);

        assertEquals(2, session.sessionNumber());
        assertEquals("[session 1 " + SESSION + "@1, 1, 2, 3, 4, 5, 6, session 2 " + NEXT + "@1, 1, 2, 3, 4, 5]",
            output.stream());
        assertEquals(0, session.gapsLost(FeedSession.LOST_SESSION_CHANGED));
    }

    @Test
    void shouldChangeWhenTheOtherLineHasGoneStaleAndTheCurrentSessionHasNothingOpen()
    {
        start(context().staleLineNanos(5 * MILLIS));
        both(SESSION, 1, 1);
        advance(MILLIS);
        for (long sequence = 1; sequence <= 3; sequence++)
        {
            data(A, NEXT, sequence, 1);
            advance(MILLIS);
        }
        assertEquals(1, session.sessionNumber(), "B is silent but not stale yet");

        advance(5 * MILLIS);

        assertEquals(2, session.sessionNumber());
        assertEquals("[session 1 " + SESSION + "@1, 1, session 2 " + NEXT + "@1, 1, 2, 3]", output.stream());
    }

    @Test
    void shouldCountAndDropEveryOtherSessionWhenASessionIsConfigured()
    {
        start(context().session(SESSION));
        both("OTHER00001", 1, 2);
        both("OTHER00001", 3, 2);
        data(A, SESSION, 1, 2);
        both("OTHER00001", 5, 2);
        data(B, SESSION, 3, 2);
        send(A, moldEndOfSession(SESSION, 5));
        both("OTHER00001", 1, 2);

        assertEquals("[session 1 " + SESSION + "@1, 1, 2, 3, 4]", output.stream());
        assertEquals(1, session.sessionNumber());
        assertEquals(8, session.refusedSessionPackets());
        assertEquals(0, session.candidateSessionPackets());
        assertEquals(0, session.sessionChanges());
    }

    @Test
    void shouldRefuseAConfiguredSessionNameThatIsNotTenPrintableCharacters()
    {
        final IllegalArgumentException tooLong = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new FeedSession(context().session("ELEVENCHARS")));
        assertTrue(tooLong.getMessage().contains("session"), tooLong.getMessage());
        final IllegalArgumentException control = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new FeedSession(context().session("AB\tC")));
        assertTrue(control.getMessage().contains("printable"), control.getMessage());
        assertFalse(new FeedSession(context().session("")).sessionNumber() != 0, "empty means none");
    }
}
