package io.mdgate.core.feed;

import io.mdgate.core.counters.PrivateCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.mdgate.core.feed.FeedLines.A;
import static io.mdgate.core.feed.FeedLines.B;
import static io.mdgate.core.feed.FeedLines.RECOVERY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class GapTableTest
{
    private final FeedCounters counters =
        new FeedCounters(new PrivateCounters(FeedCounterDescriptor.COUNTERS_PER_SESSION));

    private static String ranges(final GapTable gaps)
    {
        final List<String> out = new ArrayList<>();
        for (int i = gaps.first(); i < gaps.limit(); i++)
        {
            out.add("[" + gaps.from(i) + "," + gaps.to(i) + ")");
        }
        return String.join(" ", out);
    }

    @Test
    void shouldShrinkSplitAndCloseGapsAsPacketsFillThem()
    {
        final GapTable gaps = new GapTable(8, counters);
        gaps.open(10, 20, A, 0);
        gaps.open(30, 40, A, 0);

        assertTrue(gaps.fill(10, 12, B, 10));
        assertEquals("[12,20) [30,40)", ranges(gaps));
        assertTrue(gaps.fill(18, 25, B, 10));
        assertEquals("[12,18) [30,40)", ranges(gaps));
        assertTrue(gaps.fill(14, 15, B, 10));
        assertEquals("[12,14) [15,18) [30,40)", ranges(gaps));
        assertFalse(gaps.fill(20, 30, B, 10), "nothing missing there");
        assertTrue(gaps.fill(11, 35, RECOVERY, 10));
        assertEquals("[35,40)", ranges(gaps));

        assertEquals(3, counters.gapsOpened[A].get(), "two opened, one split");
        assertEquals(2, counters.gapsFilledByRerequest[A].get());
        assertEquals(0, counters.gapsFilledByOtherLine[A].get());
    }

    @Test
    void shouldExtendTheLastGapWhileItIsStillWaitingAndOpenANewOneOtherwise()
    {
        final GapTable gaps = new GapTable(8, counters);
        assertTrue(gaps.open(1, 3, A, 0));
        assertFalse(gaps.open(3, 5, B, 0));
        assertEquals("[1,5)", ranges(gaps));
        gaps.startRound(gaps.first(), 1);
        assertTrue(gaps.open(5, 6, B, 0));
        assertEquals("[1,5) [5,6)", ranges(gaps));
        assertEquals(1, counters.gapsOpened[A].get());
        assertEquals(1, counters.gapsOpened[B].get());
    }

    @Test
    void shouldReuseTheArraysWhenGapsComeAndGoForever()
    {
        final GapTable gaps = new GapTable(3, counters);
        for (long from = 1; from < 10_000; from += 10)
        {
            gaps.open(from, from + 5, A, 0);
            gaps.fill(from + 2, from + 3, B, 10);
            assertEquals(2, gaps.size());
            gaps.removeFirst();
            gaps.removeFirst();
        }
        assertTrue(gaps.isEmpty());
        assertEquals(2 * 1_000, counters.gapsOpened[A].get());
    }

    @Test
    void shouldFollowUpARequestAnsweredShortButNotOneAnsweredInFull()
    {
        final GapTable gaps = new GapTable(8, counters);
        gaps.open(100, 130, A, 0);
        final int i = gaps.first();
        gaps.startRound(i, 1);
        gaps.requestedTo(i, 130);

        gaps.fill(100, 110, RECOVERY, 10);
        assertEquals(0, gaps.followUpTo(gaps.first()), "the first request was answered in full");
        gaps.fill(110, 114, RECOVERY, 10);
        assertEquals(120, gaps.followUpTo(gaps.first()), "the second stopped at 114 of 120");
        assertEquals(1, gaps.attempts(gaps.first()));
    }
}
