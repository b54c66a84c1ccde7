package io.mdgate.runtime;

import io.mdgate.runtime.counters.CounterType;
import io.mdgate.runtime.counters.CountersFileWriter;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * Copies a {@link FeedSession}'s counters into the counters file, on the session's own thread (the session is not
 * thread-safe, so nobody else reads it). Labels: {@code feed.<line>.<counter>} per line (A, B, recovery) and
 * {@code feed.gaps.*}, {@code feed.messages.*}, {@code feed.requests.*} for the session as a whole.
 * Allocation-free after construction.
 */
final class FeedCountersPublisher
{
    private static final String[] LINE_NAMES = { "A", "B", "recovery" };
    private static final int LINES = 3;
    private static final int PER_LINE = 12;

    private final FeedSession session;
    private final AtomicCounter[] perLine = new AtomicCounter[LINES * PER_LINE];
    private final AtomicCounter gapsOpened;
    private final AtomicCounter gapsFilledByOtherLine;
    private final AtomicCounter gapsFilledBySameLine;
    private final AtomicCounter gapsFilledByRerequest;
    private final AtomicCounter gapsLost;
    private final AtomicCounter gapsOpen;
    private final AtomicCounter lostNoRecovery;
    private final AtomicCounter lostRetriesExhausted;
    private final AtomicCounter lostHoldFull;
    private final AtomicCounter lostSessionChanged;
    private final AtomicCounter messagesDelivered;
    private final AtomicCounter messagesLost;
    private final AtomicCounter messagesMissing;
    private final AtomicCounter requestsSent;
    private final AtomicCounter requestFailures;
    private final AtomicCounter heldPackets;
    private final AtomicCounter sessionChanges;
    private final AtomicCounter otherSessionPackets;
    private final AtomicCounter nextSequence;
    private final AtomicCounter endOfSession;
    private final AtomicCounter lostRequestBudget;
    private final AtomicCounter refusedSessionPackets;
    private final AtomicCounter candidateSessionPackets;
    private final AtomicCounter sequenceJumps;
    private final AtomicCounter sessionNumber;

    FeedCountersPublisher(final FeedSession session, final CountersFileWriter counters)
    {
        this.session = session;
        final String[] names = { "packets", "messages", "duplicates", "heartbeats", "gaps_opened",
            "gaps_filled_by_other_line", "gaps_filled_by_same_line", "gaps_filled_by_rerequest", "gaps_lost",
            "malformed", "stale_periods", "implausible" };
        for (int line = 0; line < LINES; line++)
        {
            for (int i = 0; i < PER_LINE; i++)
            {
                perLine[line * PER_LINE + i] = counters.newCounter(
                    "feed." + LINE_NAMES[line] + "." + names[i], CounterType.TOTAL);
            }
        }
        gapsOpened = counters.newCounter("feed.gaps.opened", CounterType.TOTAL);
        gapsFilledByOtherLine = counters.newCounter("feed.gaps.filled_by_other_line", CounterType.TOTAL);
        gapsFilledBySameLine = counters.newCounter("feed.gaps.filled_by_same_line", CounterType.TOTAL);
        gapsFilledByRerequest = counters.newCounter("feed.gaps.filled_by_rerequest", CounterType.TOTAL);
        gapsLost = counters.newCounter("feed.gaps.lost", CounterType.TOTAL);
        gapsOpen = counters.newCounter("feed.gaps.open", CounterType.LEVEL);
        lostNoRecovery = counters.newCounter("feed.gaps.lost_no_rerequest_server", CounterType.TOTAL);
        lostRetriesExhausted = counters.newCounter("feed.gaps.lost_rerequests_unanswered", CounterType.TOTAL);
        lostHoldFull = counters.newCounter("feed.gaps.lost_hold_full", CounterType.TOTAL);
        lostSessionChanged = counters.newCounter("feed.gaps.lost_session_changed", CounterType.TOTAL);
        messagesDelivered = counters.newCounter("feed.messages.delivered", CounterType.TOTAL);
        messagesLost = counters.newCounter("feed.messages.lost", CounterType.TOTAL);
        messagesMissing = counters.newCounter("feed.messages.missing", CounterType.LEVEL);
        requestsSent = counters.newCounter("feed.requests.sent", CounterType.TOTAL);
        requestFailures = counters.newCounter("feed.requests.failed", CounterType.TOTAL);
        heldPackets = counters.newCounter("feed.held_packets", CounterType.LEVEL);
        sessionChanges = counters.newCounter("feed.session_changes", CounterType.TOTAL);
        otherSessionPackets = counters.newCounter("feed.other_session_packets", CounterType.TOTAL);
        nextSequence = counters.newCounter("feed.next_sequence", CounterType.POSITION);
        endOfSession = counters.newCounter("feed.end_of_session", CounterType.STATE);
        lostRequestBudget = counters.newCounter("feed.gaps.lost_request_budget", CounterType.TOTAL);
        refusedSessionPackets = counters.newCounter("feed.refused_session_packets", CounterType.TOTAL);
        candidateSessionPackets = counters.newCounter("feed.candidate_session_packets", CounterType.TOTAL);
        sequenceJumps = counters.newCounter("feed.sequence_jumps", CounterType.TOTAL);
        sessionNumber = counters.newCounter("feed.session_number", CounterType.STATE);
    }

