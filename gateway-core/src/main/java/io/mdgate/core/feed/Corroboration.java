package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64Descriptor;
import org.agrona.DirectBuffer;

/**
 * What a {@link FeedSession} has seen of something it does not trust yet (a session name it has not accepted, or a
 * sequence far ahead of what it knows), and whether that corroborates it. Real lines A and B carry identical
 * packets, and a live line sends each packet where the one before it ended; a stray (a bit-flipped or far-ahead
 * copy of some real packet, sent now and then) does neither. So it is corroborated only by
 * <ul>
 *   <li>the same packet on both lines: the same sequence, message count and messages (by a hash of the payload),
 *   the two copies no more than the match window apart; or</li>
 *   <li>a run of {@code confirmPackets} consecutive packets of one line, each starting where the one before on that
 *   line ended (a heartbeat at the next sequence counts) and arriving within the run gap of it; a packet of that
 *   line that does not continue the run, or comes too late, starts a new one.</li>
 * </ul>
 * Strays on both lines are different packets, and strays spread over time neither continue one another nor come
 * close enough together, so no number of them adds up to corroboration. The last {@link #REMEMBERED} packets of
 * each line are remembered for the match, so a line lagging the other by up to that many packets still matches.
 * <p>
 * It also keeps the range of sequences seen: a packet more than the plausibility window from it starts the range
 * again and takes back a corroboration reached before (the packets remembered and the runs stay: they match exactly
 * or not at all).
 * <p>
 * Allocation-free after construction. Not thread-safe: owned by one session.
 */
final class Corroboration
{
    /** Packets of each line remembered to match the other line's copies against. */
    static final int REMEMBERED = 32;

    private static final int HEADER_LENGTH = MoldUdp64Descriptor.HEADER_LENGTH;
    private static final long MIX = 0x9E37_79B9_7F4A_7C15L;

    private final long plausibleWindow;
    private final int runLength;
    private final long matchNanos;
    private final long runGapNanos;

    private final long[] sequences = new long[2 * REMEMBERED];
    private final int[] counts = new int[2 * REMEMBERED];
    private final long[] hashes = new long[2 * REMEMBERED];
    private final long[] times = new long[2 * REMEMBERED];
    private final int[] remembered = new int[2];
    private final int[] nextEntry = new int[2];
    private final int[] run = new int[2];
    private final long[] runNext = new long[2];
    private final long[] runTime = new long[2];

    private boolean active;
    private boolean corroborated;
    private long lowest;
    private long highest;
    private int lastLine;
    private long lastTimestamp;

    /**
     * @param plausibleWindow how far from the range seen a packet may be and still agree with it.
     * @param runLength       consecutive packets of one line that corroborate.
     * @param matchNanos      how far apart in time the two lines' copies of a packet may arrive.
     * @param runGapNanos     how long after the packet before it a packet may arrive and still continue a run.
     */
    Corroboration(final long plausibleWindow, final int runLength, final long matchNanos, final long runGapNanos)
    {
        this.plausibleWindow = plausibleWindow;
        this.runLength = runLength;
        this.matchNanos = matchNanos;
        this.runGapNanos = runGapNanos;
    }

    boolean isActive()
    {
        return active;
    }

    void clear()
    {
        active = false;
        corroborated = false;
        for (int line = FeedLines.A; line <= FeedLines.B; line++)
        {
            remembered[line] = 0;
            nextEntry[line] = 0;
            run[line] = 0;
        }
    }

    /**
     * Adds one well-formed packet of line A or B.
     *
     * @param sequence  the packet's first sequence (the next one, for a heartbeat or an end of session).
     * @param count     its message count, as in its header.
     * @param hash      {@link #hash} of the packet.
     * @param timestamp the packet's receive time, kept for {@link #lastTimestamp()}.
     * @param now       the session's clock, which times the match and the run.
     */
    void add(final int line, final long sequence, final int count, final long hash, final long timestamp,
        final long now)
    {
        final long end = count == MoldUdp64Descriptor.END_OF_SESSION_COUNT ? sequence : sequence + count;
        if (!active || sequence - highest > plausibleWindow || lowest - sequence > plausibleWindow)
        {
            if (!active)
            {
                clear();
            }
            active = true;
            corroborated = false;
            lowest = sequence;
            highest = end;
        }
        final boolean matched = matchesOtherLine(line, sequence, count, hash, now);
        final boolean runReached = continuesRun(line, sequence, end, now);
        if (matched || runReached)
        {
            corroborated = true;
        }
        remember(line, sequence, count, hash, now);
        lowest = Math.min(lowest, sequence);
        highest = Math.max(highest, end);
        lastLine = line;
        lastTimestamp = timestamp;
    }

    private boolean matchesOtherLine(final int line, final long sequence, final int count, final long hash,
        final long now)
    {
        final int other = FeedLines.B - line;
        final int base = other * REMEMBERED;
        for (int i = base, limit = base + remembered[other]; i < limit; i++)
        {
            if (sequences[i] == sequence && counts[i] == count && hashes[i] == hash && now - times[i] <= matchNanos)
            {
                return true;
            }
        }
        return false;
    }

    /** @return true once the line's run reaches the run length. */
    private boolean continuesRun(final int line, final long sequence, final long end, final long now)
    {
        if (run[line] > 0 && sequence == runNext[line] && now - runTime[line] <= runGapNanos)
        {
            run[line]++;
        }
        else
        {
            run[line] = 1;
        }
        runNext[line] = end;
        runTime[line] = now;
        return run[line] >= runLength;
    }

    private void remember(final int line, final long sequence, final int count, final long hash, final long now)
    {
        final int i = line * REMEMBERED + nextEntry[line];
        sequences[i] = sequence;
        counts[i] = count;
        hashes[i] = hash;
        times[i] = now;
        nextEntry[line] = nextEntry[line] == REMEMBERED - 1 ? 0 : nextEntry[line] + 1;
        if (remembered[line] < REMEMBERED)
        {
            remembered[line]++;
        }
    }

    /** @return true once both lines carried the same packet, or one line a run of consecutive packets of it. */
    boolean isCorroborated()
    {
        return active && corroborated;
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

    /**
     * @return a hash of a packet's messages (everything after its header) and their length, for telling two copies
     * of one packet from two packets that share a sequence and count.
     */
    static long hash(final DirectBuffer buffer, final int offset, final int length)
    {
        long h = length * MIX;
        int i = HEADER_LENGTH;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            h = Long.rotateLeft((h ^ buffer.getLong(offset + i)) * MIX, 29);
        }
        for (; i < length; i++)
        {
            h = Long.rotateLeft((h ^ buffer.getByte(offset + i)) * MIX, 29);
        }
        return h ^ (h >>> 31);
    }
}
