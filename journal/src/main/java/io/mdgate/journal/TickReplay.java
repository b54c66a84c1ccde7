package io.mdgate.journal;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the tick queue: finds ticks by gateway sequence or exchange time with a binary search over the queue's
 * index (never a scan from the start), and replays a range to a {@link TickHandler} as fast as the handler takes
 * them (wrap the handler in a {@link PacedTickHandler} for the recorded pace). This is the API consumer recovery
 * uses: {@link #replay(long, long, TickHandler)}.
 * <p>
 * Every tick read is checked: 64 bytes long, and each one's sequence the one after its predecessor's. A record that
 * fails, or a record the index promises but the file cannot give, stops the replay with a
 * {@link JournalDamagedException} naming the file: data is never skipped silently. Exchange times are taken to
 * never go backwards through the journal, as they do not within and across sessions.
 * <p>
 * Allocation-free per tick. Threading: not thread-safe; an instance belongs to the thread that first uses it. Create
 * one per thread ({@link TickJournal#newTickReplay()}, {@link JournalReader#newTickReplay()}); they may run while the
 * journal is being written and see the ticks journaled when each call starts.
 */
public final class TickReplay implements AutoCloseable
{
    /** No such tick. */
    public static final long NO_SEQUENCE = -1;

    static final int TICK_LENGTH = TickEncoder.BLOCK_LENGTH;
    static final int SEQUENCE_OFFSET = TickEncoder.gatewaySequenceEncodingOffset();
    static final int EXCHANGE_TIME_OFFSET = TickEncoder.exchangeTimestampEncodingOffset();
    static final int RECEIVE_TIME_OFFSET = TickEncoder.receiveTimestampEncodingOffset();
    private static final int FLAGS_OFFSET = TickEncoder.flagsEncodingOffset();
    private static final short REPLAYED = TickFlagsEncoder.replayed((short)0, true);
    private static final ByteOrder ORDER = TickEncoder.BYTE_ORDER;

    private final UnsafeBuffer tick =
        new UnsafeBuffer(BufferUtil.allocateDirectAligned(TICK_LENGTH * 2, TICK_LENGTH), 0, TICK_LENGTH);
    private final QueueCursor cursor;
    private boolean markReplayed;

    TickReplay(final SingleChronicleQueue queue)
    {
        this.cursor = new QueueCursor(queue, tick, TickReplay::problem);
    }

    /**
     * @param markReplayed whether delivered ticks carry the {@code replayed} flag (default false: the ticks exactly
     *                     as journaled). Consumer recovery sets it.
     * @return this.
     */
    public TickReplay markReplayed(final boolean markReplayed)
    {
        this.markReplayed = markReplayed;
        return this;
    }

    /** @return gateway sequence of the first tick in the journal, or {@link #NO_SEQUENCE} when it has none. */
    public long firstSequence()
    {
        cursor.refresh();
        final int i = cursor.firstNonEmpty();
        return i < 0 ? NO_SEQUENCE : cursor.firstKey(i, SEQUENCE_OFFSET);
    }

    /** @return gateway sequence of the last tick journaled, or {@link #NO_SEQUENCE} when there is none. */
    public long lastSequence()
    {
        cursor.refresh();
        final int i = cursor.lastNonEmpty();
        return i < 0 ? NO_SEQUENCE : cursor.lastKey(i, SEQUENCE_OFFSET);
    }

    /** @return ticks in the journal. */
    public long count()
    {
        return cursor.refresh();
    }

    /**
     * @param epochNanos an exchange time.
     * @return the sequence of the first tick at or after that time, or {@link #NO_SEQUENCE} when every tick is earlier.
     */
    public long sequenceAtOrAfter(final long epochNanos)
    {
        final long total = cursor.refresh();
        final long ordinal = cursor.lowerBound(EXCHANGE_TIME_OFFSET, epochNanos);
        return ordinal == total ? NO_SEQUENCE : sequenceAt(ordinal);
    }

    /**
     * @param epochNanos an exchange time.
     * @return the sequence of the last tick at or before that time, or {@link #NO_SEQUENCE} when every tick is later.
     */
    public long sequenceAtOrBefore(final long epochNanos)
    {
        final long total = cursor.refresh();
        if (epochNanos == Long.MAX_VALUE)
        {
            return total == 0 ? NO_SEQUENCE : sequenceAt(total - 1);
        }
        final long ordinal = cursor.lowerBound(EXCHANGE_TIME_OFFSET, epochNanos + 1);
        return ordinal == 0 ? NO_SEQUENCE : sequenceAt(ordinal - 1);
    }

    /**
     * Copies one tick.
     *
     * @param sequence its gateway sequence.
     * @param dst      receives the 64 bytes.
     * @param offset   where in dst.
     * @return whether the journal holds it.
     */
    public boolean read(final long sequence, final MutableDirectBuffer dst, final int offset)
    {
        final long total = cursor.refresh();
        final long ordinal = cursor.lowerBound(SEQUENCE_OFFSET, sequence);
        if (ordinal == total || readSequence(ordinal) != sequence)
        {
            return false;
        }
        dst.putBytes(offset, tick, 0, TICK_LENGTH);
        return true;
    }

    /**
     * Finds where the session of a tick starts, as a restart does ({@link ResumePointFinder}): a binary search for the
     * session's first tick (session numbers never decrease through a journal), checked to be its SESSION tick; when
     * the check fails, the ticks before are read backwards while they carry the session's number. In a well-formed
     * journal that reads a few dozen ticks, however long the session.
     *
     * @param sequence gateway sequence of a tick in the journal.
     * @return the gateway sequence of the SESSION tick that starts the tick's session, or {@link #NO_SEQUENCE} when
     *         the tick is not in the journal, or its session's start is not (removed by retention, or a journal
     *         written before SESSION ticks existed, whose ticks carry session 0).
     * @throws JournalDamagedException when a tick the index promises cannot be read.
     */
    public long sessionStartOf(final long sequence)
    {
        final long total = cursor.refresh();
        final long ordinal = cursor.lowerBound(SEQUENCE_OFFSET, sequence);
        if (ordinal == total || readSequence(ordinal) != sequence)
        {
            return NO_SEQUENCE;
        }
        final int session = ResumePointFinder.sessionOf(tick);
        final long start = session == 0 ? ResumePointFinder.NOT_FOUND :
            ResumePointFinder.sessionStart(this, ordinal + 1, session);
        return start == ResumePointFinder.NOT_FOUND ? NO_SEQUENCE : readSequence(start);
    }

    /**
     * Delivers, in order, the ticks of the range that are in the journal: those from {@code max(fromSequence,
     * first)} to {@code min(toSequence, last journaled)}. A consumer asking for ticks older than the journal keeps
     * (retention) gets the part that remains and sees from the first sequence where it starts.
     *
     * @param fromSequence first gateway sequence wanted.
     * @param toSequence   last gateway sequence wanted, inclusive.
     * @param handler      receives each tick; the bytes are valid during the call only.
     * @return ticks delivered.
     * @throws JournalDamagedException when a record in the range is damaged or missing; ticks before it were delivered.
     */
    public long replay(final long fromSequence, final long toSequence, final TickHandler handler)
    {
        if (cursor.refresh() == 0 || fromSequence > toSequence)
        {
            return 0;
        }
        final long from = Math.max(fromSequence, cursor.firstKey(cursor.firstNonEmpty(), SEQUENCE_OFFSET));
        final long to = Math.min(toSequence, cursor.lastKey(cursor.lastNonEmpty(), SEQUENCE_OFFSET));
        if (from > to)
        {
            return 0;
        }
        final long ordinal = cursor.lowerBound(SEQUENCE_OFFSET, from);
        final long found = ordinal == cursor.total() ? NO_SEQUENCE : readSequence(ordinal);
        if (found != from)
        {
            throw new JournalDamagedException(cursor.currentFile(), "tick " + from + " is not where the index says " +
                "(found " + (found == NO_SEQUENCE ? "none" : Long.toString(found)) + ")");
        }
        deliver(handler);
        long expected = from + 1;
        while (expected <= to)
        {
            final int length = cursor.next();
            if (length == QueueCursor.NO_RECORD)
            {
                throw new JournalDamagedException(cursor.currentFile(), "reading stops after tick " + (expected - 1) +
                    " although the journal holds ticks up to " + to);
            }
            final long sequence = tick.getLong(SEQUENCE_OFFSET, ORDER);
            if (sequence != expected)
            {
                throw new JournalDamagedException(cursor.currentFile(), cursor.lastReadDescription() + " holds tick " +
                    sequence + " where tick " + expected + " should follow");
            }
            deliver(handler);
            expected++;
        }
        return to - from + 1;
    }

    /**
     * Delivers the ticks whose exchange time is in the range, in order.
     *
     * @param fromEpochNanos earliest exchange time, inclusive.
     * @param toEpochNanos   latest exchange time, inclusive.
     * @param handler        receives each tick.
     * @return ticks delivered.
     */
    public long replayByTime(final long fromEpochNanos, final long toEpochNanos, final TickHandler handler)
    {
        if (fromEpochNanos > toEpochNanos)
        {
            return 0;
        }
        final long from = sequenceAtOrAfter(fromEpochNanos);
        final long to = sequenceAtOrBefore(toEpochNanos);
        if (from == NO_SEQUENCE || to == NO_SEQUENCE || from > to)
        {
            return 0;
        }
        return replay(from, to, handler);
    }

    /**
     * Checks each cycle's first and last tick (length, count against the sequence span, continuity with the previous
     * cycle) and summarises it. Reads two ticks per cycle.
     *
     * @return the cycles, oldest first.
     * @throws JournalDamagedException at the first inconsistency.
     */
    public List<CycleSummary> cycles()
    {
        cursor.refresh();
        final List<CycleSummary> result = new ArrayList<>(cursor.cycleCount());
        long previousLast = NO_SEQUENCE;
        for (int i = 0; i < cursor.cycleCount(); i++)
        {
            final long records = cursor.recordsInCycle(i);
            final Path file = cursor.file(i);
            if (records == 0)
            {
                result.add(new CycleSummary(cursor.cycle(i), file, file.toFile().length(), 0, NO_SEQUENCE,
                    NO_SEQUENCE, 0, 0));
                continue;
            }
            final long first = cursor.firstKey(i, SEQUENCE_OFFSET);
            final long last = cursor.lastKey(i, SEQUENCE_OFFSET);
            if (last - first + 1 != records)
            {
                throw new JournalDamagedException(file, "it holds " + records + " records but its ticks run from " +
                    first + " to " + last);
            }
            if (previousLast != NO_SEQUENCE && first != previousLast + 1)
            {
                throw new JournalDamagedException(file, "its first tick is " + first + " but the previous cycle ends " +
                    "at " + previousLast + (first > previousLast ? " (ticks " + (previousLast + 1) + ".." +
                    (first - 1) + " are missing: a cycle file was removed?)" : ""));
            }
            previousLast = last;
            result.add(new CycleSummary(cursor.cycle(i), file, file.toFile().length(), records, first, last,
                cursor.firstKey(i, EXCHANGE_TIME_OFFSET), cursor.lastKey(i, EXCHANGE_TIME_OFFSET)));
        }
        return result;
    }

    @Override
    public void close()
    {
        cursor.close();
    }

    private void deliver(final TickHandler handler)
    {
        if (markReplayed)
        {
            tick.putShort(FLAGS_OFFSET, (short)(tick.getShort(FLAGS_OFFSET, ORDER) | REPLAYED), ORDER);
        }
        handler.onTick(tick, 0);
    }

    /** @return the sequence of the tick with this ordinal, from the cache when it starts or ends a cycle. */
    private long sequenceAt(final long ordinal)
    {
        for (int i = 0; i < cursor.cycleCount(); i++)
        {
            final long records = cursor.recordsInCycle(i);
            final long first = cursor.firstOrdinalOfCycle(i);
            if (records > 0 && ordinal == first)
            {
                return cursor.firstKey(i, SEQUENCE_OFFSET);
            }
            if (records > 0 && ordinal == first + records - 1)
            {
                return cursor.lastKey(i, SEQUENCE_OFFSET);
            }
        }
        return readSequence(ordinal);
    }

    /**
     * @param ordinal 0 for the oldest tick, {@link #count()} - 1 for the newest (as of the last refresh).
     * @return the buffer holding a copy of that tick, valid until the next read.
     * @throws JournalDamagedException when the index promises the tick but the file cannot give it.
     */
    UnsafeBuffer tickAt(final long ordinal)
    {
        readSequence(ordinal);
        return tick;
    }

    /**
     * Reads on from a position: {@link #moveTo(long)}, then {@link #nextTick()} for each tick in order.
     *
     * @throws JournalDamagedException when the index promises the tick but the file cannot give it.
     */
    void moveTo(final long ordinal)
    {
        if (!cursor.moveTo(ordinal))
        {
            throw cursor.promised(ordinal);
        }
    }

    /**
     * @return the buffer holding the next tick after the last one read, valid until the next read.
     * @throws JournalDamagedException when there is none although the index promised one.
     */
    UnsafeBuffer nextTick(final long expectedOrdinal)
    {
        if (cursor.next() == QueueCursor.NO_RECORD)
        {
            throw cursor.promised(expectedOrdinal);
        }
        return tick;
    }

    /** Reads the tick with this ordinal into {@link #tick} and returns its sequence. */
    private long readSequence(final long ordinal)
    {
        if (cursor.readAt(ordinal) == QueueCursor.NO_RECORD)
        {
            throw cursor.promised(ordinal);
        }
        return tick.getLong(SEQUENCE_OFFSET, ORDER);
    }

    private static String problem(final UnsafeBuffer record, final int length)
    {
        return length == TICK_LENGTH ? null : "is " + length + " bytes long where a tick has " + TICK_LENGTH;
    }
}
