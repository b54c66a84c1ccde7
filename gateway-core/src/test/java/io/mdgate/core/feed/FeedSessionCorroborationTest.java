package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.LongStream;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.itch;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldPacket;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What corroborates a session name or a jump far ahead: both lines carrying the same packet (sequence, count and
 * messages) within the corroboration window of each other, or consecutive packets of one line, each starting where
 * the one before ended and following it within the stale-line time. Strays spread over a run (bit-flipped copies of
 * different real packets, far-ahead copies of different packets) match neither, however many lines they come on.
 */
@Timeout(60)
class FeedSessionCorroborationTest extends FeedSessionFixture
{
    private static final long MICROS = 1_000L;
    private static final long SECONDS = 1_000_000_000L;
    private static final long FAR = 1L << 40;
    private static final String NEXT = "NEXTSESS01";

    {
        requester.answerLimit(128);
    }

    private FeedSession.Context context()
    {
        return context(10 * SECONDS);
    }


    private void advance(final long nanos)
    {
        now += nanos;
        session.doWork(now);
    }

    /** @return the packet with bit {@code bit} of session name character {@code character} flipped. */
    private static byte[] flipped(final byte[] packet, final int character, final int bit)
    {
        final byte[] copy = packet.clone();
        copy[character] ^= (byte)(1 << bit);
        return copy;
    }

    /** @return the packet with its sequence number replaced. */
    private static byte[] resequenced(final byte[] packet, final long sequence)
    {
        final byte[] copy = packet.clone();
        ByteBuffer.wrap(copy).putLong(10, sequence);
        return copy;
    }

    private static List<Long> range(final long from, final long toInclusive)
    {
        return LongStream.rangeClosed(from, toInclusive).boxed().toList();
    }

    @Test
    void shouldNotSwitchToAStrayNameThatEachLineShowedOnceInADifferentPacketWhenTheRealSessionEnds()
    {
        start(context());
        final long last = 40_000;
        for (long sequence = 1; sequence < last; sequence += 2)
        {
            final byte[] packet = moldPacketOfAdds(SESSION, sequence, 2);
            send(A, packet);
            send(B, packet);
            if (sequence == 19_047)
            {
                send(B, flipped(packet, 9, 0));
            }
            if (sequence == 32_381)
            {
                send(A, flipped(packet, 9, 0));
            }
            advance(20 * MICROS);
        }
        send(A, moldEndOfSession(SESSION, last + 1));
        send(B, moldEndOfSession(SESSION, last + 1));
        advance(MILLIS);
        advance(20 * SECONDS);

        assertEquals(1, session.sessionNumber(), "the stray name was never corroborated, so nothing replaces the " +
            "session that ended");
        assertTrue(session.isEndOfSession());
        assertEquals(0, session.sessionChanges());
        assertEquals(List.of(), events.events("changed"));
        assertEquals(range(1, last), output.sequences());
        assertEquals(List.of(), output.gaps());
        assertEquals(4, session.candidateSessionPackets(), "the first session's first packet on each line, then " +
            "the two strays");
    }

    @Test
    void shouldNotTakeDifferentFarAheadPacketsOnTheTwoLinesForAJumpNorDropTheMessagesAfterThem()
    {
        start(context());
        final long last = 20_000;
        for (long sequence = 1; sequence < last; sequence += 2)
        {
            final byte[] packet = moldPacketOfAdds(SESSION, sequence, 2);
            send(A, packet);
            send(B, packet);
            if (sequence == 6_667)
            {
                send(A, resequenced(packet, FAR + 6_666));
            }
            if (sequence == 13_333)
            {
                send(B, resequenced(packet, FAR + 13_332));
            }
            advance(20 * MICROS);
        }
        send(A, moldEndOfSession(SESSION, last + 1));
        send(B, moldEndOfSession(SESSION, last + 1));
        advance(10 * MILLIS);

        assertEquals(0, session.sequenceJumps(), "two different far packets are no jump");
        assertEquals(1, session.implausible(A));
        assertEquals(1, session.implausible(B));
        assertEquals(range(1, last), output.sequences());
        assertEquals(List.of(), output.gaps());
        assertEquals(last + 1, session.knownSequence());
        assertEquals("[]", requester.requested());
        assertTrue(session.isEndOfSession());
    }

