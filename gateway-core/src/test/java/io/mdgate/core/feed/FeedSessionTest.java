package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldHeartbeat;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static io.mdgate.core.feed.FeedLines.RECOVERY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feed session's arbitration, gap recovery and session handling, driven packet by packet with a fake clock
 * (the time given to {@code doWork}) and an in-memory re-request server.
 */
@Timeout(30)
class FeedSessionTest
{
    private static final long MICROS = 1_000L;
    private static final long MILLIS = 1_000_000L;

    private final SessionOutput output = new SessionOutput();
    private final RecordingSessionListener events = new RecordingSessionListener();
    private final FakeRequester requester = new FakeRequester();
    private long now = 1_000 * MILLIS;
    private FeedSession session;

    /** A session configured with the fixtures' session name, so that its first packet starts it. */
    private FeedSession.Context context()
    {
        return unconfigured().session(SESSION);
    }

    /** No session configured: sessions are accepted when corroborated. */
    private FeedSession.Context unconfigured()
    {
        return new FeedSession.Context()
            .messageHandler(output)
            .gapHandler(output)
            .listener(events)
            .requester(requester)
            .staleLineNanos(10_000 * MILLIS);
    }

    private FeedSession start(final FeedSession.Context context)
    {
        session = new FeedSession(context);
        session.doWork(now);
        return session;
    }

    private void send(final int line, final byte[] packet)
    {
        session.onPacket(line, new UnsafeBuffer(packet), 0, packet.length, now);
    }

    private void data(final int line, final long sequence, final int count)
    {
        send(line, moldPacketOfAdds(SESSION, sequence, count));
    }

    private int advance(final long nanos)
    {
        now += nanos;
        return session.doWork(now);
    }

    private static List<Long> range(final long from, final long toInclusive)
    {
        return LongStream.rangeClosed(from, toInclusive).boxed().toList();
    }

    @Test
    void shouldDeliverEachSequenceOnceAndCountTheOtherLinesCopiesAsDuplicates()
    {
        start(context());
        for (long sequence = 1; sequence <= 30; sequence += 3)
        {
            data(A, sequence, 3);
            data(B, sequence, 3);
        }

        assertEquals(range(1, 30), output.sequences());
        assertEquals(output.sequences().stream().map(Long::intValue).toList(), output.tags());
        assertEquals(30, session.messages(A));
        assertEquals(0, session.messages(B));
        assertEquals(30, session.duplicates(B));
        assertEquals(0, session.duplicates(A));
        assertEquals(10, session.packets(A));
        assertEquals(10, session.packets(B));
        assertEquals(31, session.nextSequence());
        assertEquals(0, session.openGaps());
        assertEquals("[]", requester.requested());
    }

    @Test
    void shouldTakeWhicheverLineBringsASequenceFirst()
    {
        start(context());
        data(A, 1, 2);
        data(B, 3, 2);
        data(A, 3, 2);
        data(B, 1, 2);
        data(B, 5, 2);
        data(A, 5, 2);

        assertEquals(range(1, 6), output.sequences());
        assertEquals(2, session.messages(A));
        assertEquals(4, session.messages(B));
        assertEquals(4, session.duplicates(A));
        assertEquals(2, session.duplicates(B));
    }

    @Test
    void shouldHoldPacketsAfterAGapAndReleaseThemInOrderWhenTheOtherLineFillsItWithinTheWait()
    {
        start(context());
        data(A, 1, 2);
        data(A, 5, 2);
        data(A, 7, 2);
        assertEquals(range(1, 2), output.sequences());
        assertEquals(2, session.heldPackets());
        assertEquals(1, session.openGaps());
        assertEquals(2, session.missingMessages());

        advance(150 * MICROS);
        data(B, 1, 2);
        data(B, 3, 2);

        assertEquals(range(1, 8), output.sequences());
        assertEquals("[]", requester.requested(), "the other line filled the gap before the wait was over");
        assertEquals(1, session.gapsOpened(A));
        assertEquals(1, session.gapsFilledByOtherLine(A));
        assertEquals(0, session.heldPackets());
        assertEquals(0, session.openGaps());

        advance(10 * MILLIS);
        assertEquals("[]", requester.requested());
    }

