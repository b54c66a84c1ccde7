package io.mdgate.core.capture;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.FeedSessionListener;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64Descriptor;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Runs a capture's A and B line packets through one {@link FeedSession}, the same class and the same decisions as
 * the live gateway, with the capture's time as the session's clock: before each packet the session's duty cycle
 * runs at the packet's capture time ({@link FeedSession#doWork(long)}), so a gap waits for the other line exactly as
 * long, in capture time, as it would have live. There is no re-request server offline: a gap neither line fills
 * within the wait is declared lost, one {@link io.mdgate.core.feed.GapHandler#onGapDeclared} call in its place, as
 * live without a re-request server. {@link #finish()} lets the wait of every gap still open run out at the end.
 * <p>
 * Around the session it keeps what a decode summary reports and the session does not count itself: the gaps
 * declared (the first {@link #MAX_GAP_RANGES}), the sessions started, packets of other sessions per session id,
 * packets that added nothing, packets held after a gap and packets with sequence 0. These are read from how the
 * session's own counters moved on each packet, so they follow whatever the session decides (which session it
 * accepts, what it drops) rather than deciding anything themselves.
 * <p>
 * Allocation-free after construction. Threading: not thread-safe; one reader thread feeds it and reads it.
 */
public final class CaptureFeed implements PacketHandler
{
    /** Gap ranges kept; the count of gaps and missing messages goes on beyond them. */
    public static final int MAX_GAP_RANGES = DecodeSummary.MAX_GAP_RANGES;
    /** Session ids kept, for the sessions started and for the other sessions whose packets were dropped. */
    public static final int MAX_SESSIONS = 8;

    private static final int SESSION_LENGTH = MoldUdp64Descriptor.SESSION_LENGTH;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private final FeedSession session;
    private final FeedSessionListener next;
    private final long gapWaitNanos;
    private final SessionIds started = new SessionIds();
    private final SessionIds others = new SessionIds();
    private final long[] gapFirst = new long[MAX_GAP_RANGES];
    private final long[] gapCount = new long[MAX_GAP_RANGES];
    private long gaps;
    private long missingMessages;
    private long duplicatePackets;
    private long heldPackets;
    private long unsequencedPackets;
    private long nowNanos = Long.MIN_VALUE;
    private boolean endOfSession;

    /**
     * @param context the session's settings with its message and gap handlers set; its listener, if any, is told
     *                of every event after this feed noted it. It must have no re-request server: offline there is
     *                none.
     * @throws IllegalArgumentException when a setting is out of range (see {@link FeedSession.Context#conclude()})
     *                                  or a re-request server is set.
     */
    public CaptureFeed(final FeedSession.Context context)
    {
        if (null != context.requester())
        {
            throw new IllegalArgumentException("a capture is read without a re-request server; set no requester");
        }
        this.next = context.listener();
        this.gapWaitNanos = context.gapWaitNanos();
        this.session = new FeedSession(context.listener(new Listener()));
    }

    /**
     * One packet of line A or B, in capture order: runs the session's duty cycle at the packet's capture time (never
     * going back: a capture time earlier than the previous one counts as the previous one), then gives it the packet.
     *
     * @param line                  {@link FeedLines#A} or {@link FeedLines#B}.
     * @param captureTimestampNanos when the packet was captured, ns since the epoch; also its receive time.
     */
    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long captureTimestampNanos)
    {
        advanceTo(captureTimestampNanos);
        session.doWork(nowNanos);
        if (line < FeedLines.A || line > FeedLines.B)
        {
            session.onPacket(line, buffer, offset, length, captureTimestampNanos);
            return;
        }
        final long malformed = session.malformed(line);
        final long duplicates = session.duplicates(line);
        final long messages = session.messages(line);
        final long other = session.otherSessionPackets();
        final int held = session.heldPackets();
        session.onPacket(line, buffer, offset, length, captureTimestampNanos);
        if (session.malformed(line) != malformed)
        {
            unsequencedPackets += sequenceIsZero(buffer, offset, length) ? 1 : 0;
            return;
        }
        if (session.otherSessionPackets() != other)
        {
            others.count(buffer, offset);
            return;
        }
        if (session.heldPackets() > held)
        {
            heldPackets++;
        }
        else if (session.messages(line) == messages && session.duplicates(line) != duplicates)
        {
            duplicatePackets++;
        }
    }

    /**
     * The end of the capture: time moves on by the gap wait, as it would for a live session after the last packet,
     * so every gap still open is declared lost and what was held after it is delivered.
     */
    public void finish()
    {
        if (nowNanos == Long.MIN_VALUE)
        {
            return;
        }
        advanceTo(nowNanos + gapWaitNanos);
        session.doWork(nowNanos);
    }

    private void advanceTo(final long timestampNanos)
    {
        if (timestampNanos > nowNanos)
        {
            nowNanos = timestampNanos;
        }
    }

    private static boolean sequenceIsZero(final DirectBuffer buffer, final int offset, final int length)
    {
        return length >= MoldUdp64Descriptor.HEADER_LENGTH && offset >= 0 && length <= buffer.capacity() - offset &&
            buffer.getLong(offset + MoldUdp64Descriptor.SEQUENCE_NUMBER_OFFSET, BE) == 0;
    }

    /** @return the session the packets went through; read it on the feeding thread. */
    public FeedSession session()
    {
        return session;
    }

    /** @return gaps declared lost. */
    public long gaps()
    {
        return gaps;
    }

    /** @return messages in the gaps declared lost. */
    public long missingMessages()
    {
        return missingMessages;
    }

    /** @return gap ranges kept, at most {@link #MAX_GAP_RANGES}. */
    public int gapRanges()
    {
        return (int)Math.min(gaps, MAX_GAP_RANGES);
    }

    /** @return the first lost sequence of a kept gap. */
    public long gapFirst(final int index)
    {
        return gapFirst[index];
    }

    /** @return how many messages a kept gap lost. */
    public long gapCount(final int index)
    {
        return gapCount[index];
    }

    /** @return data packets of lines A and B whose every message had already been received. */
    public long duplicatePackets()
    {
        return duplicatePackets;
    }

    /**
     * @return packets the session held after a gap, waiting for it to fill (a packet held while the hold overflowed,
     * releasing others, is not counted).
     */
    public long heldPackets()
    {
        return heldPackets;
    }

    /** @return packets with sequence number 0, which MoldUDP64 never assigns, dropped by the session as malformed. */
    public long unsequencedPackets()
    {
        return unsequencedPackets;
    }

    /** @return true once everything up to an end-of-session marker was delivered or declared lost. */
    public boolean endOfSession()
    {
        return endOfSession;
    }

    /** @return sessions started, at most {@link #MAX_SESSIONS} kept by id. */
    public int sessionsStarted()
    {
        return started.size;
    }

    /** @return the id of a session started, as text without padding; allocates, for reports. */
    public String sessionStarted(final int index)
    {
        return started.text(index);
    }

    /** @return ids of other sessions whose packets the session dropped, at most {@link #MAX_SESSIONS}. */
    public int otherSessions()
    {
        return others.size;
    }

    /** @return an other session's id as text without padding; allocates, for reports. */
    public String otherSession(final int index)
    {
        return others.text(index);
    }

    /** @return packets of that other session dropped. */
    public long otherSessionPackets(final int index)
    {
        return others.packets[index];
    }

    /** @return packets of other sessions beyond the first {@link #MAX_SESSIONS} ids. */
    public long otherSessionOverflowPackets()
    {
        return others.overflowPackets;
    }

    /** Session ids seen, with a packet count each; a fixed table, so nothing is allocated while counting. */
    private static final class SessionIds
    {
        private final byte[][] ids = new byte[MAX_SESSIONS][SESSION_LENGTH];
        private final long[] packets = new long[MAX_SESSIONS];
        private int size;
        private long overflowPackets;

        void count(final DirectBuffer buffer, final int offset)
        {
            for (int i = 0; i < size; i++)
            {
                if (matches(ids[i], buffer, offset))
                {
                    packets[i]++;
                    return;
                }
            }
            if (size < MAX_SESSIONS)
            {
                buffer.getBytes(offset, ids[size]);
                packets[size++] = 1;
            }
            else
            {
                overflowPackets++;
            }
        }

        String text(final int index)
        {
            return MoldUdp64Session.text(ids[index]);
        }

        private static boolean matches(final byte[] id, final DirectBuffer buffer, final int offset)
        {
            for (int i = 0; i < SESSION_LENGTH; i++)
            {
                if (id[i] != buffer.getByte(offset + i))
                {
                    return false;
                }
            }
            return true;
        }
    }

    /** Notes the session's events for the summary, then passes them on. Called on the feeding thread. */
    private final class Listener implements FeedSessionListener
    {
        @Override
        public void onSessionStarted(
            final int sessionNumber, final DirectBuffer sessionId, final int offset, final long nextSequence)
        {
            started.count(sessionId, offset);
            endOfSession = false;
            next.onSessionStarted(sessionNumber, sessionId, offset, nextSequence);
        }

        @Override
        public void onGapDeclared(final long firstSequence, final long count, final int reason)
        {
            if (gaps < MAX_GAP_RANGES)
            {
                gapFirst[(int)gaps] = firstSequence;
                gapCount[(int)gaps] = count;
            }
            gaps++;
            missingMessages += count;
            next.onGapDeclared(firstSequence, count, reason);
        }

        @Override
        public void onEndOfSession(final long nextSequence)
        {
            endOfSession = true;
            next.onEndOfSession(nextSequence);
        }

        @Override
        public void onLineStale(final int line)
        {
            next.onLineStale(line);
        }

        @Override
        public void onLineActive(final int line)
        {
            next.onLineActive(line);
        }
    }
}
