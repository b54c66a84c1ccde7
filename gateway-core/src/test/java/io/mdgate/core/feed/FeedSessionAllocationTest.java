package io.mdgate.core.feed;

import io.mdgate.core.capture.CaptureFixtures;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldHeartbeat;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The feed session's steady state allocates nothing: both lines with B one packet behind, every eighth packet lost
 * on A (filled by B from the hold), one packet in 64 lost on both (held, requested after the wait, answered and
 * released), heartbeats, a stray packet of another session (held as a candidate, never accepted) and a packet far
 * ahead (implausible) each round, and the duty cycle every packet; and jumps far ahead corroborated by the same
 * packet on both lines or by consecutive packets of one, among far strays.
 */
@Timeout(value = 120)
class FeedSessionAllocationTest
{
    private static final int PACKETS = 64;
    private static final int MESSAGES_PER_PACKET = 3;
    private static final int ADD_LENGTH = 36;
    private static final long STEP_NANOS = 10_000;

    /** Answers re-requests from a buffer of every message, without allocating. */
    private static final class PreparedRequester implements RetransmitRequester
    {
        private final UnsafeBuffer messages;
        private final UnsafeBuffer answer = new UnsafeBuffer(new byte[1_500]);
        private final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        private boolean pending;
        private long requests;

        PreparedRequester(final UnsafeBuffer messages)
        {
            this.messages = messages;
            encoder.wrap(answer, 0, answer.capacity()).session(MoldUdp64Session.of(SESSION));
        }

        @Override
        public boolean request(final byte[] session, final long firstSequence, final int count)
        {
            requests++;
            encoder.reset(firstSequence);
            for (int i = 0; i < count; i++)
            {
                encoder.tryAppend(messages, (int)(firstSequence - 1 + i) * ADD_LENGTH, ADD_LENGTH);
            }
            pending = true;
            return true;
        }

        @Override
        public int poll(final PacketHandler handler)
        {
            if (!pending)
            {
                return 0;
            }
            pending = false;
            handler.onPacket(FeedLines.RECOVERY, answer, 0, encoder.length(), 0);
            return 1;
        }
    }

    private long now;

    private static final UnsafeBuffer STRAY = new UnsafeBuffer(moldPacketOfAdds("STRAY00001", 7, 1));
    private static final UnsafeBuffer FAR_AHEAD = new UnsafeBuffer(moldPacketOfAdds(SESSION, 1L << 40, 1));

    private void round(final FeedSession session, final UnsafeBuffer[] packets, final UnsafeBuffer heartbeat)
    {
        for (int i = 0; i < PACKETS; i++)
        {
            if (i == 20)
            {
                session.onPacket(FeedLines.A, STRAY, 0, STRAY.capacity(), now);
                session.onPacket(FeedLines.B, FAR_AHEAD, 0, FAR_AHEAD.capacity(), now);
            }
            if (i % 8 != 3 && i != 40)
            {
                session.onPacket(FeedLines.A, packets[i], 0, packets[i].capacity(), now);
            }
            if (i > 0 && i != 41)
            {
                session.onPacket(FeedLines.B, packets[i - 1], 0, packets[i - 1].capacity(), now);
            }
            now += STEP_NANOS;
            session.doWork(now);
        }
        session.onPacket(FeedLines.B, packets[PACKETS - 1], 0, packets[PACKETS - 1].capacity(), now);
        session.onPacket(FeedLines.A, heartbeat, 0, heartbeat.capacity(), now);
        for (int i = 0; i < 30; i++)
        {
            now += STEP_NANOS;
            session.doWork(now);
        }
    }

    @Test
    void shouldNotAllocateWhileArbitratingHoldingRequestingAndReleasing()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter unavailable");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;

        final int rounds = 1_000;
        final int messages = rounds * PACKETS * MESSAGES_PER_PACKET;
        final UnsafeBuffer all = new UnsafeBuffer(new byte[messages * ADD_LENGTH]);
        for (int s = 1; s <= messages; s++)
        {
            all.putBytes((s - 1) * ADD_LENGTH, CaptureFixtures.itch('A', s));
        }
        final UnsafeBuffer[][] packets = new UnsafeBuffer[rounds][PACKETS];
        final UnsafeBuffer[] heartbeats = new UnsafeBuffer[rounds];
        long sequence = 1;
        for (int r = 0; r < rounds; r++)
        {
            for (int i = 0; i < PACKETS; i++)
            {
                packets[r][i] = new UnsafeBuffer(moldPacketOfAdds(SESSION, sequence, MESSAGES_PER_PACKET));
                sequence += MESSAGES_PER_PACKET;
            }
            heartbeats[r] = new UnsafeBuffer(moldHeartbeat(SESSION, sequence));
        }
        final long[] checksum = new long[2];
        final PreparedRequester requester = new PreparedRequester(all);
        final FeedSession session = new FeedSession(new FeedSession.Context()
            .messageHandler((buffer, offset, length, seq) ->
            {
                checksum[0] += seq;
                checksum[1]++;
            })
            .gapHandler((first, count) -> checksum[1] = -1_000_000)
            .requester(requester));
        session.doWork(now);

