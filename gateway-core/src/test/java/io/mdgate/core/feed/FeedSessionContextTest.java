package io.mdgate.core.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class FeedSessionContextTest
{
    private static FeedSession.Context valid()
    {
        return new FeedSession.Context()
            .messageHandler((buffer, offset, length, sequence) -> {})
            .gapHandler((first, count) -> {});
    }

    private static String refusal(final UnaryOperator<FeedSession.Context> change)
    {
        return assertThrows(IllegalArgumentException.class, () -> change.apply(valid()).conclude()).getMessage();
    }

    @Test
    void shouldAcceptTheDefaultsOnceBothHandlersAreGiven()
    {
        final FeedSession.Context context = valid().conclude();
        assertEquals(200_000, context.gapWaitNanos());
        assertEquals(0, context.firstSequence());
        assertEquals(FeedSessionListener.NO_OP, context.listener());
        assertEquals(null, context.requester());
        new FeedSession(context);
    }

    @Test
    void shouldRequireTheMessageAndGapHandlers()
    {
        final String message = assertThrows(IllegalArgumentException.class,
            () -> new FeedSession.Context().conclude()).getMessage();
        assertTrue(message.contains("messageHandler is required"), message);
        assertTrue(message.contains("gapHandler is required"), message);
    }

    @Test
    void shouldNameEachSettingOutOfRangeWithWhatItWasAndWhatIsAllowed()
    {
        assertTrue(refusal(c -> c.gapWaitNanos(-1)).contains("gapWaitNanos must be 0 (ask at once) to 10 s"));
        assertTrue(refusal(c -> c.retryIntervalNanos(10)).contains("retryIntervalNanos must be 1 us"));
        assertTrue(refusal(c -> c.maxRetries(-1)).contains("maxRetries must be 0"));
        assertTrue(refusal(c -> c.maxRequestCount(0)).contains("maxRequestCount must be 1 to 65535"));
        assertTrue(refusal(c -> c.maxRequestCount(65_536)).contains("was 65536"));
        assertTrue(refusal(c -> c.requestsPerSecond(0)).contains("requestsPerSecond must be 1 to 1000000, was 0"));
        assertTrue(refusal(c -> c.requestBurst(0)).contains("requestBurst must be 1"));
        assertTrue(refusal(c -> c.holdBytes(1_500)).contains("holdBytes must be 65536 (one largest UDP payload)"));
        assertTrue(refusal(c -> c.holdPackets(0)).contains("holdPackets must be 1 to"));
        assertTrue(refusal(c -> c.staleLineNanos(5)).contains("staleLineNanos must be 1 ms"));
        assertTrue(refusal(c -> c.firstSequence(-3)).contains("firstSequence must be 0 (start at the first packet seen)"));
        assertTrue(refusal(c -> c.listener(null)).contains("FeedSessionListener.NO_OP"));
        assertTrue(refusal(c -> c.confirmPackets(1)).contains("confirmPackets must be 2 to 1000"));
        assertTrue(refusal(c -> c.plausibleSequenceWindow(0)).contains("plausibleSequenceWindow must be 1 to"));
        assertTrue(refusal(c -> c.corroborationWindowNanos(999)).contains("corroborationWindowNanos must be 1 us"));
        assertTrue(refusal(c -> c.corroborationWindowNanos(3_601_000_000_000L)).contains("was 3601000000000"));
        assertTrue(refusal(c -> c.maxRequestedPerGap(0)).contains("maxRequestedPerGap must be 1 or more"));
        assertTrue(refusal(c -> c.session("ELEVENCHARS")).contains("session: MoldUDP64 session 'ELEVENCHARS'"));
        assertTrue(refusal(c -> c.resume(new byte[9], 1, 1)).contains("resume needs the 10-byte"));
        assertTrue(refusal(c -> c.resume(new byte[10], 0, 1)).contains("sessionNumber must be 1 to 65535"));
        assertTrue(refusal(c -> c.resume(new byte[10], 65_536, 1)).contains("was 65536"));
        assertTrue(refusal(c -> c.resume(new byte[10], 1, 0)).contains("nextSequence must be 1 to"));
    }

    @Test
    void shouldDefaultToNoConfiguredSessionThreeConfirmingPacketsAMillionSequenceWindowAndTenMillionAskedPerGap()
    {
        final FeedSession.Context context = valid().conclude();
        assertEquals(null, context.session());
        assertEquals(3, context.confirmPackets());
        assertEquals(1_000_000, context.plausibleSequenceWindow());
        assertEquals(1_000_000_000, context.corroborationWindowNanos(), "one second");
        assertEquals(10_000_000, context.maxRequestedPerGap());
        assertEquals(null, context.resumeSessionName());
        assertEquals(null, valid().session("").session(), "empty means none");
    }

    @Test
    void shouldReportEveryProblemAtOnce()
    {
        final String message = refusal(c -> c.gapWaitNanos(-1).holdPackets(0).requestBurst(0));
        assertEquals(3, message.split("; ").length, message);
        assertFalse(message.contains("messageHandler"), message);
    }

    @Test
    void shouldRefuseToBuildASessionFromABadContext()
    {
        assertThrows(IllegalArgumentException.class, () -> new FeedSession(valid().holdBytes(10)));
    }
}
