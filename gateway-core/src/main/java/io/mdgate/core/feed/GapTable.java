package io.mdgate.core.feed;

/**
 * The open gaps of a {@link FeedSession}: disjoint ranges {@code [from, to)} of missing sequences, sorted, each
 * with its recovery state. A gap is opened when a line reveals sequences nobody has seen, shrinks or splits as
 * packets fill parts of it, and is closed when filled or declared lost. Each gap remembers the line that revealed
 * it, and the counters of that line are the ones told how it ended (filled by the other line, by the same line, by
 * re-request, or lost); a gap split in two by a packet landing in its middle counts as one more gap opened, so the
 * opened count always equals the closed ones plus those still open.
 * <p>
 * Recovery state per gap: {@link #WAITING} for the other line until its deadline; {@link #REQUESTING} in rounds
 * (a round asks for the whole gap in requests of at most the request size, paced by the caller; {@code requestedTo}
 * is how far the round got; the deadline is when the next round is due); {@link #LOST} once given up, to be
 * declared when delivery reaches it.
 * <p>
 * Stored in parallel arrays between {@code start} and {@code end}; gaps are usually closed at the front and opened
 * at the back, and a split shifts the arrays by one. Allocation-free after construction. Not thread-safe.
 */
final class GapTable
{
    static final byte WAITING = 0;
    static final byte REQUESTING = 1;
    static final byte LOST = 2;

    private final int capacity;
    private final FeedCounters counters;
    private final long[] from;
    private final long[] to;
    private final long[] deadline;
    private final long[] requestedTo;
    private final long[] roundBase;
    private final long[] followUpTo;
    private final long[] asked;
    private final int[] attempts;
    private final int[] openedBy;
    private final int[] reason;
    private final byte[] state;
    private int start;
    private int end;

    /**
     * @param capacity gaps tracked at most.
     * @param counters told of every gap opened and closed.
     */
    GapTable(final int capacity, final FeedCounters counters)
    {
        this.capacity = capacity;
        this.counters = counters;
        this.from = new long[capacity];
        this.to = new long[capacity];
        this.deadline = new long[capacity];
        this.requestedTo = new long[capacity];
        this.roundBase = new long[capacity];
        this.followUpTo = new long[capacity];
        this.asked = new long[capacity];
        this.attempts = new int[capacity];
        this.openedBy = new int[capacity];
        this.reason = new int[capacity];
        this.state = new byte[capacity];
    }

    int size()
    {
        return end - start;
    }

    boolean isEmpty()
    {
        return end == start;
    }

    boolean isFull()
    {
        return end - start == capacity;
    }

    /** @return the index of the lowest gap; iterate {@code first() .. limit() - 1}. */
    int first()
    {
        return start;
    }

    int limit()
    {
        return end;
    }

    /**
     * Opens a gap after every other one, or extends the last one when it ends where this begins and is still
     * waiting for the other line (a run of heartbeats revealing more of the same hole).
     *
     * @return true when a gap was opened, false when the last one was extended.
     */
    boolean open(final long gapFrom, final long gapTo, final int line, final long waitDeadline)
    {
        if (end > start && to[end - 1] == gapFrom && state[end - 1] == WAITING)
        {
            to[end - 1] = gapTo;
            return false;
        }
        makeRoomAtEnd();
        final int i = end++;
        from[i] = gapFrom;
        to[i] = gapTo;
        deadline[i] = waitDeadline;
        requestedTo[i] = gapFrom;
        roundBase[i] = gapFrom;
        followUpTo[i] = 0;
        asked[i] = 0;
        attempts[i] = 0;
        openedBy[i] = line;
        reason[i] = 0;
        state[i] = WAITING;
        counters.gapOpened(line);
        return true;
    }

    /**
     * Makes the last gap reach {@code gapTo}, whatever its state but lost, when it ends where the new sequences
     * begin: sequences shed while the hold was nearly full (see {@link FeedSession}), asked for in the gap's
     * current round or its next one.
     *
     * @return false, changing nothing, when there is no such gap (the caller opens one).
     */
    boolean extendLast(final long gapFrom, final long gapTo)
    {
        if (end > start && to[end - 1] == gapFrom && state[end - 1] != LOST)
        {
            to[end - 1] = gapTo;
            return true;
        }
        return false;
    }

