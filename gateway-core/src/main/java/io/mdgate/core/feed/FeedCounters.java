package io.mdgate.core.feed;

import io.mdgate.core.counters.CounterAllocator;
import org.agrona.concurrent.status.AtomicCounter;

import static io.mdgate.core.feed.FeedCounterDescriptor.*;

/**
 * The counters of one {@link FeedSession} ({@link FeedCounterDescriptor}): per line (indexed by {@link FeedLines})
 * and for the whole session, allocated once from the session's {@link CounterAllocator}. The session's thread is
 * the only writer and updates each where its event happens, with single-writer release stores
 * ({@code incrementRelease}, {@code setRelease}: a plain store on x86, no locked instruction, no fence), so another
 * process reading the counters file sees each value whole and never going back, and sees a gap counted as opened
 * before it sees it filled. Allocation-free after construction.
 */
final class FeedCounters
{
    static final int LINES = FeedCounterDescriptor.LINES;

    final AtomicCounter[] packets;
    final AtomicCounter[] messages;
    final AtomicCounter[] duplicates;
    final AtomicCounter[] heartbeats;
    final AtomicCounter[] gapsOpened;
    final AtomicCounter[] gapsFilledByOtherLine;
    final AtomicCounter[] gapsFilledBySameLine;
    final AtomicCounter[] gapsFilledByRerequest;
    final AtomicCounter[] gapsDeclaredLost;
    final AtomicCounter[] malformed;
    final AtomicCounter[] stalePeriods;
    final AtomicCounter[] implausible;

    /** Indexed by the {@code FeedSession.LOST_*} reasons; index 0 is no reason and has no counter. */
    final AtomicCounter[] gapsLostByReason = new AtomicCounter[FeedSession.LOST_REQUEST_BUDGET + 1];
    final AtomicCounter allGapsOpened;
    final AtomicCounter allGapsFilledByOtherLine;
    final AtomicCounter allGapsFilledBySameLine;
    final AtomicCounter allGapsFilledByRerequest;
    final AtomicCounter allGapsLost;
    final AtomicCounter gapsOpen;
    final AtomicCounter messagesDelivered;
    final AtomicCounter messagesLost;
    final AtomicCounter messagesMissing;
    final AtomicCounter requestsSent;
    final AtomicCounter requestFailures;
    final AtomicCounter requestsDeferred;
    final AtomicCounter packetsShed;
    final AtomicCounter shedPeriods;
    final AtomicCounter heldPackets;
    final AtomicCounter sessionChanges;
    final AtomicCounter otherSessionPackets;
    final AtomicCounter refusedSessionPackets;
    final AtomicCounter candidateSessionPackets;
    final AtomicCounter sequenceJumps;
    final AtomicCounter packetsAfterEndOfSession;
    final AtomicCounter unknownLinePackets;
    final AtomicCounter nextSequence;
    final AtomicCounter endOfSession;
    final AtomicCounter sessionNumber;

    private final AtomicCounter[][] perLine = new AtomicCounter[values().length][];
    private final AtomicCounter[] session = new AtomicCounter[values().length];

