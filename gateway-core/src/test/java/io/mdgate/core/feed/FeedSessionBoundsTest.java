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
import static io.mdgate.core.feed.FeedLines.RECOVERY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bounds on what one packet can make the session do: a sequence far ahead is implausible until corroborated, and a
 * gap is asked for at most a budget of messages before it is declared lost.
 */
@Timeout(30)
class FeedSessionBoundsTest extends FeedSessionFixture
{
    private static final long MICROS = 1_000L;
    private static final long FAR = 1L << 40;


    private FeedSession.Context context()
    {
        return context(10_000 * MILLIS).session(SESSION);
    }


    private void data(final int line, final long sequence, final int count)
    {
        send(line, moldPacketOfAdds(SESSION, sequence, count));
    }

    private void advance(final long nanos)
    {
        for (long step = 0; step < nanos; step += 50 * MICROS)
        {
            now += Math.min(50 * MICROS, nanos - step);
            session.doWork(now);
        }
    }

    private static List<Long> range(final long from, final long toInclusive)
    {
        return LongStream.rangeClosed(from, toInclusive).boxed().toList();
    }

    @Test
    void shouldCountAndDropAPacketFarAheadInsteadOfOpeningAGapThatNeverCloses()
    {
        requester.answerLimit(100);
        start(context());
        data(A, 1, 5);
        data(A, FAR, 2);
        send(A, moldHeartbeat(SESSION, FAR + 7));
        send(RECOVERY, moldPacketOfAdds(SESSION, FAR, 1));
        data(A, 6, 5);
        advance(10 * MILLIS);

        assertEquals(range(1, 10), output.sequences());
        assertEquals(2, session.implausible(A));
        assertEquals(1, session.implausible(RECOVERY));
        assertEquals(0, session.openGaps());
        assertEquals(11, session.knownSequence());
        assertEquals("[]", requester.requested());
        assertEquals(0, session.sequenceJumps());
    }

    @Test
    void shouldNotTakeAFarAheadEndOfSessionForTheSessionsEnd()
    {
        start(context());
        data(A, 1, 2);
        send(B, moldEndOfSession(SESSION, FAR));
        data(B, 3, 1);

        assertEquals(range(1, 3), output.sequences());
        assertEquals(1, session.implausible(B));
        assertEquals(0, session.openGaps());
        assertTrue(!session.isEndOfSession());
    }

    @Test
    void shouldTakeAJumpFarAheadWhenBothLinesShowItAndDeclareWhatCannotBeRecovered()
    {
        start(context().requester(null).firstSequence(1).plausibleSequenceWindow(1_000));
        data(A, 5_000_000, 2);
        assertEquals(1, session.implausible(A));
        assertEquals(List.of(), output.sequences(), "one line far ahead of sequence 1 is not enough");

        data(B, 5_000_000, 2);
        advance(MILLIS);

        assertEquals("[gap 1x4999999, 5000000, 5000001]", output.messagesAndGaps());
        assertEquals(1, session.sequenceJumps());
        data(A, 5_000_002, 1);
        assertEquals(5_000_003, session.nextSequence());
    }

    @Test
    void shouldTakeAJumpFarAheadAfterConsecutivePacketsOnOneLineAndRecoverWhatCameBefore()
    {
        requester.answerLimit(128);
        start(context().plausibleSequenceWindow(100).confirmPackets(3));
        data(A, 1, 10);
        data(A, 1_000, 2);
        data(A, 1_002, 2);
        assertEquals(2, session.implausible(A));
        assertEquals(0, session.openGaps());

        data(A, 1_004, 2);
        advance(10 * MILLIS);

        assertEquals(range(1, 1_005), output.sequences(), "the gap, the two dropped packets included, was re-requested");
        assertEquals(List.of(), output.gaps());
        assertEquals(1, session.sequenceJumps());
    }

    @Test
    void shouldNotTakeTwoStraysFarApartOnTheTwoLinesForAJump()
    {
        start(context().plausibleSequenceWindow(1_000));
        data(A, 1, 2);
        data(A, FAR, 1);
        data(B, FAR + 1_000_000, 1);
        data(B, 3, 1);

        assertEquals(range(1, 3), output.sequences());
        assertEquals(0, session.sequenceJumps());
        assertEquals(0, session.openGaps());
    }

    @Test
    void shouldDeclareAGapLostAsOneGapOnceTheMessagesAskedForItReachTheBudget()
    {
        requester.answerLimit(0);
        start(context().maxRequestCount(100).maxRetries(1_000).maxRequestedPerGap(1_000)
            .retryIntervalNanos(MILLIS));
        data(A, 1, 1);
        data(A, 502, 1);
        advance(20 * MILLIS);

        assertEquals("[1, gap 2x500, 502]", output.messagesAndGaps());
        assertEquals(1, session.gapsLost(FeedSession.LOST_REQUEST_BUDGET));
        assertEquals(List.of("lost 2x500 reason " + FeedSession.LOST_REQUEST_BUDGET), events.events("lost"));
        final long asked = requester.requests().stream().mapToLong(FakeRequester.Request::count).sum();
        assertEquals(1_000, asked, "two rounds of 500, then the budget is spent");
        assertEquals(0, session.openGaps());
    }
}
