package io.mdgate.core.feed;

import io.mdgate.core.counters.CounterAllocator;
import io.mdgate.core.counters.CounterDescriptor;
import io.mdgate.core.counters.CounterType;

/**
 * The counters of a {@link FeedSession}. A per-line counter exists once for each of {@link FeedLines} and is
 * labelled {@code feed.<line>.<suffix>} ({@code feed.A.packets}, {@code feed.recovery.gaps_lost}); a session counter
 * exists once, labelled {@code feed.<suffix>} ({@code feed.gaps.opened}). The session allocates them all, line by line
 * and then the session's, from the {@link CounterAllocator} of its {@link FeedSession.Context}, and updates them on
 * its thread where the event happens. docs/OPERATIONS.md says what each means.
 * <p>
 * Immutable; any thread.
 */
public enum FeedCounterDescriptor implements CounterDescriptor
{
    /** Packets received on the line, of any kind. */
    PACKETS(true, "packets", CounterType.TOTAL),
    /** Messages delivered from the line's packets (its copy was the first). */
    MESSAGES(true, "messages", CounterType.TOTAL),
    /** Messages received on the line that had already been received or delivered. */
    DUPLICATES(true, "duplicates", CounterType.TOTAL),
    /** Heartbeats received on the line. */
    HEARTBEATS(true, "heartbeats", CounterType.TOTAL),
    /** Gaps the line revealed. */
    LINE_GAPS_OPENED(true, "gaps_opened", CounterType.TOTAL),
    /** Gaps the line revealed that the other line filled. */
    LINE_GAPS_FILLED_BY_OTHER_LINE(true, "gaps_filled_by_other_line", CounterType.TOTAL),
    /** Gaps the line revealed that its own late packets filled. */
    LINE_GAPS_FILLED_BY_SAME_LINE(true, "gaps_filled_by_same_line", CounterType.TOTAL),
    /** Gaps the line revealed that re-request answers filled. */
    LINE_GAPS_FILLED_BY_REREQUEST(true, "gaps_filled_by_rerequest", CounterType.TOTAL),
    /** Gaps the line revealed that were declared lost. */
    LINE_GAPS_LOST(true, "gaps_lost", CounterType.TOTAL),
    /** Packets of the line dropped as malformed. */
    MALFORMED(true, "malformed", CounterType.TOTAL),
    /** Times the line went silent for longer than the stale time (lines A and B; 0 for recovery). */
    STALE_PERIODS(true, "stale_periods", CounterType.TOTAL),
    /** Packets of the line dropped as implausibly far ahead. */
    IMPLAUSIBLE(true, "implausible", CounterType.TOTAL),