    @Test
    void shouldRequestAGapTheOtherLineDoesNotFillAndDeliverTheAnswerInOrder()
    {
        requester.answerLimit(100);
        start(context());
        data(A, 1, 2);
        data(A, 5, 2);
        data(B, 1, 2);
        data(B, 5, 2);

        advance(199 * MICROS);
        assertEquals("[]", requester.requested());
        advance(MICROS);
        assertEquals("[3+2]", requester.requested());
        assertEquals(SESSION, requester.requests().get(0).session());
        assertEquals(range(1, 2), output.sequences());

        advance(10 * MICROS);

        assertEquals(range(1, 6), output.sequences());
        assertEquals(2, session.messages(RECOVERY));
        assertEquals(1, session.gapsFilledByRerequest(A));
        assertEquals(1, session.requestsSent());
        assertEquals(0, session.openGaps());
        assertEquals(List.of(), output.gaps());
    }

    @Test
    void shouldRepeatUnansweredRequestsThenDeclareTheGapLostOnceAndMoveOn()
    {
        start(context().maxRetries(2).retryIntervalNanos(MILLIS));
        data(A, 1, 2);
        data(A, 5, 2);

        advance(200 * MICROS);
        assertEquals(1, requester.requests().size());
        advance(MILLIS - 1);
        assertEquals(1, requester.requests().size());
        advance(1);
        assertEquals(2, requester.requests().size());
        advance(MILLIS);
        assertEquals(3, requester.requests().size());
        assertEquals("[1, 2]", output.messagesAndGaps());

        advance(MILLIS);

        assertEquals("[3+2, 3+2, 3+2]", requester.requested());
        assertEquals("[1, 2, gap 3x2, 5, 6]", output.messagesAndGaps());
        assertEquals(List.of("lost 3x2 reason " + FeedSession.LOST_RETRIES_EXHAUSTED), events.events("lost"));
        assertEquals(1, session.gapsDeclaredLost(A));
        assertEquals(1, session.gapsLost(FeedSession.LOST_RETRIES_EXHAUSTED));
        assertEquals(2, session.messagesLost());
        assertEquals(7, session.nextSequence());

        advance(100 * MILLIS);
        data(A, 7, 1);
        assertEquals("[1, 2, gap 3x2, 5, 6, 7]", output.messagesAndGaps());
        assertEquals(1, events.events("lost").size(), "a gap is reported once");
        assertEquals(3, requester.requests().size());
    }

    @Test
    void shouldDeclareAGapLostWhenItsWaitExpiresWithoutARerequestServer()
    {
        start(context().requester(null));
        data(A, 1, 2);
        data(A, 5, 2);
        advance(199 * MICROS);
        assertEquals("[1, 2]", output.messagesAndGaps());

        advance(MICROS);

        assertEquals("[1, 2, gap 3x2, 5, 6]", output.messagesAndGaps());
        assertEquals(1, session.gapsLost(FeedSession.LOST_NO_RECOVERY));
        assertEquals(List.of("lost 3x2 reason " + FeedSession.LOST_NO_RECOVERY), events.events("lost"));
    }

    @Test
    void shouldDeclareTheGapWhenTheHoldRunsOutOfPacketsWithoutARerequestServer()
    {
        start(context().requester(null).holdPackets(2).gapWaitNanos(10 * MILLIS));
        data(A, 1, 1);
        data(A, 3, 1);
        data(A, 4, 1);
        assertEquals(2, session.heldPackets());

        data(A, 5, 1);

        assertEquals("[1, gap 2x1, 3, 4, 5]", output.messagesAndGaps());
        assertEquals(1, session.gapsLost(FeedSession.LOST_HOLD_FULL));
        assertEquals(List.of("lost 2x1 reason " + FeedSession.LOST_HOLD_FULL), events.events("lost"));
        assertEquals(0, session.heldPackets());
        assertEquals(0, session.packetsShed());
    }

    @Test
    void shouldDeclareTheGapWhenTheHoldRunsOutOfBytesWithoutARerequestServer()
    {
        start(context().requester(null).holdBytes(FeedSession.Context.MIN_HOLD_BYTES).gapWaitNanos(10 * MILLIS));
        data(A, 1, 600);
        data(A, 1_201, 600);
        data(A, 1_801, 600);
        assertEquals(2, session.heldPackets(), "two packets of 22,820 bytes fit 65,536");

        data(A, 2_401, 600);

        assertEquals(new SessionOutput.Item(601, 600), output.gaps().get(0));
        assertEquals(1, output.gaps().size());
        assertEquals(3_000 - 600, output.messages());
        assertEquals(0, session.heldPackets(), "once the gap was declared the last packet was next in line");
        assertEquals(3_001, session.nextSequence());
    }

