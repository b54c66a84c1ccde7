package io.mdgate.core.feed;

import org.agrona.DirectBuffer;

/**
 * The operational events of a {@link FeedSession}: what an operator wants to hear about, each reported once when
 * it happens, never per packet. The session itself never logs; an implementation may log, raise an alarm or
 * count, and must return quickly and never throw. Every method has a no-op default. Called on the session's
 * thread.
 */
public interface FeedSessionListener
{
    /** A listener that ignores every event. */
    FeedSessionListener NO_OP = new FeedSessionListener()
    {
    };

    /**
     * The first session was accepted (a resumed session is not reported; a later one is a change).
     *
     * @param sessionNumber 1.
     * @param sessionId     buffer holding the 10-byte MoldUDP64 session id at {@code offset}; valid during the call.
     * @param offset        of the session id.
     * @param nextSequence  the sequence the session expects next.
     */
    default void onSessionStarted(
        final int sessionNumber, final DirectBuffer sessionId, final int offset, final long nextSequence)
    {
    }

    /**
     * The session changed to a new one; reported once per change, with both names.
     *
     * @param sessionNumber  the new session's number: one more than the previous one's.
     * @param previousId     buffer holding the previous session's 10-byte name at {@code previousOffset}.
     * @param previousOffset of the previous name.
     * @param sessionId      buffer holding the new session's 10-byte name at {@code offset}; both valid during the
     *                       call.
     * @param offset         of the new name.
     * @param nextSequence   the sequence the new session expects next (1).
     */
    default void onSessionChanged(
        final int sessionNumber,
        final DirectBuffer previousId,
        final int previousOffset,
        final DirectBuffer sessionId,
        final int offset,
        final long nextSequence)
    {
    }

    /**
     * Messages were given up for good, after they were passed to the {@link GapHandler}.
     *
     * @param firstSequence the first lost sequence.
     * @param count         how many were lost.
     * @param reason        one of {@link FeedSession#LOST_NO_RECOVERY}, {@link FeedSession#LOST_RETRIES_EXHAUSTED},
     *                      {@link FeedSession#LOST_HOLD_FULL}, {@link FeedSession#LOST_SESSION_CHANGED},
     *                      {@link FeedSession#LOST_REQUEST_BUDGET}.
     */
    default void onGapDeclared(final long firstSequence, final long count, final int reason)
    {
    }

    /**
     * The hold filled past its high mark behind a gap still in recovery: from now on, packets of lines A and B at or
     * past {@code firstShed} are not held but left missing, to be asked of the re-request server once the hold has
     * drained, rather than declaring the older gap lost to make room.
     *
     * @param firstShed   the first sequence not held.
     * @param gapFrom     the first sequence of the lowest gap, the one everything waits for.
     * @param heldPackets packets held now.
     */
    default void onSheddingStarted(final long firstShed, final long gapFrom, final int heldPackets)
    {
    }

    /**
     * The hold drained below its low mark: packets are held again, and the sequences shed are asked for.
     *
     * @param firstShed the first sequence shed in this period.
     * @param endShed   one past the last sequence known when shedding stopped.
     * @param packets   packets shed in this period.
     */
    default void onSheddingStopped(final long firstShed, final long endShed, final long packets)
    {
    }

    /**
     * Every message up to the end-of-session marker was delivered or declared lost; later packets of the session
     * are counted and dropped.
     *
     * @param nextSequence one past the session's last sequence.
     */
    default void onEndOfSession(final long nextSequence)
    {
    }

    /**
     * A line sent nothing, not even a heartbeat, for the configured stale time. Reported once per silent period.
     *
     * @param line {@link FeedLines#A} or {@link FeedLines#B}.
     */
    default void onLineStale(final int line)
    {
    }

    /**
     * A line reported stale sent a packet again.
     *
     * @param line {@link FeedLines#A} or {@link FeedLines#B}.
     */
    default void onLineActive(final int line)
    {
    }
}
