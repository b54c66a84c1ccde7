package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static io.mdgate.core.feed.FeedLines.RECOVERY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The feed session against seeded random loss, bursts, reordering, duplication and damage on each line
 * ({@link LineTraffic}): whatever the faults, every sequence leaves exactly once and in order, either as a message
 * or inside a declared gap, and the counters add up to what was injected.
 */
@Timeout(60)
class FeedSessionRandomizedTest
{
    private static final int PACKETS = 4_000;
    private static final long STEP_NANOS = 5_000;
    private static final LineTraffic.Faults FAULTS = new LineTraffic.Faults(0.05, 0.004, 20, 0.003, 0.02, 0.01);

    private final SessionOutput output = new SessionOutput();

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 42, 2024, 77_777, 31_337, 123_456_789 })
    void shouldDeliverEverySequenceOnceAndInOrderAndRecoverWhatBothLinesLost(final long seed)
    {
        final LineTraffic traffic = LineTraffic.generate(seed, PACKETS, FAULTS);
        final FakeRequester requester = new FakeRequester().answerLimit(8).answerLoss(0.1, seed);
        final FeedSession session = new FeedSession(context().requester(requester));

        run(session, traffic);

        System.out.printf("seed %d: %d messages, %d lost on both lines, gaps opened A %d B %d, filled by the " +
            "other line %d, by the same line %d, by re-request %d, %d requests%n", seed, traffic.lastSequence(),
            traffic.missingOnBothLines().size(), session.gapsOpened(A), session.gapsOpened(B),
            session.gapsFilledByOtherLine(A) + session.gapsFilledByOtherLine(B),
            session.gapsFilledBySameLine(A) + session.gapsFilledBySameLine(B),
            session.gapsFilledByRerequest(A) + session.gapsFilledByRerequest(B), session.requestsSent());
        assertCoveredExactlyOnceInOrder(traffic.lastSequence());
        assertEquals(List.of(), output.gaps(), "every gap was recovered");
        assertEquals(traffic.missingOnBothLines().size(), session.messages(RECOVERY),
            "exactly the sequences no line delivered intact came from re-requests");
        assertTrue(traffic.missingOnBothLines().size() > 0, "the seed must produce losses on both lines");
        assertCountersAddUp(session, traffic);
        assertTrue(session.isEndOfSession());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 42, 2024 })
    void shouldRecoverEverythingThroughAHoldTooSmallForTheGapsByShedding(final long seed)
    {
        final LineTraffic traffic = LineTraffic.generate(seed, PACKETS, FAULTS);
        final FakeRequester requester = new FakeRequester().answerLimit(8).answerLoss(0.1, seed);
        // Answers of 8 messages for most of the session: the request rate, not the hold, must not be what limits.
        final FeedSession session = new FeedSession(context().requester(requester).holdPackets(16)
            .requestsPerSecond(100_000));

        run(session, traffic);

        System.out.printf("seed %d, a 16-packet hold: %d packets shed in %d periods, %d requests%n", seed,
            session.packetsShed(), session.shedPeriods(), session.requestsSent());
        assertTrue(session.isEndOfSession(), () -> "recovery did not finish: " + session.describeGaps());
        assertCoveredExactlyOnceInOrder(traffic.lastSequence());
        assertEquals(List.of(), output.gaps(), () -> "every gap was recovered, none declared to make room; lost " +
            "with retries unanswered " + session.gapsLost(FeedSession.LOST_RETRIES_EXHAUSTED) + ", hold full " +
            session.gapsLost(FeedSession.LOST_HOLD_FULL) + ", over budget " +
            session.gapsLost(FeedSession.LOST_REQUEST_BUDGET));
        assertTrue(session.packetsShed() > 0, "the hold must fill for this test to mean anything");
        assertCountersAddUp(session, traffic);
        assertTrue(session.isEndOfSession());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 5, 8, 13, 21, 34 })
    void shouldDeclareExactlyWhatBothLinesLostWhenThereIsNoRerequestServer(final long seed)
    {
        final LineTraffic traffic = LineTraffic.generate(seed, PACKETS, FAULTS);
        final FeedSession session = new FeedSession(context());

        run(session, traffic);

        assertCoveredExactlyOnceInOrder(traffic.lastSequence());
        final List<Long> declared = new ArrayList<>();
        for (final SessionOutput.Item gap : output.gaps())
        {
            for (long sequence = gap.sequence(); sequence < gap.sequence() + gap.gapCount(); sequence++)
            {
                declared.add(sequence);
            }
        }
        assertEquals(traffic.missingOnBothLines(), declared);
        assertEquals(declared.size(), session.messagesLost());
        assertEquals(output.gaps().size(), session.gapsLost(FeedSession.LOST_NO_RECOVERY));
        assertCountersAddUp(session, traffic);
        assertTrue(session.isEndOfSession());
    }

    private FeedSession.Context context()
    {
        return new FeedSession.Context()
            .messageHandler(output)
            .gapHandler(output)
            .firstSequence(1)
            .staleLineNanos(1_000_000_000L);
    }

    /** Feeds the arrivals in time order, running the duty cycle every step, then lets recovery finish. */
    private static void run(final FeedSession session, final LineTraffic traffic)
    {
        long now = 0;
        session.doWork(now);
        int next = 0;
        final List<LineTraffic.Arrival> arrivals = traffic.arrivals();
        final long limit = traffic.endTime() + 1_000_000_000L;
        while (now < limit && (next < arrivals.size() || !session.isEndOfSession()))
        {
            while (next < arrivals.size() && arrivals.get(next).time() <= now)
            {
                final LineTraffic.Arrival arrival = arrivals.get(next++);
                session.onPacket(arrival.line(), new UnsafeBuffer(arrival.packet()), 0, arrival.packet().length, now);
            }
            now += STEP_NANOS;
            session.doWork(now);
        }
    }

    private void assertCoveredExactlyOnceInOrder(final long lastSequence)
    {
        assertEquals("[session 1 " + SESSION + "@1]", output.sessions().toString(), "one session, from 1");
        final List<SessionOutput.Item> stream = output.items().subList(1, output.items().size());
        long expected = stream.isEmpty() ? 1 : stream.get(0).sequence();
        assertEquals(1, expected, "the stream starts at the session's first sequence");
        for (final SessionOutput.Item item : stream)
        {
            if (item.sequence() != expected)
            {
                fail("expected " + expected + " next but got " + item);
            }
            expected += item.isGap() ? item.gapCount() : 1;
        }
        assertEquals(lastSequence + 1, expected, "the stream covers the whole session");
        assertEquals(output.sequences().stream().map(sequence -> (int)(long)sequence & 0xFFFF).toList(),
            output.tags(), "each message is the one sent with that sequence");
    }

    private static void assertCountersAddUp(final FeedSession session, final LineTraffic traffic)
    {
        for (int line = A; line <= B; line++)
        {
            assertEquals(traffic.packets(line), session.packets(line), "packets on line " + line);
            assertEquals(traffic.damaged(line), session.malformed(line), "malformed on line " + line);
        }
        long opened = 0;
        long closed = 0;
        for (int line = A; line <= RECOVERY; line++)
        {
            opened += session.gapsOpened(line);
            closed += session.gapsFilledByOtherLine(line) + session.gapsFilledBySameLine(line) +
                session.gapsFilledByRerequest(line) + session.gapsDeclaredLost(line);
        }
        assertEquals(0, session.openGaps());
        assertEquals(opened, closed, "every gap opened was closed one way");
        assertEquals(traffic.lastSequence(), session.messagesDelivered() + session.messagesLost());
        assertEquals(0, session.heldPackets());
    }
}