    @Test
    void shouldShedPacketsAheadOfAFullHoldAndAskForThemOnceItDrainsInsteadOfDeclaringTheGap()
    {
        start(context().holdPackets(4).maxRequestCount(100));
        data(A, 1, 1);
        data(A, 3, 1);
        data(A, 4, 1);
        data(A, 5, 1);
        assertEquals(3, session.heldPackets(), "75% of the hold");

        data(A, 6, 1);
        data(B, 6, 1);
        data(A, 7, 2);
        data(B, 7, 2);

        assertEquals("[1]", output.messagesAndGaps(), "nothing declared, nothing delivered past the gap");
        assertEquals(0, session.gapsLost(FeedSession.LOST_HOLD_FULL));
        assertEquals(4, session.packetsShed(), "both lines' copies of 6 and 7..8");
        assertTrue(session.isShedding());
        assertEquals(List.of("shedding from 6 behind 2 held 3"), events.events("shedding"));
        assertEquals(3, session.heldPackets());

        advance(MILLIS);
        assertEquals("[2+1]", requester.requested(), "the gap before the hold is asked for, the shed range is not");

        requester.answerLimit(100);
        advance(10 * MILLIS);
        advance(MILLIS);
        assertFalse(session.isShedding());
        assertEquals(List.of("shed 6..9 packets 4"), events.events("shed"));
        advance(MILLIS);
        advance(MILLIS);
        assertEquals(range(1, 8), output.sequences(), "every message once, the shed ones asked for");
        assertEquals(0, session.openGaps());
        assertEquals(List.of(), events.events("lost"));
        assertEquals(1, session.shedPeriods());
    }

    @Test
    void shouldDropAPacketThatFindsNoRoomAndLeaveItsGapToTheServerRatherThanDeclareTheGapBefore()
    {
        start(context().holdPackets(2).maxRequestCount(1).gapWaitNanos(5 * MILLIS));
        data(A, 1, 1);
        data(A, 3, 1);
        data(A, 5, 1);
        assertEquals(2, session.heldPackets(), "3 and 5, behind the gaps at 2 and 4: the hold is full");

        data(B, 4, 1);

        assertEquals("[1]", output.messagesAndGaps(), "line B's 4 found no room and the gap at 2 stays open");
        assertEquals(1, session.packetsShed());
        assertEquals(2, session.openGaps());
        requester.answerLimit(1);
        advance(6 * MILLIS);
        assertEquals("[2+1]", requester.requested(), "with the hold full only the lowest gap is asked for");
        advance(MILLIS);
        assertEquals(range(1, 3), output.sequences());
        advance(MILLIS);
        assertEquals("[2+1, 4+1]", requester.requested());
        advance(MILLIS);
        assertEquals(range(1, 5), output.sequences());
        assertEquals(List.of(), events.events("lost"));
    }

    @Test
    void shouldPaceRequestsWithTheRateLimit()
    {
        start(context().maxRequestCount(1).requestsPerSecond(1_000).requestBurst(2));
        data(A, 1, 1);
        data(A, 7, 1);

        advance(200 * MICROS);
        assertEquals("[2+1, 3+1]", requester.requested());
        assertEquals(1, session.requestsDeferred());
        advance(500 * MICROS);
        assertEquals(2, requester.requests().size());
        advance(500 * MICROS);
        assertEquals(3, requester.requests().size());
        advance(MILLIS);
        advance(MILLIS);
        assertEquals("[2+1, 3+1, 4+1, 5+1, 6+1]", requester.requested());
        advance(MILLIS);
        assertEquals(5, requester.requests().size(), "the round is complete; the next waits for the retry interval");
    }

    @Test
    void shouldSplitAGapLargerThanTheRequestSizeIntoSeveralRequests()
    {
        requester.answerLimit(1_000);
        start(context().maxRequestCount(3));
        data(A, 1, 2);
        data(A, 11, 1);

        advance(200 * MICROS);
        assertEquals("[3+3, 6+3, 9+2]", requester.requested());
        advance(MICROS);

        assertEquals(range(1, 11), output.sequences());
        assertEquals(1, session.gapsFilledByRerequest(A));
    }

