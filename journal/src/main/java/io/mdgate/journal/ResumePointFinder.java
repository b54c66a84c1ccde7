package io.mdgate.journal;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Optional;

/**
 * Computes the {@link ResumePoint} from the tick queue alone, so that nothing but the queue has to survive a crash
 * consistently with it: the last tick (Chronicle never shows a document torn by a crash), and the SESSION tick of
 * that tick's session. Each tick is a document of its own, so the last ones may be the first ticks of a message whose
 * last tick (flagged {@code lastInMessage}) was never written: they are counted as {@link ResumePoint#partialTicks()}
 * and the point is at their message. More trailing ticks without the flag than one message makes (a journal written
 * before the flag existed) are taken as whole messages.
 * <p>
 * Finding the SESSION tick reads a handful of ticks, not the session: session numbers never decrease through a
 * journal (a new session is one more, a resumed one keeps its number) and a session's first tick is its SESSION
 * tick, so a binary search for the first tick carrying the number lands on it. What it finds is checked (a SESSION
 * tick of that number); when the check fails (a journal whose numbers do not rise, e.g. older ticks carrying the
 * same number) the ticks are read backwards from the end, as long as they carry the session's number.
 * <p>
 * Ticks written before SESSION ticks existed carry session number 0: their journal gives no resume point.
 * Start-up only; not thread-safe.
 */
final class ResumePointFinder
{
    /** Ticks read forward at a time by the backward scan. */
    static final int SCAN_CHUNK = 4096;

    private static final ByteOrder ORDER = TickEncoder.BYTE_ORDER;
    private static final int EXCHANGE_SEQUENCE_OFFSET = TickEncoder.exchangeSequenceEncodingOffset();
    private static final int ORDER_REFERENCE_OFFSET = TickEncoder.orderReferenceEncodingOffset();
    private static final int MATCH_OFFSET = TickEncoder.matchOrNewReferenceEncodingOffset();
    private static final int SESSION_ID_OFFSET = TickEncoder.sessionIdEncodingOffset();
    private static final int EVENT_TYPE_OFFSET = TickEncoder.eventTypeEncodingOffset();
    private static final int SESSION = EventType.SESSION.value();
    private static final int GAP = EventType.GAP.value();
    private static final int FLAGS_OFFSET = TickEncoder.flagsEncodingOffset();
    private static final short LAST_IN_MESSAGE = TickFlagsEncoder.lastInMessage((short)0, true);
    /** Most ticks one message is normalized into (the event, three LEVEL ticks, a top of book per side). */
    static final int MAX_TICKS_PER_MESSAGE = 6;
    static final long NOT_FOUND = -1;

    private ResumePointFinder()
    {
    }

    /**
     * @param replay a replay of the tick queue.
     * @return the resume point, or empty for an empty journal or one whose last session has no SESSION tick.
     * @throws JournalDamagedException when a tick the index promises cannot be read.
     */
    static Optional<ResumePoint> find(final TickReplay replay)
    {
        final long total = replay.count();
        if (total == 0)
        {
            return Optional.empty();
        }
        final UnsafeBuffer last = replay.tickAt(total - 1);
        final long nextGatewaySequence = last.getLong(TickReplay.SEQUENCE_OFFSET, ORDER) + 1;
        final int session = sessionOf(last);
        final long lastExchangeTimestamp = last.getLong(TickReplay.EXCHANGE_TIME_OFFSET, ORDER);
        if (session == 0)
        {
            return Optional.empty();
        }
        final long lastExchangeSequence = last.getLong(EXCHANGE_SEQUENCE_OFFSET, ORDER);
        final long afterLast = nextExchangeSequence(last);
        // Reads more ticks into the replay's one buffer: nothing of the last tick is read after this.
        final int partial = partialTicks(replay, total);
        final long nextExchangeSequence = partial > 0 ? lastExchangeSequence : afterLast;
        final long start = sessionStart(replay, total, session);
        if (start == NOT_FOUND)
        {
            return Optional.empty();
        }
        final UnsafeBuffer sessionTick = replay.tickAt(start);
        return Optional.of(new ResumePoint(nextGatewaySequence, session, nameOf(sessionTick), nextExchangeSequence,
            lastExchangeTimestamp, sessionTick.getLong(TickReplay.SEQUENCE_OFFSET, ORDER), partial));
    }