    /** Allocates every counter: line A's, line B's, the recovery line's, then the session's (the file's order). */
    FeedCounters(final CounterAllocator allocator)
    {
        for (final FeedCounterDescriptor descriptor : values())
        {
            if (descriptor.isPerLine())
            {
                perLine[descriptor.ordinal()] = new AtomicCounter[LINES];
            }
        }
        for (int line = 0; line < LINES; line++)
        {
            for (final FeedCounterDescriptor descriptor : values())
            {
                if (descriptor.isPerLine())
                {
                    perLine[descriptor.ordinal()][line] = descriptor.newCounter(allocator, linePrefix(line));
                }
            }
        }
        for (final FeedCounterDescriptor descriptor : values())
        {
            if (!descriptor.isPerLine())
            {
                session[descriptor.ordinal()] = descriptor.newCounter(allocator, PREFIX);
            }
        }
        packets = perLine[PACKETS.ordinal()];
        messages = perLine[MESSAGES.ordinal()];
        duplicates = perLine[DUPLICATES.ordinal()];
        heartbeats = perLine[HEARTBEATS.ordinal()];
        gapsOpened = perLine[LINE_GAPS_OPENED.ordinal()];
        gapsFilledByOtherLine = perLine[LINE_GAPS_FILLED_BY_OTHER_LINE.ordinal()];
        gapsFilledBySameLine = perLine[LINE_GAPS_FILLED_BY_SAME_LINE.ordinal()];
        gapsFilledByRerequest = perLine[LINE_GAPS_FILLED_BY_REREQUEST.ordinal()];
        gapsDeclaredLost = perLine[LINE_GAPS_LOST.ordinal()];
        malformed = perLine[MALFORMED.ordinal()];
        stalePeriods = perLine[STALE_PERIODS.ordinal()];
        implausible = perLine[IMPLAUSIBLE.ordinal()];
        gapsLostByReason[FeedSession.LOST_NO_RECOVERY] = session(GAPS_LOST_NO_REREQUEST_SERVER);
        gapsLostByReason[FeedSession.LOST_RETRIES_EXHAUSTED] = session(GAPS_LOST_REREQUESTS_UNANSWERED);
        gapsLostByReason[FeedSession.LOST_HOLD_FULL] = session(GAPS_LOST_HOLD_FULL);
        gapsLostByReason[FeedSession.LOST_SESSION_CHANGED] = session(GAPS_LOST_SESSION_CHANGED);
        gapsLostByReason[FeedSession.LOST_REQUEST_BUDGET] = session(GAPS_LOST_REQUEST_BUDGET);
        allGapsOpened = session(GAPS_OPENED);
        allGapsFilledByOtherLine = session(GAPS_FILLED_BY_OTHER_LINE);
        allGapsFilledBySameLine = session(GAPS_FILLED_BY_SAME_LINE);
        allGapsFilledByRerequest = session(GAPS_FILLED_BY_REREQUEST);
        allGapsLost = session(GAPS_LOST);
        gapsOpen = session(GAPS_OPEN);
        messagesDelivered = session(MESSAGES_DELIVERED);
        messagesLost = session(MESSAGES_LOST);
        messagesMissing = session(MESSAGES_MISSING);
        requestsSent = session(REQUESTS_SENT);
        requestFailures = session(REQUESTS_FAILED);
        requestsDeferred = session(REQUESTS_DEFERRED);
        packetsShed = session(PACKETS_SHED);
        shedPeriods = session(SHED_PERIODS);
        heldPackets = session(HELD_PACKETS);
        sessionChanges = session(SESSION_CHANGES);
        otherSessionPackets = session(OTHER_SESSION_PACKETS);
        refusedSessionPackets = session(REFUSED_SESSION_PACKETS);
        candidateSessionPackets = session(CANDIDATE_SESSION_PACKETS);
        sequenceJumps = session(SEQUENCE_JUMPS);
        packetsAfterEndOfSession = session(PACKETS_AFTER_END_OF_SESSION);
        unknownLinePackets = session(UNKNOWN_LINE_PACKETS);
        nextSequence = session(NEXT_SEQUENCE);
        endOfSession = session(END_OF_SESSION);
        sessionNumber = session(SESSION_NUMBER);
    }

    private AtomicCounter session(final FeedCounterDescriptor descriptor)
    {
        return session[descriptor.ordinal()];
    }

    /** A gap the line revealed: counted for the line and for the session. */
    void gapOpened(final int line)
    {
        gapsOpened[line].incrementRelease();
        allGapsOpened.incrementRelease();
    }

    /** A gap the opener revealed, filled by the other line. */
    void gapFilledByOtherLine(final int opener)
    {
        gapsFilledByOtherLine[opener].incrementRelease();
        allGapsFilledByOtherLine.incrementRelease();
    }

    /** A gap the opener revealed, filled by its own late packets. */
    void gapFilledBySameLine(final int opener)
    {
        gapsFilledBySameLine[opener].incrementRelease();
        allGapsFilledBySameLine.incrementRelease();
    }

    /** A gap the opener revealed, filled by a re-request answer. */
    void gapFilledByRerequest(final int opener)
    {
        gapsFilledByRerequest[opener].incrementRelease();
        allGapsFilledByRerequest.incrementRelease();
    }

    /** A gap the opener revealed, declared lost for the reason with its count of messages. */
    void gapLost(final int opener, final int reason, final long count)
    {
        gapsDeclaredLost[opener].incrementRelease();
        allGapsLost.incrementRelease();
        gapsLostByReason[reason].incrementRelease();
        messagesLost.getAndAddRelease(count);
    }

    /** A message delivered from the line's packet. */
    void delivered(final int line)
    {
        messages[line].incrementRelease();
        messagesDelivered.incrementRelease();
    }
}