    @Test
    void shouldAskAtOnceForTheRestOfARequestAnsweredShort()
    {
        requester.answerLimit(4);
        start(context().maxRequestCount(10));
        data(A, 1, 2);
        data(A, 23, 1);

        advance(200 * MICROS);
        assertEquals("[3+10, 13+10]", requester.requested());
        advance(MICROS);
        assertEquals("[3+10, 13+10, 7+6, 17+6]", requester.requested());
        advance(MICROS);
        assertEquals("[3+10, 13+10, 7+6, 17+6, 11+2, 21+2]", requester.requested());
        advance(MICROS);

        assertEquals(range(1, 23), output.sequences());
        assertEquals(6, requester.requests().size(), "no request was repeated");
        assertEquals(List.of(), output.gaps());
    }

    @Test
    void shouldFollowShortAnswersUpWithoutSpendingRetries()
    {
        requester.answerLimit(1);
        start(context().maxRequestCount(2).maxRetries(0).retryIntervalNanos(MILLIS));
        data(A, 1, 1);
        data(A, 8, 1);

        advance(200 * MICROS);
        for (int i = 0; i < 10; i++)
        {
            advance(MICROS);
        }

        assertEquals(range(1, 8), output.sequences());
        assertEquals(List.of(), output.gaps());
    }

    @Test
    void shouldRevealAGapFromAHeartbeatAheadOfTheLastMessage()
    {
        requester.answerLimit(100);
        start(context());
        data(A, 1, 2);
        send(A, moldHeartbeat(SESSION, 5));
        assertEquals(1, session.openGaps());
        assertEquals(5, session.knownSequence());
        assertEquals(1, session.heartbeats(A));

        advance(200 * MICROS);
        assertEquals("[3+2]", requester.requested());
        advance(MICROS);

        assertEquals(range(1, 4), output.sequences());
        assertEquals(5, session.nextSequence());
    }

    @Test
    void shouldCountRunsOfHeartbeatsRevealingTheSameHoleAsOneGap()
    {
        start(context().requester(null));
        data(A, 1, 2);
        send(A, moldHeartbeat(SESSION, 4));
        send(B, moldHeartbeat(SESSION, 6));
        send(A, moldHeartbeat(SESSION, 6));

        assertEquals(1, session.openGaps());
        assertEquals(1, session.gapsOpened(A));
        assertEquals(0, session.gapsOpened(B));
        advance(200 * MICROS);
        assertEquals("[1, 2, gap 3x3]", output.messagesAndGaps());
    }

    @Test
    void shouldReportALineStaleOncePerSilentPeriodAndClearItWhenItSpeaks()
    {
        start(context().staleLineNanos(MILLIS));
        data(A, 1, 1);
        advance(600 * MICROS);
        data(A, 2, 1);
        advance(400 * MICROS);
        assertEquals(List.of("stale 1"), events.events("stale"));
        assertTrue(session.isLineStale(B));
        assertFalse(session.isLineStale(A));

        advance(5 * MILLIS);
        assertEquals(List.of("stale 1", "stale 0"), events.events("stale"));
        send(B, moldHeartbeat(SESSION, 3));
        assertFalse(session.isLineStale(B));
        assertEquals(List.of("active 1"), events.events("active"));
        advance(MILLIS);

        assertEquals(List.of("stale 1", "stale 0", "stale 1"), events.events("stale"));
        assertEquals(2, session.stalePeriods(B));
        assertEquals(1, session.stalePeriods(A));
    }

    @Test
    void shouldEndTheSessionOnceEverythingBeforeTheMarkerHasLeftAndCountLaterPackets()
    {
        start(context().staleLineNanos(MILLIS));
        data(A, 1, 2);
        data(A, 5, 2);
        send(A, moldEndOfSession(SESSION, 7));
        assertFalse(session.isEndOfSession(), "3 and 4 are still missing");

        data(B, 1, 2);
        data(B, 3, 2);

        assertTrue(session.isEndOfSession());
        assertEquals(List.of("end 7"), events.events("end"));
        assertEquals(range(1, 6), output.sequences());
        data(B, 5, 2);
        send(B, moldEndOfSession(SESSION, 7));
        data(A, 7, 1);
        assertEquals(3, session.packetsAfterEndOfSession());
        assertEquals(range(1, 6), output.sequences());

        advance(10 * MILLIS);
        assertEquals(List.of(), events.events("stale"), "lines go quiet after the end of session");
        assertEquals(1, events.events("end").size());
    }