    /**
     * @return how many ticks at the end belong to a message whose last tick is missing: those after the last tick
     * flagged {@code lastInMessage}, all of one ordinary event's exchange sequence and session; 0 when the last tick
     * ends its message, or when more than one message's worth carry no flag (the flag not in use).
     */
    static int partialTicks(final TickReplay replay, final long total)
    {
        final UnsafeBuffer last = replay.tickAt(total - 1);
        if (endsMessage(last))
        {
            return 0;
        }
        final long sequence = last.getLong(EXCHANGE_SEQUENCE_OFFSET, ORDER);
        final int session = sessionOf(last);
        int partial = 1;
        for (long ordinal = total - 2; ordinal >= 0 && partial <= MAX_TICKS_PER_MESSAGE; ordinal--)
        {
            final UnsafeBuffer tick = replay.tickAt(ordinal);
            if (endsMessage(tick))
            {
                return partial < MAX_TICKS_PER_MESSAGE ? partial : 0;
            }
            if (tick.getLong(EXCHANGE_SEQUENCE_OFFSET, ORDER) != sequence || sessionOf(tick) != session)
            {
                return 0;
            }
            partial++;
        }
        return 0;
    }

    /** @return true for a tick flagged last of its message, and for SESSION and GAP ticks, which are whole. */
    private static boolean endsMessage(final UnsafeBuffer tick)
    {
        final int type = tick.getByte(EVENT_TYPE_OFFSET) & 0xFF;
        return type == SESSION || type == GAP || (tick.getShort(FLAGS_OFFSET, ORDER) & LAST_IN_MESSAGE) != 0;
    }

    /** @return one past the last exchange message the tick accounts for. */
    static long nextExchangeSequence(final UnsafeBuffer tick)
    {
        final long sequence = tick.getLong(EXCHANGE_SEQUENCE_OFFSET, ORDER);
        final int type = tick.getByte(EVENT_TYPE_OFFSET) & 0xFF;
        if (type == SESSION)
        {
            return sequence;
        }
        return type == GAP ? sequence + tick.getLong(MATCH_OFFSET, ORDER) : sequence + 1;
    }

    /**
     * @param end     one past the ordinal of a tick of the session: the search looks at the ticks before it.
     * @param session the session's number.
     * @return the ordinal of the session's SESSION tick, or {@link #NOT_FOUND}.
     */
    static long sessionStart(final TickReplay replay, final long end, final int session)
    {
        long low = 0;
        long high = end - 1;
        while (low < high)
        {
            final long middle = (low + high) >>> 1;
            if (sessionOf(replay.tickAt(middle)) < session)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        if (isSessionTick(replay.tickAt(low), session))
        {
            return low;
        }
        return scanBackwards(replay, end, session);
    }

    /**
     * Reads the ticks from {@code before} backwards, in chunks read forwards, while they carry the session's number.
     *
     * @return the ordinal of the SESSION tick that starts that run, or {@link #NOT_FOUND}.
     */
    private static long scanBackwards(final TickReplay replay, final long before, final int session)
    {
        long end = before;
        while (end > 0)
        {
            final long from = Math.max(0, end - SCAN_CHUNK);
            long lastOther = NOT_FOUND;
            long lastStart = NOT_FOUND;
            replay.moveTo(from);
            for (long ordinal = from; ordinal < end; ordinal++)
            {
                final UnsafeBuffer tick = replay.nextTick(ordinal);
                if (sessionOf(tick) != session)
                {
                    lastOther = ordinal;
                }
                else if (isSessionTick(tick, session))
                {
                    lastStart = ordinal;
                }
            }
            if (lastStart != NOT_FOUND && lastStart > lastOther)
            {
                return lastStart;
            }
            if (lastOther != NOT_FOUND)
            {
                return NOT_FOUND;
            }
            end = from;
        }
        return NOT_FOUND;
    }

    private static boolean isSessionTick(final UnsafeBuffer tick, final int session)
    {
        return (tick.getByte(EVENT_TYPE_OFFSET) & 0xFF) == SESSION && sessionOf(tick) == session;
    }

    static int sessionOf(final UnsafeBuffer tick)
    {
        return tick.getShort(SESSION_ID_OFFSET, ORDER) & 0xFFFF;
    }

    /** @return the 10-byte name a SESSION tick carries: bytes 0..7 in orderReference, 8..9 in matchOrNewReference. */
    private static byte[] nameOf(final UnsafeBuffer tick)
    {
        final byte[] name = new byte[ResumePoint.SESSION_NAME_LENGTH];
        final UnsafeBuffer view = new UnsafeBuffer(name);
        view.putLong(0, tick.getLong(ORDER_REFERENCE_OFFSET, ORDER), ByteOrder.LITTLE_ENDIAN);
        view.putShort(8, (short)tick.getLong(MATCH_OFFSET, ORDER), ByteOrder.LITTLE_ENDIAN);
        return name;
    }
}
