package io.mdgate.core.feed;

/**
 * What a {@link FeedSession} has seen of something it does not trust yet (a session name it has not accepted, or a
 * sequence far ahead of what it knows): the lines it came on, the longest run of consecutive packets on one line
 * (each starting where the one before on that line ended, as a live line sends them), and the range of sequences.
 * It is corroborated when both lines A and B showed it, or a run reached the configured length; one stray or
 * bit-flipped packet is neither. A packet too far from the range seen (more than the plausibility window) does not
 * agree with it and starts the evidence again.
 * <p>
 * Allocation-free. Not thread-safe: owned by one session.
 */
final class Corroboration
{
    private static final int BOTH_LINES = (1 << FeedLines.A) | (1 << FeedLines.B);

    private boolean active;
    private int lines;
    private int runLine;
    private long runNext;
    private int run;
    private long lowest;
    private long highest;
    private int lastLine;
    private long lastTimestamp;

    boolean isActive()
    {
        return active;
    }

    void clear()
    {
        active = false;
        lines = 0;
        run = 0;
    }

    /**
     * Adds one well-formed packet of line A or B.
     *
     * @param sequence  the packet's first sequence (the next one, for a heartbeat).
     * @param end       one past its last message (its sequence, for a heartbeat).
     * @param window    how far from the range seen a packet may be and still agree with it.
     * @param timestamp the packet's receive time.
     */
    void add(final int line, final long sequence, final long end, final long window, final long timestamp)
    {
        if (!active || sequence - highest > window || lowest - sequence > window)
        {
            active = true;
            lines = 0;
            runLine = line;
            run = 0;
            runNext = sequence;
            lowest = sequence;
            highest = end;
        }
        lines |= 1 << line;
        if (line == runLine && sequence == runNext)
        {
            run++;
        }
        else if (line == runLine || run < 2)
        {
            runLine = line;
            run = 1;
        }
        if (line == runLine)
        {
            runNext = end;
        }
        lowest = Math.min(lowest, sequence);
        highest = Math.max(highest, end);
        lastLine = line;
        lastTimestamp = timestamp;
    }

    /** @return true once both lines showed it, or one line sent {@code runLength} consecutive packets of it. */
    boolean isCorroborated(final int runLength)
    {
        return active && (lines == BOTH_LINES || run >= runLength);
    }

    /** @return the lowest sequence seen. */
    long lowest()
    {
        return lowest;
    }

    /** @return one past the highest sequence seen. */
    long highest()
    {
        return highest;
    }

    /** @return the line of the latest packet. */
    int lastLine()
    {
        return lastLine;
    }

    /** @return the receive time of the latest packet. */
    long lastTimestamp()
    {
        return lastTimestamp;
    }
}