    @Test
    void shouldRecoverTheTailAnEndOfSessionRevealsBeforeEnding()
    {
        requester.answerLimit(100);
        start(context());
        data(A, 1, 2);
        send(A, moldEndOfSession(SESSION, 5));
        assertFalse(session.isEndOfSession());

        advance(200 * MICROS);
        advance(MICROS);

        assertEquals(range(1, 4), output.sequences());
        assertTrue(session.isEndOfSession());
        assertEquals(List.of("end 5"), events.events("end"));
    }

    @Test
    void shouldStartAtTheConfiguredFirstSequenceAndRecoverWhatCameBeforeTheFirstPacket()
    {
        requester.answerLimit(100);
        start(context().firstSequence(1));
        data(A, 10, 2);
        advance(200 * MICROS);
        assertEquals("[1+9]", requester.requested());
        advance(MICROS);
        assertEquals(range(1, 11), output.sequences());
    }

    @Test
    void shouldStartWithTheFirstPacketSeenByDefault()
    {
        start(context());
        data(B, 1_000, 2);
        data(A, 998, 4);

        assertEquals(range(1_000, 1_001), output.sequences());
        assertEquals(List.of("started 1 " + SESSION + " next 1000"), events.events("started"));
        assertEquals(4, session.duplicates(A));
    }

    @Test
    void shouldStartAnUnconfiguredSessionAtTheLowestSequenceItsCorroboratingPacketsShowed()
    {
        start(unconfigured());
        data(B, 1_000, 2);
        data(A, 998, 2);
        assertEquals(List.of(), output.sequences(), "two different packets on the two lines corroborate nothing");
        data(A, 1_000, 2);

        assertEquals(range(998, 1_001), output.sequences());
        assertEquals(List.of("started 1 " + SESSION + " next 998"), events.events("started"));
        assertEquals(2, session.duplicates(A) + session.duplicates(B), "one of the two copies of 1000");
    }

    @Test
    void shouldCountMalformedPacketsAndCarryOn()
    {
        start(context());
        data(A, 1, 2);
        final byte[] good = moldPacketOfAdds(SESSION, 3, 2);
        final byte[] truncated = Arrays.copyOf(good, good.length - 5);
        final byte[] oversized = Arrays.copyOf(good, good.length + 7);
        final byte[] garbage = new byte[53];
        new Random(7).nextBytes(garbage);
        final byte[] runt = Arrays.copyOf(good, 12);
        final byte[] sequenceZero = moldPacketOfAdds(SESSION, 0, 1);
        final byte[] heartbeatWithTail = Arrays.copyOf(moldHeartbeat(SESSION, 5), 24);
        final byte[] overrunAhead = Arrays.copyOf(moldPacketOfAdds(SESSION, 9, 2), 50);
        final byte[] nonPrintableSession = moldPacketOfAdds(SESSION, 3, 2);
        nonPrintableSession[0] = 0;

        for (final byte[] bad : List.of(
            truncated, oversized, garbage, runt, sequenceZero, heartbeatWithTail, overrunAhead, nonPrintableSession))
        {
            send(A, bad);
        }
        send(B, truncated);
        session.onPacket(7, new UnsafeBuffer(good), 0, good.length, now);
        send(RECOVERY, runt);

        assertEquals(8, session.malformed(A));
        assertEquals(1, session.malformed(B));
        assertEquals(1, session.malformed(RECOVERY));
        assertEquals(1, session.unknownLinePackets());
        assertEquals(0, session.openGaps(), "no malformed packet opened a gap");
        assertEquals(1, session.sessionNumber(), "no malformed packet started a session");
        assertTrue(session.decoder().malformedCount() >= 6);

        send(B, good);
        data(A, 5, 1);
        assertEquals(range(1, 5), output.sequences());
        assertEquals(List.of(), output.gaps());
    }

