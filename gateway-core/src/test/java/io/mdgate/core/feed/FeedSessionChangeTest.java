package io.mdgate.core.feed;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldEndOfSession;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session change while line B lags line A by 10 ms (100 packets) and A lost the old session's tail: the old
 * session must finish (from B or the re-request server) before the new one takes over, and the new session's packets
 * that came meanwhile must not be lost.
 */
@Timeout(30)
class FeedSessionChangeTest
{
    private static final long MICROS = 1_000L;
    private static final long MILLIS = 1_000_000L;
    private static final long SPACING = 100 * MICROS;
    private static final long B_LAG = 10 * MILLIS;
    private static final String NEXT = "NEXTSESS01";
    private static final int OLD_MESSAGES = 100;
    private static final int NEW_MESSAGES = 200;
    /** A loses the old session's messages from here to its end (its end-of-session marker still arrives). */
    private static final int A_LOSES_FROM = 91;

    private record Arrival(long time, int line, byte[] packet)
    {
    }

    private final SessionOutput output = new SessionOutput();
    private final RecordingSessionListener events = new RecordingSessionListener();

    /** One message per packet, one packet every 100 us; the old session's end, then the new session at once. */
    private static List<Arrival> traffic()
    {
        final List<Arrival> arrivals = new ArrayList<>();
        long sent = SPACING;
        for (int sequence = 1; sequence <= OLD_MESSAGES; sequence++, sent += SPACING)
        {
            if (sequence < A_LOSES_FROM)
            {
                arrivals.add(new Arrival(sent, A, moldPacketOfAdds(SESSION, sequence, 1)));
            }
            arrivals.add(new Arrival(sent + B_LAG, B, moldPacketOfAdds(SESSION, sequence, 1)));
        }
        arrivals.add(new Arrival(sent, A, moldEndOfSession(SESSION, OLD_MESSAGES + 1)));
        arrivals.add(new Arrival(sent + B_LAG, B, moldEndOfSession(SESSION, OLD_MESSAGES + 1)));
        sent += SPACING;
        for (int sequence = 1; sequence <= NEW_MESSAGES; sequence++, sent += SPACING)
        {
            arrivals.add(new Arrival(sent, A, moldPacketOfAdds(NEXT, sequence, 1)));
            arrivals.add(new Arrival(sent + B_LAG, B, moldPacketOfAdds(NEXT, sequence, 1)));
        }
        arrivals.sort(Comparator.comparingLong(Arrival::time));
        return arrivals;
    }

    private FeedSession run(final FeedSession.Context context)
    {
        final FeedSession session = new FeedSession(context
            .messageHandler(output)
            .gapHandler(output)
            .listener(events)
            .staleLineNanos(10_000 * MILLIS));
        final List<Arrival> arrivals = traffic();
        long now = 0;
        session.doWork(now);
        int next = 0;
        final long end = arrivals.get(arrivals.size() - 1).time() + 100 * MILLIS;
        while (now < end)
        {
            while (next < arrivals.size() && arrivals.get(next).time() <= now)
            {
                final Arrival arrival = arrivals.get(next++);
                session.onPacket(arrival.line(), new UnsafeBuffer(arrival.packet()), 0, arrival.packet().length, now);
            }
            now += 50 * MICROS;
            session.doWork(now);
        }
        return session;
    }

    private static String expectedStream()
    {
        final List<String> items = new ArrayList<>();
        items.add("session 1 " + SESSION + "@1");
        for (int sequence = 1; sequence <= OLD_MESSAGES; sequence++)
        {
            items.add(Integer.toString(sequence));
        }
        items.add("session 2 " + NEXT + "@1");
        for (int sequence = 1; sequence <= NEW_MESSAGES; sequence++)
        {
            items.add(Integer.toString(sequence));
        }
        return items.toString();
    }

    @Test
    void shouldDeliverBothSessionsExactlyOnceWhenTheOldTailLostOnARecoversFromTheServerWhileBLags()
    {
        final FakeRequester requester = new FakeRequester().answerLimit(100).answerSession(null);
        final FeedSession session = run(new FeedSession.Context().requester(requester));

        assertEquals(expectedStream(), output.stream());
        assertEquals(List.of(), output.gaps());
        assertEquals(List.of("changed 2 " + SESSION + " to " + NEXT + " next 1"), events.events("changed"));
        assertEquals(SESSION, requester.requests().get(0).session(), "the old session's tail was asked for");
        assertEquals(0, session.messagesLost());
        assertEquals(OLD_MESSAGES + NEW_MESSAGES, session.messagesDelivered());
        assertTrue(session.otherSessionPackets() > 0, "B's copies of the old session after the change are dropped");
    }

    @Test
    void shouldHoldTheNewSessionWhileTheLaggingLineCompletesTheOldOneWithoutARerequestServer()
    {
        final FeedSession session = run(new FeedSession.Context().gapWaitNanos(20 * MILLIS));

        assertEquals(expectedStream(), output.stream());
        assertEquals(List.of(), output.gaps());
        assertEquals(OLD_MESSAGES - A_LOSES_FROM + 1, session.messages(B), "B filled the old session's tail");
        assertEquals(1, session.sessionChanges());
        assertEquals(0, session.gapsLost(FeedSession.LOST_SESSION_CHANGED));
    }
}