    /**
     * Removes {@code [s, e)} from the gaps: a packet arrived with those sequences. Gaps it covers are closed and
     * credited to the line, gaps it overlaps shrink or split. A gap in recovery that an answer shrinks gets its
     * attempts reset (the server is answering) and, when the answer stopped short of the request it answered, a
     * follow-up for the rest of that request.
     *
     * @param maxRequestCount the request size, to find where the answered request ended.
     * @return true when any missing sequence was covered.
     */
    boolean fill(final long s, final long e, final int line, final int maxRequestCount)
    {
        makeRoomAtEnd();
        boolean covered = false;
        int i = start;
        while (i < end && to[i] <= s)
        {
            i++;
        }
        while (i < end && from[i] < e)
        {
            covered = true;
            if (s <= from[i] && e >= to[i])
            {
                closed(i, line);
                if (i == start)
                {
                    removeFirst();
                    i = start;
                }
                else
                {
                    removeInside(i);
                }
            }
            else if (s <= from[i])
            {
                from[i] = e;
                requestedTo[i] = Math.max(requestedTo[i], e);
                answered(i, line, e, maxRequestCount);
                i++;
            }
            else if (e >= to[i])
            {
                to[i] = s;
                requestedTo[i] = Math.min(requestedTo[i], s);
                answered(i, line, 0, maxRequestCount);
                i++;
            }
            else
            {
                split(i, s, e);
                answered(i, line, 0, maxRequestCount);
                answered(i + 1, line, e, maxRequestCount);
                i += 2;
            }
        }
        return covered;
    }

    /**
     * An answer for {@code [s, e)} came but could not be kept (no room to hold it): the gaps in recovery it overlaps
     * start their count of attempts again, since the server is answering, and are asked again in their next round.
     */
    void answerDropped(final long s, final long e)
    {
        for (int i = start; i < end && from[i] < e; i++)
        {
            if (to[i] > s && state[i] == REQUESTING)
            {
                attempts[i] = 1;
            }
        }
    }

    /** Removes the lowest gap without crediting anyone: the caller declares it lost. */
    void removeFirst()
    {
        start++;
        if (start == end)
        {
            start = 0;
            end = 0;
        }
    }

    /** Starts a round of re-requests for the whole gap. */
    void startRound(final int i, final int attempt)
    {
        state[i] = REQUESTING;
        attempts[i] = attempt;
        requestedTo[i] = from[i];
        roundBase[i] = from[i];
        followUpTo[i] = 0;
    }

    void markLost(final int i, final int lostReason)
    {
        state[i] = LOST;
        reason[i] = lostReason;
    }

    void requestedTo(final int i, final long value)
    {
        requestedTo[i] = value;
    }

    void deadline(final int i, final long value)
    {
        deadline[i] = value;
    }

    /** @param value messages asked for the gap so far, over all its requests (both halves of a split keep it). */
    void asked(final int i, final long value)
    {
        asked[i] = value;
    }

    long asked(final int i)
    {
        return asked[i];
    }

    void clearFollowUp(final int i)
    {
        followUpTo[i] = 0;
    }

    long from(final int i)
    {
        return from[i];
    }

    long to(final int i)
    {
        return to[i];
    }

    long deadline(final int i)
    {
        return deadline[i];
    }

    long requestedTo(final int i)
    {
        return requestedTo[i];
    }

    /** @return the end of a short-answered request still to be asked again from {@link #from(int)}, or 0. */
    long followUpTo(final int i)
    {
        return followUpTo[i];
    }

    int attempts(final int i)
    {
        return attempts[i];
    }

    int openedBy(final int i)
    {
        return openedBy[i];
    }

    int reason(final int i)
    {
        return reason[i];
    }

    byte state(final int i)
    {
        return state[i];
    }

    private void closed(final int i, final int line)
    {
        final int opener = openedBy[i];
        if (line == FeedLines.RECOVERY)
        {
            counters.gapFilledByRerequest(opener);
        }
        else if (line == opener)
        {
            counters.gapFilledBySameLine(opener);
        }
        else
        {
            counters.gapFilledByOtherLine(opener);
        }
    }