    @Test
    void shouldTakeAJumpAtOnceWhenTheOtherLineBringsTheSameFarPacketAfterStraysOfItsOwn()
    {
        start(context().session(SESSION).plausibleSequenceWindow(1_000));
        send(A, moldPacketOfAdds(SESSION, 1, 2));
        send(B, moldPacketOfAdds(SESSION, 1, 2));
        send(A, moldPacketOfAdds(SESSION, 5_000, 2));
        send(B, moldPacketOfAdds(SESSION, FAR, 1));
        send(B, moldPacketOfAdds(SESSION, 3 * FAR, 1));
        assertEquals(0, session.sequenceJumps());

        advance(3 * MILLIS);
        send(B, moldPacketOfAdds(SESSION, 5_000, 2));
        for (int i = 0; i < 100; i++)
        {
            advance(100 * MICROS);
        }

        assertEquals(1, session.sequenceJumps(), "B brought the packet A showed 3 ms before");
        assertEquals(range(1, 5_001), output.sequences(), "the jump's gap was recovered");
        assertEquals(List.of(), output.gaps());
        assertEquals(3, session.implausible(A) + session.implausible(B));
    }

    @Test
    void shouldNotTakeTheSameFarPacketOnTheTwoLinesForAJumpWhenTheCopiesAreFurtherApartThanTheWindow()
    {
        start(context().session(SESSION).corroborationWindowNanos(500 * MILLIS));
        send(A, moldPacketOfAdds(SESSION, 1, 2));
        send(B, moldPacketOfAdds(SESSION, 1, 2));
        send(A, moldPacketOfAdds(SESSION, FAR, 1));
        advance(600 * MILLIS);
        send(B, moldPacketOfAdds(SESSION, FAR, 1));
        send(A, moldPacketOfAdds(SESSION, 3, 1));

        assertEquals(0, session.sequenceJumps());
        assertEquals(range(1, 3), output.sequences());
        assertEquals(0, session.openGaps());
    }

    @Test
    void shouldNotTakeTheSameSequenceAndCountWithOtherMessagesOnTheOtherLineForTheSamePacket()
    {
        start(context());
        send(A, moldPacket(SESSION, 1, itch('A', 1), itch('A', 2)));
        send(B, moldPacket(SESSION, 1, itch('A', 1), itch('A', 3)));

        assertEquals(0, session.sessionNumber(), "the lines disagree on the packet, so neither corroborates it");

        send(B, moldPacket(SESSION, 1, itch('A', 1), itch('A', 2)));

        assertEquals(1, session.sessionNumber(), "B's copy of A's packet corroborates it");
        assertEquals(range(1, 2), output.sequences());
    }

    @Test
    void shouldNotAcceptTheSamePacketOnTheTwoLinesWhenTheCopiesAreFurtherApartThanTheWindow()
    {
        start(context().corroborationWindowNanos(200 * MILLIS));
        send(A, moldPacketOfAdds(NEXT, 1, 2));
        advance(300 * MILLIS);
        send(B, moldPacketOfAdds(NEXT, 1, 2));

        assertEquals(0, session.sessionNumber());

        advance(100 * MILLIS);
        send(A, moldPacketOfAdds(NEXT, 1, 2));

        assertEquals(1, session.sessionNumber(), "A's copy came 100 ms after B's");
        assertEquals("[session 1 " + NEXT + "@1, 1, 2]", output.stream());
    }

    @Test
    void shouldNotLetContinuingPacketsOfOneLineThatArriveFurtherApartThanTheStaleLineTimeAddUpToARun()
    {
        start(context().staleLineNanos(SECONDS).confirmPackets(3));
        for (long sequence = 1; sequence <= 3; sequence++)
        {
            send(A, moldPacketOfAdds(NEXT, sequence, 1));
            advance(1_500 * MILLIS);
        }
        assertEquals(0, session.sessionNumber(), "three packets that follow on, but 1.5 s apart");

        send(A, moldPacketOfAdds(NEXT, 4, 1));
        advance(200 * MILLIS);
        send(A, moldPacketOfAdds(NEXT, 5, 1));
        advance(200 * MILLIS);
        assertEquals(0, session.sessionNumber());
        send(A, moldPacketOfAdds(NEXT, 6, 1));

        assertEquals(1, session.sessionNumber(), "4, 5 and 6 came within the stale-line time of each other");
        assertEquals(range(1, 6), output.sequences(), "from the lowest sequence the session showed, as always");
    }
}
