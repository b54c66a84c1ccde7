package io.mdgate.core.feed;

import io.mdgate.core.capture.RecordedMessages;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.cut;
import static io.mdgate.core.capture.CaptureFixtures.itch;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldHeartbeat;
import static io.mdgate.core.capture.CaptureFixtures.moldPacket;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.LineArbiter.LINE_A;
import static io.mdgate.core.feed.LineArbiter.LINE_B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LineArbiterTest
{
    private final RecordedMessages delivered = new RecordedMessages();

    private static int send(final LineArbiter arbiter, final int line, final byte[] packet)
    {
        return arbiter.onPacket(line, new UnsafeBuffer(packet), 0, packet.length);
    }

    private static List<Long> range(final long from, final long toInclusive)
    {
        return LongStream.rangeClosed(from, toInclusive).boxed().toList();
    }

    @Test
    void shouldDeliverEachSequenceOnceWhenBothLinesCarryTheSamePackets()
    {
        final LineArbiter arbiter = new LineArbiter(8, delivered);
        for (long seq = 1; seq <= 30; seq += 3)
        {
            assertEquals(LineArbiter.IN_SEQUENCE, send(arbiter, LINE_A, moldPacketOfAdds(SESSION, seq, 3)));
            assertEquals(LineArbiter.DUPLICATE, send(arbiter, LINE_B, moldPacketOfAdds(SESSION, seq, 3)));
        }
        arbiter.finish();

        assertEquals(range(1, 30), delivered.sequences());
        assertEquals(30, arbiter.duplicateMessages());
        assertEquals(10, arbiter.duplicatePackets());
        assertEquals(0, arbiter.gaps());
        assertEquals(10, arbiter.packets(LINE_A));
        assertEquals(10, arbiter.packets(LINE_B));
        assertEquals(1, arbiter.firstSequence());
        assertEquals(30, arbiter.lastSequence());
    }

    @Test
    void shouldTakeWhicheverLineIsFirstForEachSequence()
    {
        final LineArbiter arbiter = new LineArbiter(8, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 2));
        send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 3, 2));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 3, 2));
        send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 1, 2));
        send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 5, 2));

        assertEquals(range(1, 6), delivered.sequences());
        assertEquals(List.of(1, 2, 3, 4, 5, 6), delivered.tags());
        assertEquals(4, arbiter.duplicateMessages());
    }

    @Test
    void shouldHoldAPacketAheadOfAHoleUntilTheOtherLineFillsIt()
    {
        final LineArbiter arbiter = new LineArbiter(8, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 2));
        assertEquals(LineArbiter.HELD, send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 5, 2)));
        assertEquals(LineArbiter.HELD, send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 7, 2)));
        assertEquals(range(1, 2), delivered.sequences());

        assertEquals(LineArbiter.IN_SEQUENCE, send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 3, 2)));
        assertEquals(range(1, 8), delivered.sequences());
        assertEquals(0, arbiter.heldNow());
        assertEquals(2, arbiter.heldPackets());

        assertEquals(LineArbiter.DUPLICATE, send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 5, 2)));
        arbiter.finish();
        assertEquals(0, arbiter.gaps());
        assertEquals(0, arbiter.missingMessages());
    }

    @Test
    void shouldDeliverPacketsReorderedWithinTheWindowInSequenceOrder()
    {
        final LineArbiter arbiter = new LineArbiter(4, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 5, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 3, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 4, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 2, 1));

        assertEquals(range(1, 5), delivered.sequences());
        assertEquals(0, arbiter.gaps());
    }

    @Test
    void shouldCountACopyOfAHeldPacketAsADuplicate()
    {
        final LineArbiter arbiter = new LineArbiter(4, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 1));
        assertEquals(LineArbiter.HELD, send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 3, 2)));
        assertEquals(LineArbiter.DUPLICATE, send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 3, 2)));
        send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 2, 1));

        assertEquals(range(1, 4), delivered.sequences());
        assertEquals(2, arbiter.duplicateMessages());
    }

    @Test
    void shouldDeclareAGapWhenTheWindowOverflows()
    {
        final LineArbiter arbiter = new LineArbiter(2, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 4, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 5, 1));
        assertEquals(0, arbiter.gaps());
        assertEquals(range(1, 1), delivered.sequences());

        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 6, 1));
        assertEquals(1, arbiter.gaps());
        assertEquals(2, arbiter.missingMessages());
        assertEquals(2, arbiter.gapFrom(0));
        assertEquals(4, arbiter.gapTo(0));
        assertEquals(List.of(1L, 4L, 5L, 6L), delivered.sequences());

        assertEquals(LineArbiter.DUPLICATE, send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 2, 2)));
        assertEquals(List.of(1L, 4L, 5L, 6L), delivered.sequences());
    }

    @Test
    void shouldDeclareEveryHoleAtOnceWithoutAWindow()
    {
        final LineArbiter arbiter = new LineArbiter(0, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 10, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 12, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 20, 2));

        assertEquals(List.of(10L, 12L, 20L, 21L), delivered.sequences());
        assertEquals(2, arbiter.gaps());
        assertEquals(1 + 7, arbiter.missingMessages());
    }

    @Test
    void shouldDeclareTheHolesStillOpenAtTheEndOfTheFileAsGaps()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 100, 1));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 110, 1));
        send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 105, 2));
        assertEquals(range(100, 100), delivered.sequences());
        assertEquals(0, arbiter.gaps());

        arbiter.finish();
        assertEquals(List.of(100L, 105L, 106L, 110L), delivered.sequences());
        assertEquals(2, arbiter.gaps());
        assertEquals(4 + 3, arbiter.missingMessages());
        assertEquals(101, arbiter.gapFrom(0));
        assertEquals(105, arbiter.gapTo(0));
        assertEquals(107, arbiter.gapFrom(1));
        assertEquals(110, arbiter.gapTo(1));
    }

    @Test
    void shouldFindAHoleBeforeAHeartbeatFromTheSequenceItCarries()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 3));
        assertEquals(LineArbiter.CONTROL, send(arbiter, LINE_A, moldHeartbeat(SESSION, 6)));
        assertEquals(0, arbiter.gaps());

        arbiter.finish();
        assertEquals(1, arbiter.gaps());
        assertEquals(2, arbiter.missingMessages());
        assertEquals(4, arbiter.gapFrom(0));
        assertEquals(6, arbiter.nextSequence());
        assertEquals(1, arbiter.heartbeats());
    }

    @Test
    void shouldLetTheOtherLineFillAHoleAHeartbeatRevealed()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 3));
        send(arbiter, LINE_A, moldHeartbeat(SESSION, 6));
        send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 4, 2));
        send(arbiter, LINE_B, moldHeartbeat(SESSION, 6));
        arbiter.finish();

        assertEquals(range(1, 5), delivered.sequences());
        assertEquals(0, arbiter.gaps());
        assertEquals(2, arbiter.heartbeats());
    }

    @Test
    void shouldRecordTheEndOfSessionAndTheHoleBeforeIt()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 1));
        assertEquals(LineArbiter.CONTROL, send(arbiter, LINE_A, moldEndOfSession(SESSION, 3)));
        arbiter.finish();

        assertTrue(arbiter.endOfSession());
        assertEquals(1, arbiter.gaps());
        assertEquals(1, arbiter.missingMessages());
    }

    @Test
    void shouldDropAMalformedPacketAndTakeTheSequencesFromTheOtherLine()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 1));
        assertEquals(LineArbiter.MALFORMED, send(arbiter, LINE_A, cut(moldPacketOfAdds(SESSION, 2, 2), 4)));
        assertEquals(LineArbiter.MALFORMED, send(arbiter, LINE_A, new byte[7]));
        send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 2, 2));
        arbiter.finish();

        assertEquals(range(1, 3), delivered.sequences());
        assertEquals(1, arbiter.blockOverrunPackets());
        assertEquals(1, arbiter.malformedHeaderPackets());
        assertEquals(2, arbiter.malformedPackets());
        assertEquals(0, arbiter.gaps());
    }

    @Test
    void shouldDeliverOnlyTheNewMessagesOfAPacketThatOverlapsWhatWasDelivered()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 3));
        assertEquals(LineArbiter.IN_SEQUENCE, send(arbiter, LINE_B, moldPacketOfAdds(SESSION, 2, 4)));

        assertEquals(range(1, 5), delivered.sequences());
        assertEquals(2, arbiter.duplicateMessages());
        assertEquals(0, arbiter.duplicatePackets());
    }

    @Test
    void shouldCountAndDropPacketsOfAnotherSession()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 1));
        assertEquals(LineArbiter.OTHER_SESSION, send(arbiter, LINE_B, moldPacketOfAdds("OTHER", 2, 1)));
        assertEquals(LineArbiter.OTHER_SESSION, send(arbiter, LINE_B, moldPacketOfAdds("OTHER", 3, 1)));
        assertEquals(LineArbiter.OTHER_SESSION, send(arbiter, LINE_A, moldPacketOfAdds("THIRD", 1, 1)));
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 2, 1));

        assertEquals(range(1, 2), delivered.sequences());
        assertEquals(SESSION, arbiter.session());
        assertEquals(2, arbiter.otherSessions());
        assertEquals("OTHER", arbiter.otherSession(0));
        assertEquals(2, arbiter.otherSessionPackets(0));
        assertEquals(1, arbiter.otherSessionPackets(1));
        assertEquals(3, arbiter.otherSessionPacketsTotal());
    }

    @Test
    void shouldDeliverPacketsWithSequenceZeroAsTheyComeWithoutArbitration()
    {
        final LineArbiter arbiter = new LineArbiter(16, delivered);
        assertEquals(LineArbiter.UNSEQUENCED, send(arbiter, LINE_A, moldPacket("", 0, itch('A', 1))));
        assertEquals(LineArbiter.UNSEQUENCED, send(arbiter, LINE_A, moldPacket("", 0, itch('A', 2))));

        assertEquals(List.of(1, 2), delivered.tags());
        assertEquals(2, arbiter.unsequencedPackets());
        assertEquals(0, arbiter.duplicateMessages());
        assertFalse(arbiter.endOfSession());
    }

    @Test
    void shouldKeepCountingGapsBeyondTheRangesItKeeps()
    {
        final LineArbiter arbiter = new LineArbiter(0, delivered);
        for (int i = 0; i <= LineArbiter.MAX_GAP_RANGES + 4; i++)
        {
            send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1 + 2L * i, 1));
        }
        assertEquals(LineArbiter.MAX_GAP_RANGES + 4, arbiter.gaps());
        assertEquals(LineArbiter.MAX_GAP_RANGES, arbiter.gapRanges());
        assertEquals(LineArbiter.MAX_GAP_RANGES + 4, arbiter.missingMessages());
    }

    @Test
    void shouldForceTheGapForAPacketTooLargeToHold()
    {
        final LineArbiter arbiter = new LineArbiter(4, 64, delivered);
        send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 1, 1));
        assertEquals(LineArbiter.IN_SEQUENCE, send(arbiter, LINE_A, moldPacketOfAdds(SESSION, 3, 3)));

        assertEquals(List.of(1L, 3L, 4L, 5L), delivered.sequences());
        assertEquals(1, arbiter.gaps());
    }
}