    /** Gaps opened, every line. */
    GAPS_OPENED(false, "gaps.opened", CounterType.TOTAL),
    /** Gaps filled by the other line, every line. */
    GAPS_FILLED_BY_OTHER_LINE(false, "gaps.filled_by_other_line", CounterType.TOTAL),
    /** Gaps filled by the same line, every line. */
    GAPS_FILLED_BY_SAME_LINE(false, "gaps.filled_by_same_line", CounterType.TOTAL),
    /** Gaps filled by re-request answers, every line. */
    GAPS_FILLED_BY_REREQUEST(false, "gaps.filled_by_rerequest", CounterType.TOTAL),
    /** Gaps declared lost, every line. */
    GAPS_LOST(false, "gaps.lost", CounterType.TOTAL),
    /** Gaps open now (in recovery, or declared and about to be passed on). */
    GAPS_OPEN(false, "gaps.open", CounterType.LEVEL),
    /** Gaps lost for {@link FeedSession#LOST_NO_RECOVERY}. */
    GAPS_LOST_NO_REREQUEST_SERVER(false, "gaps.lost_no_rerequest_server", CounterType.TOTAL),
    /** Gaps lost for {@link FeedSession#LOST_RETRIES_EXHAUSTED}. */
    GAPS_LOST_REREQUESTS_UNANSWERED(false, "gaps.lost_rerequests_unanswered", CounterType.TOTAL),
    /** Gaps lost for {@link FeedSession#LOST_HOLD_FULL}. */
    GAPS_LOST_HOLD_FULL(false, "gaps.lost_hold_full", CounterType.TOTAL),
    /** Gaps lost for {@link FeedSession#LOST_SESSION_CHANGED}. */
    GAPS_LOST_SESSION_CHANGED(false, "gaps.lost_session_changed", CounterType.TOTAL),
    /** Messages delivered, every line. */
    MESSAGES_DELIVERED(false, "messages.delivered", CounterType.TOTAL),
    /** Messages declared lost, over all gaps. */
    MESSAGES_LOST(false, "messages.lost", CounterType.TOTAL),
    /** Sequences missing now, over all open gaps. */
    MESSAGES_MISSING(false, "messages.missing", CounterType.LEVEL),
    /** Re-requests handed to the requester. */
    REQUESTS_SENT(false, "requests.sent", CounterType.TOTAL),
    /** Re-requests the requester could not send. */
    REQUESTS_FAILED(false, "requests.failed", CounterType.TOTAL),
    /** Packets held after gaps now. */
    HELD_PACKETS(false, "held_packets", CounterType.LEVEL),
    /** Times a new session replaced the current one. */
    SESSION_CHANGES(false, "session_changes", CounterType.TOTAL),
    /** Packets of the previous session, or re-request answers of another session, dropped. */
    OTHER_SESSION_PACKETS(false, "other_session_packets", CounterType.TOTAL),
    /** The next sequence to deliver. */
    NEXT_SEQUENCE(false, "next_sequence", CounterType.POSITION),
    /** 1 once everything before the end-of-session marker has left. */
    END_OF_SESSION(false, "end_of_session", CounterType.STATE),
    /** Gaps lost for {@link FeedSession#LOST_REQUEST_BUDGET}. */
    GAPS_LOST_REQUEST_BUDGET(false, "gaps.lost_request_budget", CounterType.TOTAL),
    /** Packets naming another session than the configured one, dropped. */
    REFUSED_SESSION_PACKETS(false, "refused_session_packets", CounterType.TOTAL),
    /** Packets of a session not (yet) accepted. */
    CANDIDATE_SESSION_PACKETS(false, "candidate_session_packets", CounterType.TOTAL),
    /** Jumps far ahead that were corroborated and taken. */
    SEQUENCE_JUMPS(false, "sequence_jumps", CounterType.TOTAL),
    /** The gateway's number of the current session (the ticks' sessionId); 0 before the first. */
    SESSION_NUMBER(false, "session_number", CounterType.STATE),
    /** Packets of the current session dropped because it had ended. */
    PACKETS_AFTER_END_OF_SESSION(false, "packets_after_end_of_session", CounterType.TOTAL),
    /** Packets given with a line index outside {@link FeedLines}. */
    UNKNOWN_LINE_PACKETS(false, "unknown_line_packets", CounterType.TOTAL),
    /** Times a due re-request had to wait for the rate limit. */
    REQUESTS_DEFERRED(false, "requests.deferred", CounterType.TOTAL),
    /** Packets not held because the hold was nearly full behind a gap: their messages are asked for later. */
    PACKETS_SHED(false, "packets_shed", CounterType.TOTAL),
    /** Times the hold filled past its high mark and packets ahead of what it held began to be shed. */
    SHED_PERIODS(false, "shed_periods", CounterType.TOTAL);

    /** The prefix of every label. */
    public static final String PREFIX = "feed.";
    /** Lines a per-line counter exists for: {@link FeedLines#A}, {@link FeedLines#B}, {@link FeedLines#RECOVERY}. */
    public static final int LINES = 3;
    /** Counters one session allocates. */
    public static final int COUNTERS_PER_SESSION;

    private static final String[] LINE_NAMES = { "A", "B", "recovery" };

    static
    {
        int count = 0;
        for (final FeedCounterDescriptor descriptor : values())
        {
            count += descriptor.perLine ? LINES : 1;
        }
        COUNTERS_PER_SESSION = count;
    }

    private final boolean perLine;
    private final String labelSuffix;
    private final int typeId;

    FeedCounterDescriptor(final boolean perLine, final String labelSuffix, final int typeId)
    {
        this.perLine = perLine;
        this.labelSuffix = labelSuffix;
        this.typeId = typeId;
    }

    /** @return true when the counter exists once per line, false when once per session. */
    public boolean isPerLine()
    {
        return perLine;
    }

    @Override
    public String labelSuffix()
    {
        return labelSuffix;
    }

    @Override
    public int typeId()
    {
        return typeId;
    }

    /**
     * @param line one of {@link FeedLines}.
     * @return the prefix of the line's counters, e.g. {@code feed.A.}.
     */
    public static String linePrefix(final int line)
    {
        return PREFIX + LINE_NAMES[line] + ".";
    }

    /**
     * @param line one of {@link FeedLines}, for a per-line counter; ignored for a session counter.
     * @return the counter's full label, e.g. {@code feed.B.duplicates} or {@code feed.gaps.open}.
     */
    public String label(final int line)
    {
        return label(perLine ? linePrefix(line) : PREFIX);
    }
}
