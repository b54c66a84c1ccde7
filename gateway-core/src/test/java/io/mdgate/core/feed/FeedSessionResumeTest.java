package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.stream.LongStream;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gateway restarted from its journal resumes the session it was in: nothing before the resume point is delivered
 * again or asked for, no session start is reported, and a stray cannot take the resumed session's place.
 */
@Timeout(30)
class FeedSessionResumeTest
{
    private static final long MICROS = 1_000L;
    private static final long MILLIS = 1_000_000L;
    private static final String NEXT = "NEXTSESS01";

    private final SessionOutput output = new SessionOutput();
    private final RecordingSessionListener events = new RecordingSessionListener();
    private final FakeRequester requester = new FakeRequester().answerLimit(100);
    private long now = 1_000 * MILLIS;
    private FeedSession session;

    private void start(final FeedSession.Context context)
    {
        session = new FeedSession(context
            .messageHandler(output)
            .gapHandler(output)
            .listener(events)
            .requester(requester)
            .staleLineNanos(10_000 * MILLIS));
        session.doWork(now);
    }

    private void data(final int line, final String name, final long sequence, final int count)
    {
        final byte[] packet = moldPacketOfAdds(name, sequence, count);
        session.onPacket(line, new UnsafeBuffer(packet), 0, packet.length, now);
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
    void shouldResumeTheJournaledSessionWithoutRedeliveringOrReportingItsStart()
    {
        start(new FeedSession.Context().firstSequence(1).resume(MoldUdp64Session.of(SESSION), 3, 101));
        assertEquals(3, session.sessionNumber());
        assertEquals(101, session.nextSequence());

        data(A, SESSION, 95, 8);
        data(B, SESSION, 95, 8);
        data(A, SESSION, 103, 2);
        advance(10 * MILLIS);

        assertEquals("[101, 102, 103, 104]", output.stream(), "no session start, nothing below 101");
        assertEquals(List.of(), events.events("started"));
        assertEquals("[]", requester.requested());
        assertEquals(0, session.candidateSessionPackets());
    }

    @Test
    void shouldRecoverWhatWasMissedAfterTheResumePointFromTheServer()
    {
        start(new FeedSession.Context().resume(MoldUdp64Session.of(SESSION), 1, 50));
        data(A, SESSION, 60, 2);
        advance(200 * MICROS);
        advance(MICROS);

        assertEquals("[50+10]", requester.requested());
        assertEquals(range(50, 61), output.sequences());
    }

    @Test
    void shouldNotLetAStrayAfterResumeTakeOver()
    {
        start(new FeedSession.Context().resume(MoldUdp64Session.of(SESSION), 3, 101));
        data(A, "000010059C", 101, 1);
        data(A, SESSION, 101, 1);
        data(B, SESSION, 102, 1);
        advance(10 * MILLIS);

        assertEquals("[101, 102]", output.stream());
        assertEquals(3, session.sessionNumber());
        assertEquals(1, session.candidateSessionPackets());
        assertEquals(0, session.sessionChanges());
    }

    @Test
    void shouldChangeFromTheResumedSessionToTheNextOneWithTheNextNumber()
    {
        start(new FeedSession.Context().resume(MoldUdp64Session.of(SESSION), 3, 101));
        data(A, NEXT, 1, 2);
        data(B, NEXT, 1, 2);

        assertEquals("[session 4 " + NEXT + "@1, 1, 2]", output.stream());
        assertEquals(List.of("changed 4 " + SESSION + " to " + NEXT + " next 1"), events.events("changed"));
    }
}
