package io.mdgate.core.feed;

import io.mdgate.core.counters.CounterType;
import io.mdgate.core.counters.PrivateCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The session's counters live in the allocator its context names, under their {@code feed.*} labels, and move as
 * the events happen: no copy step, no duty cycle needed between a packet and its count.
 */
@Timeout(30)
class FeedSessionCountersTest extends FeedSessionFixture
{
    private final PrivateCounters counters = new PrivateCounters(FeedCounterDescriptor.COUNTERS_PER_SESSION);

    @Test
    void shouldCountEachEventUnderItsLabelInTheAllocatorTheMomentItHappens()
    {
        start(context(10_000 * MILLIS).session(SESSION).counters(counters));

        send(A, moldPacketOfAdds(SESSION, 1, 2));
        assertEquals(1, counters.value("feed.A.packets"));
        assertEquals(2, counters.value("feed.A.messages"));
        assertEquals(2, counters.value("feed.messages.delivered"));
        assertEquals(3, counters.value("feed.next_sequence"));
        assertEquals(1, counters.value("feed.session_number"));

        send(A, moldPacketOfAdds(SESSION, 5, 1));
        assertEquals(1, counters.value("feed.A.gaps_opened"));
        assertEquals(1, counters.value("feed.gaps.opened"));
        assertEquals(1, counters.value("feed.gaps.open"));
        assertEquals(2, counters.value("feed.messages.missing"));
        assertEquals(1, counters.value("feed.held_packets"));

        send(B, moldPacketOfAdds(SESSION, 3, 2));
        assertEquals(2, counters.value("feed.B.messages"), "B's copy filled the gap");
        assertEquals(3, counters.value("feed.A.messages"), "and released A's held packet");
        assertEquals(1, counters.value("feed.A.gaps_filled_by_other_line"), "credited to the line that opened it");
        assertEquals(1, counters.value("feed.gaps.filled_by_other_line"));
        assertEquals(0, counters.value("feed.gaps.open"));
        assertEquals(0, counters.value("feed.messages.missing"));
        assertEquals(0, counters.value("feed.held_packets"));
        assertEquals(6, counters.value("feed.next_sequence"));

        send(B, moldPacketOfAdds(SESSION, 1, 2));
        assertEquals(2, counters.value("feed.B.duplicates"));
        assertEquals(session.duplicates(B), counters.value("feed.B.duplicates"), "the accessor reads the counter");
        assertEquals(session.messagesDelivered(), counters.value("feed.messages.delivered"));
        assertEquals(5, session.messagesDelivered());
    }

    @Test
    void shouldAllocateEveryDescribedCounterLineByLineThenTheSessionsWithItsType()
    {
        start(context(10_000 * MILLIS).counters(counters));

        final List<String> labels = new ArrayList<>();
        final List<Integer> types = new ArrayList<>();
        counters.reader().forEach((id, label) ->
        {
            labels.add(label);
            types.add(counters.reader().getCounterTypeId(id));
        });
        assertEquals(FeedCounterDescriptor.COUNTERS_PER_SESSION, labels.size());
        assertEquals("feed.A.packets", labels.get(0));
        assertEquals("feed.B.packets", labels.get(12));
        assertEquals("feed.recovery.implausible", labels.get(35));
        assertEquals("feed.gaps.opened", labels.get(36));
        assertEquals(CounterType.LEVEL, types.get(labels.indexOf("feed.gaps.open")));
        assertEquals(CounterType.POSITION, types.get(labels.indexOf("feed.next_sequence")));
        assertEquals(CounterType.STATE, types.get(labels.indexOf("feed.session_number")));
    }

    @Test
    void shouldRefuseASecondSessionOnTheSameCountersForItsLabelsAreTaken()
    {
        start(context(10_000 * MILLIS).counters(counters));

        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new FeedSession(context(10_000 * MILLIS).counters(counters)));
        assertEquals("counter label already allocated: feed.A.packets", refused.getMessage());
    }
}