    /**
     * After a re-request answer changed gap i: attempts start again, and when the gap now begins where the answer
     * ended, short of the end of the request it answered, the rest of that request is due again at once.
     *
     * @param answerEnd one past the answer's last sequence when the gap now starts there, else 0.
     */
    private void answered(final int i, final int line, final long answerEnd, final int maxRequestCount)
    {
        if (line != FeedLines.RECOVERY || state[i] != REQUESTING)
        {
            return;
        }
        attempts[i] = 1;
        final long intoRound = answerEnd - roundBase[i];
        if (answerEnd != 0 && intoRound > 0 && intoRound % maxRequestCount != 0)
        {
            // The round's last request may be shorter than the request size: it ends where the round got to.
            final long requestEnd = Math.min(roundBase[i] + (intoRound / maxRequestCount + 1) * maxRequestCount,
                requestedTo[i]);
            if (requestEnd > answerEnd)
            {
                followUpTo[i] = Math.min(requestEnd, to[i]);
            }
        }
    }

    /** Splits gap i around {@code [s, e)}; the caller made room at the end. */
    private void split(final int i, final long s, final long e)
    {
        System.arraycopy(from, i + 1, from, i + 2, end - i - 1);
        System.arraycopy(to, i + 1, to, i + 2, end - i - 1);
        System.arraycopy(deadline, i + 1, deadline, i + 2, end - i - 1);
        System.arraycopy(requestedTo, i + 1, requestedTo, i + 2, end - i - 1);
        System.arraycopy(roundBase, i + 1, roundBase, i + 2, end - i - 1);
        System.arraycopy(followUpTo, i + 1, followUpTo, i + 2, end - i - 1);
        System.arraycopy(asked, i + 1, asked, i + 2, end - i - 1);
        System.arraycopy(attempts, i + 1, attempts, i + 2, end - i - 1);
        System.arraycopy(openedBy, i + 1, openedBy, i + 2, end - i - 1);
        System.arraycopy(reason, i + 1, reason, i + 2, end - i - 1);
        System.arraycopy(state, i + 1, state, i + 2, end - i - 1);
        end++;
        final int j = i + 1;
        from[j] = e;
        to[j] = to[i];
        deadline[j] = deadline[i];
        requestedTo[j] = Math.min(Math.max(requestedTo[i], e), to[i]);
        roundBase[j] = roundBase[i];
        followUpTo[j] = followUpTo[i] > e ? followUpTo[i] : 0;
        asked[j] = asked[i];
        attempts[j] = attempts[i];
        openedBy[j] = openedBy[i];
        reason[j] = reason[i];
        state[j] = state[i];
        to[i] = s;
        requestedTo[i] = Math.min(requestedTo[i], s);
        if (followUpTo[i] > s)
        {
            followUpTo[i] = s;
        }
        counters.gapOpened(openedBy[i]);
    }

    private void removeInside(final int i)
    {
        final int after = end - i - 1;
        System.arraycopy(from, i + 1, from, i, after);
        System.arraycopy(to, i + 1, to, i, after);
        System.arraycopy(deadline, i + 1, deadline, i, after);
        System.arraycopy(requestedTo, i + 1, requestedTo, i, after);
        System.arraycopy(roundBase, i + 1, roundBase, i, after);
        System.arraycopy(followUpTo, i + 1, followUpTo, i, after);
        System.arraycopy(asked, i + 1, asked, i, after);
        System.arraycopy(attempts, i + 1, attempts, i, after);
        System.arraycopy(openedBy, i + 1, openedBy, i, after);
        System.arraycopy(reason, i + 1, reason, i, after);
        System.arraycopy(state, i + 1, state, i, after);
        end--;
    }

    /** Moves the gaps to the start of the arrays when the end is reached; the caller made sure one is free. */
    private void makeRoomAtEnd()
    {
        if (end == capacity && start > 0)
        {
            final int size = end - start;
            System.arraycopy(from, start, from, 0, size);
            System.arraycopy(to, start, to, 0, size);
            System.arraycopy(deadline, start, deadline, 0, size);
            System.arraycopy(requestedTo, start, requestedTo, 0, size);
            System.arraycopy(roundBase, start, roundBase, 0, size);
            System.arraycopy(followUpTo, start, followUpTo, 0, size);
            System.arraycopy(asked, start, asked, 0, size);
            System.arraycopy(attempts, start, attempts, 0, size);
            System.arraycopy(openedBy, start, openedBy, 0, size);
            System.arraycopy(reason, start, reason, 0, size);
            System.arraycopy(state, start, state, 0, size);
            start = 0;
            end = size;
        }
    }
}