    @Test
    void shouldDropReRequestAnswersOfAnotherSession()
    {
        requester.answerLimit(100).answerSession("OTHER00001");
        start(context().maxRetries(0));
        data(A, 1, 2);
        data(A, 5, 2);
        advance(200 * MICROS);
        advance(MICROS);

        assertEquals(1, session.otherSessionPackets());
        assertEquals("[1, 2]", output.messagesAndGaps());
        assertEquals(1, session.sessionNumber(), "an answer never changes the session");
    }

    @Test
    void shouldSplitAGapWhenAPacketLandsInItsMiddleAndCountBothHalves()
    {
        start(context().requester(null));
        data(A, 1, 1);
        data(A, 10, 1);
        data(B, 5, 2);
        assertEquals(2, session.openGaps());
        assertEquals(2, session.gapsOpened(A), "the split made a second gap");
        assertEquals(6, session.missingMessages());

        data(B, 2, 3);
        advance(200 * MICROS);

        assertEquals("[1, 2, 3, 4, 5, 6, gap 7x3, 10]", output.messagesAndGaps());
        assertEquals(1, session.gapsFilledByOtherLine(A));
        assertEquals(1, session.gapsDeclaredLost(A));
        assertEquals(session.gapsOpened(A), session.gapsFilledByOtherLine(A) + session.gapsDeclaredLost(A));
    }

    @Test
    void shouldCreditGapsToTheLineThatRevealedThemAndToHowTheyWereFilled()
    {
        requester.answerLimit(100);
        start(context());
        data(A, 1, 1);
        data(A, 3, 1);
        data(A, 2, 1);
        data(B, 5, 1);
        data(A, 4, 1);
        data(A, 7, 1);
        advance(200 * MICROS);
        advance(MICROS);

        assertEquals(range(1, 7), output.sequences());
        assertEquals(2, session.gapsOpened(A));
        assertEquals(1, session.gapsOpened(B));
        assertEquals(1, session.gapsFilledBySameLine(A));
        assertEquals(1, session.gapsFilledByRerequest(A));
        assertEquals(1, session.gapsFilledByOtherLine(B));
        assertEquals(0, session.gapsDeclaredLost(A) + session.gapsDeclaredLost(B));
    }

    @Test
    void shouldCountARequestTheRequesterCouldNotSendAndAskAgainOnTheRetryTimer()
    {
        requester.failSends(true);
        start(context().retryIntervalNanos(MILLIS));
        data(A, 1, 1);
        data(A, 3, 1);
        advance(200 * MICROS);
        assertEquals(1, session.requestFailures());
        requester.failSends(false).answerLimit(10);
        advance(MILLIS);

        assertEquals(2, requester.requests().size());
        advance(MICROS);
        assertEquals(range(1, 3), output.sequences());
        assertEquals(1, session.requestsSent());
    }

    @Test
    void shouldTellThePacketContextHandlerTheLineAndReceiveTimeOfEachDeliveredPacket()
    {
        final List<String> contexts = new ArrayList<>();
        start(context().packetContextHandler((line, timestamp) -> contexts.add(line + "@" + timestamp)));
        final byte[] first = moldPacketOfAdds(SESSION, 1, 1);
        session.onPacket(A, new UnsafeBuffer(first), 0, first.length, 100);
        final byte[] ahead = moldPacketOfAdds(SESSION, 3, 1);
        final byte[] missing = moldPacketOfAdds(SESSION, 2, 1);
        session.onPacket(A, new UnsafeBuffer(ahead), 0, ahead.length, 300);
        session.onPacket(B, new UnsafeBuffer(missing), 0, missing.length, 310);

        assertEquals(range(1, 3), output.sequences());
        assertEquals(List.of("0@100", "0@100", "1@310", "0@300"), contexts,
            "the session start takes the context of the packet that started it; a held packet keeps its own");
    }

    @Test
    void shouldIgnoreALineBehindTheOtherWithoutOpeningGaps()
    {
        start(context());
        for (long sequence = 1; sequence <= 100; sequence++)
        {
            data(A, sequence, 1);
            if (sequence > 10)
            {
                data(B, sequence - 10, 1);
            }
        }
        assertEquals(range(1, 100), output.sequences());
        assertEquals(0, session.gapsOpened(A) + session.gapsOpened(B));
        assertEquals(90, session.duplicates(B));
    }
}