        for (int r = 0; r < rounds / 2; r++)
        {
            round(session, packets[r], heartbeats[r]);
        }
        final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int r = rounds / 2; r < rounds; r++)
        {
            round(session, packets[r], heartbeats[r]);
        }
        final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;

        assertEquals(0, allocated, "bytes allocated in steady state");
        assertEquals(messages, checksum[1]);
        assertEquals((long)messages * (messages + 1) / 2, checksum[0]);
        assertEquals(rounds, requester.requests);
        assertEquals(rounds, session.gapsFilledByRerequest(FeedLines.A));
        assertEquals(rounds * 8L, session.gapsFilledByOtherLine(FeedLines.A));
        assertEquals(rounds, session.implausible(FeedLines.B));
        assertEquals(rounds + 3, session.candidateSessionPackets(), "the strays, and A's first two and B's first");
        assertEquals(1, session.sessionNumber());
    }

    @Test
    void shouldNotAllocateWhileCorroboratingJumpsByBothLinesAndByConsecutivePackets()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter unavailable");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;

        final int rounds = 2_000;
        final int packetsPerRound = 8;
        final long jump = 1_000;
        final UnsafeBuffer[][] packets = new UnsafeBuffer[rounds][packetsPerRound];
        final UnsafeBuffer[] strays = new UnsafeBuffer[rounds];
        long sequence = 1;
        for (int r = 0; r < rounds; r++)
        {
            sequence += r == 0 ? 0 : jump;
            for (int i = 0; i < packetsPerRound; i++)
            {
                packets[r][i] = new UnsafeBuffer(moldPacketOfAdds(SESSION, sequence, MESSAGES_PER_PACKET));
                sequence += MESSAGES_PER_PACKET;
            }
            strays[r] = new UnsafeBuffer(moldPacketOfAdds(SESSION, sequence + 3 * jump, 1));
        }
        final long[] counted = new long[2];
        final FeedSession session = new FeedSession(new FeedSession.Context()
            .session(SESSION)
            .plausibleSequenceWindow(jump / 2)
            .confirmPackets(3)
            .messageHandler((buffer, offset, length, seq) -> counted[0]++)
            .gapHandler((first, count) -> counted[1] += count));
        session.doWork(now);

        long before = 0;
        for (int r = 0; r < rounds; r++)
        {
            if (r == rounds / 2)
            {
                before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            }
            final boolean byBothLines = r % 2 == 0;
            for (int i = 0; i < packetsPerRound; i++)
            {
                if (i == 1)
                {
                    session.onPacket(FeedLines.B, strays[r], 0, strays[r].capacity(), now);
                }
                session.onPacket(FeedLines.A, packets[r][i], 0, packets[r][i].capacity(), now);
                if (byBothLines || i >= 3)
                {
                    session.onPacket(FeedLines.B, packets[r][i], 0, packets[r][i].capacity(), now);
                }
                now += STEP_NANOS;
                session.doWork(now);
            }
            for (int i = 0; i < 30; i++)
            {
                now += STEP_NANOS;
                session.doWork(now);
            }
        }
        final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;

        assertEquals(0, allocated, "bytes allocated while jumps were corroborated and taken");
        assertEquals(rounds - 1, session.sequenceJumps(), "each round after the first, by both lines or by A alone");
        final long droppedByRuns = rounds / 2 * 2L * MESSAGES_PER_PACKET;
        assertEquals((long)rounds * packetsPerRound * MESSAGES_PER_PACKET - droppedByRuns, counted[0],
            "all but the two packets of A's run before it corroborated the jump, in the odd rounds");
        assertEquals((rounds - 1) * jump + droppedByRuns, counted[1], "each jump and what A's runs dropped, declared");
        assertEquals(rounds - 1 + rounds / 2, session.implausible(FeedLines.A));
        assertEquals(rounds, session.implausible(FeedLines.B), "B's far stray each round");
    }

    @Test
    void shouldNotAllocateWhileHoldingCandidatesAndChangingSessions()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "per-thread allocation counter unavailable");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;

        final int sessions = 2_000;
        final int packetsPerSession = 8;
        final UnsafeBuffer[][] packets = new UnsafeBuffer[sessions][packetsPerSession + 1];
        for (int n = 0; n < sessions; n++)
        {
            final String name = String.format("S%09d", n);
            for (int i = 0; i < packetsPerSession; i++)
            {
                packets[n][i] = new UnsafeBuffer(moldPacketOfAdds(name, 1 + i * MESSAGES_PER_PACKET,
                    MESSAGES_PER_PACKET));
            }
            packets[n][packetsPerSession] =
                new UnsafeBuffer(moldEndOfSession(name, 1 + packetsPerSession * MESSAGES_PER_PACKET));
        }
        final long[] delivered = new long[2];
        final FeedSession session = new FeedSession(new FeedSession.Context()
            .messageHandler((buffer, offset, length, seq) -> delivered[0]++)
            .gapHandler(new GapHandler()
            {
                @Override
                public void onGapDeclared(final long firstSequence, final long count)
                {
                    delivered[0] = -1_000_000;
                }

                @Override
                public void onSessionStarted(final int sessionNumber, final org.agrona.DirectBuffer sessionId,
                    final int offset, final long firstSequence)
                {
                    delivered[1]++;
                }
            }));
        session.doWork(now);

        long before = 0;
        for (int n = 0; n < sessions; n++)
        {
            if (n == sessions / 2)
            {
                before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            }
            for (int i = 0; i <= packetsPerSession; i++)
            {
                session.onPacket(FeedLines.A, packets[n][i], 0, packets[n][i].capacity(), now);
                if (i > 0)
                {
                    session.onPacket(FeedLines.B, packets[n][i - 1], 0, packets[n][i - 1].capacity(), now);
                }
                now += STEP_NANOS;
                session.doWork(now);
            }
            session.onPacket(FeedLines.B, packets[n][packetsPerSession], 0, packets[n][packetsPerSession].capacity(),
                now);
        }
        final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;

        assertEquals(0, allocated, "bytes allocated while sessions were held, accepted and changed");
        assertEquals((long)sessions * packetsPerSession * MESSAGES_PER_PACKET, delivered[0]);
        assertEquals(sessions, delivered[1]);
        assertEquals(sessions, session.sessionNumber());
        assertEquals(sessions - 1, session.sessionChanges());
    }
}
