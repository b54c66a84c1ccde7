package io.mdgate.core.feed;

/**
 * The counters of one {@link FeedSession}: per line (indexed by {@link FeedLines}) and for the whole session.
 * Plain fields written by the session's thread and read through the session's accessors on the same thread; a
 * snapshot for another thread is the caller's copy. Allocation-free.
 */
final class FeedCounters
{
    static final int LINES = 3;

    final long[] packets = new long[LINES];
    final long[] messages = new long[LINES];
    final long[] duplicates = new long[LINES];
    final long[] heartbeats = new long[LINES];
    final long[] gapsOpened = new long[LINES];
    final long[] gapsFilledByOtherLine = new long[LINES];
    final long[] gapsFilledBySameLine = new long[LINES];
    final long[] gapsFilledByRerequest = new long[LINES];
    final long[] gapsDeclaredLost = new long[LINES];
    final long[] malformed = new long[LINES];
    final long[] stalePeriods = new long[LINES];
    final long[] implausible = new long[LINES];

    final long[] gapsLostByReason = new long[FeedSession.LOST_REQUEST_BUDGET + 1];
    long messagesLost;
    long otherSessionPackets;
    long refusedSessionPackets;
    long candidateSessionPackets;
    long sequenceJumps;
    long packetsAfterEndOfSession;
    long unknownLinePackets;
    long sessionChanges;
    long requestsSent;
    long requestFailures;
    long requestsDeferred;
}