    /** Copies every counter; session thread only. */
    void publish()
    {
        long opened = 0;
        long byOther = 0;
        long bySame = 0;
        long byRequest = 0;
        long lost = 0;
        for (int line = 0; line < LINES; line++)
        {
            final int base = line * PER_LINE;
            perLine[base].setRelease(session.packets(line));
            perLine[base + 1].setRelease(session.messages(line));
            perLine[base + 2].setRelease(session.duplicates(line));
            perLine[base + 3].setRelease(session.heartbeats(line));
            perLine[base + 4].setRelease(session.gapsOpened(line));
            perLine[base + 5].setRelease(session.gapsFilledByOtherLine(line));
            perLine[base + 6].setRelease(session.gapsFilledBySameLine(line));
            perLine[base + 7].setRelease(session.gapsFilledByRerequest(line));
            perLine[base + 8].setRelease(session.gapsDeclaredLost(line));
            perLine[base + 9].setRelease(session.malformed(line));
            perLine[base + 10].setRelease(line == FeedLines.RECOVERY ? 0 : session.stalePeriods(line));
            perLine[base + 11].setRelease(session.implausible(line));
            opened += session.gapsOpened(line);
            byOther += session.gapsFilledByOtherLine(line);
            bySame += session.gapsFilledBySameLine(line);
            byRequest += session.gapsFilledByRerequest(line);
            lost += session.gapsDeclaredLost(line);
        }
        gapsOpened.setRelease(opened);
        gapsFilledByOtherLine.setRelease(byOther);
        gapsFilledBySameLine.setRelease(bySame);
        gapsFilledByRerequest.setRelease(byRequest);
        gapsLost.setRelease(lost);
        gapsOpen.setRelease(session.openGaps());
        lostNoRecovery.setRelease(session.gapsLost(FeedSession.LOST_NO_RECOVERY));
        lostRetriesExhausted.setRelease(session.gapsLost(FeedSession.LOST_RETRIES_EXHAUSTED));
        lostHoldFull.setRelease(session.gapsLost(FeedSession.LOST_HOLD_FULL));
        lostSessionChanged.setRelease(session.gapsLost(FeedSession.LOST_SESSION_CHANGED));
        messagesDelivered.setRelease(session.messagesDelivered());
        messagesLost.setRelease(session.messagesLost());
        messagesMissing.setRelease(session.missingMessages());
        requestsSent.setRelease(session.requestsSent());
        requestFailures.setRelease(session.requestFailures());
        heldPackets.setRelease(session.heldPackets());
        sessionChanges.setRelease(session.sessionChanges());
        otherSessionPackets.setRelease(session.otherSessionPackets());
        nextSequence.setRelease(session.nextSequence());
        endOfSession.setRelease(session.isEndOfSession() ? 1 : 0);
        lostRequestBudget.setRelease(session.gapsLost(FeedSession.LOST_REQUEST_BUDGET));
        refusedSessionPackets.setRelease(session.refusedSessionPackets());
        candidateSessionPackets.setRelease(session.candidateSessionPackets());
        sequenceJumps.setRelease(session.sequenceJumps());
        sessionNumber.setRelease(session.sessionNumber());
    }
}
