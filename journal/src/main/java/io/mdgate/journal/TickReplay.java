package io.mdgate.journal;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
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

    private final QueueCursor cursor;
    private final UnsafeBuffer tick =
        new UnsafeBuffer(BufferUtil.allocateDirectAligned(TICK_LENGTH * 2, TICK_LENGTH), 0, TICK_LENGTH);
    private boolean markReplayed;

    TickReplay(final SingleChronicleQueue queue)
    {
        this.cursor = new QueueCursor(queue);
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
        return cursor.refresh() == 0 ? NO_SEQUENCE : sequenceAt(0);
    }

    /** @return gateway sequence of the last tick journaled, or {@link #NO_SEQUENCE} when there is none. */
    public long lastSequence()
    {
        final long total = cursor.refresh();
        return total == 0 ? NO_SEQUENCE : sequenceAt(total - 1);
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
        final long ordinal = lowerBound(EXCHANGE_TIME_OFFSET, epochNanos, total);
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
        final long ordinal = lowerBound(EXCHANGE_TIME_OFFSET, epochNanos + 1, total);
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
        final long ordinal = lowerBound(SEQUENCE_OFFSET, sequence, total);
        if (ordinal == total || sequenceAt(ordinal) != sequence)
        {
            return false;
        }
        dst.putBytes(offset, tick, 0, TICK_LENGTH);
        return true;
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
        final long total = cursor.refresh();
        if (total == 0 || fromSequence > toSequence)
        {
            return 0;
        }
        final long first = sequenceAt(0);
        final long last = sequenceAt(total - 1);
        final long from = Math.max(fromSequence, first);
        final long to = Math.min(toSequence, last);
        if (from > to)
        {
            return 0;
        }
        final long ordinal = lowerBound(SEQUENCE_OFFSET, from, total);
        if (ordinal == total || sequenceAt(ordinal) != from)
        {
            throw new JournalDamagedException(cursor.currentFile(), "tick " + from + " is not where the index says " +
                "(found " + (ordinal == total ? "none" : Long.toString(sequenceAt(ordinal))) + ")");
        }
        cursor.moveTo(cursor.index(ordinal));
        return deliver(from, to, handler);
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
        final int[] cycles = cursor.cycles();
        final List<CycleSummary> result = new ArrayList<>(cycles.length);
        long previousLast = NO_SEQUENCE;
        for (int i = 0; i < cycles.length; i++)
        {
            final long records = cursor.recordsInCycle(i);
            final java.nio.file.Path file = cursor.cycleFile(cycles[i]);
            if (records == 0)
            {
                result.add(new CycleSummary(cycles[i], file, file.toFile().length(), 0, NO_SEQUENCE, NO_SEQUENCE,
                    0, 0));
                continue;
            }
            final long firstOrdinal = cursor.firstOrdinalOfCycle(i);
            final long first = sequenceAt(firstOrdinal);
            final long firstTime = tick.getLong(EXCHANGE_TIME_OFFSET, ORDER);
            final long last = sequenceAt(firstOrdinal + records - 1);
            final long lastTime = tick.getLong(EXCHANGE_TIME_OFFSET, ORDER);
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
            result.add(new CycleSummary(cycles[i], file, file.toFile().length(), records, first, last, firstTime,
                lastTime));
        }
        return result;
    }

    @Override
    public void close()
    {
        cursor.close();
    }

    private long deliver(final long from, final long to, final TickHandler handler)
    {
        long expected = from;
        while (expected <= to)
        {
            final int length = cursor.next(tick);
            if (length == QueueCursor.NO_RECORD)
            {
                throw new JournalDamagedException(cursor.currentFile(), "reading stops after tick " + (expected - 1) +
                    " although the journal holds ticks up to " + to);
            }
            checkTick(length, expected);
            if (markReplayed)
            {
                tick.putShort(FLAGS_OFFSET, (short)(tick.getShort(FLAGS_OFFSET, ORDER) | REPLAYED), ORDER);
            }
            handler.onTick(tick, 0);
            expected++;
        }
        return to - from + 1;
    }

    private void checkTick(final int length, final long expected)
    {
        if (length != TICK_LENGTH)
        {
            throw new JournalDamagedException(cursor.currentFile(), cursor.lastReadDescription() + " is " + length + " bytes long where a tick has " +
                TICK_LENGTH + " (expected tick " + expected + ")");
        }
        final long sequence = tick.getLong(SEQUENCE_OFFSET, ORDER);
        if (sequence != expected)
        {
            throw new JournalDamagedException(cursor.currentFile(), cursor.lastReadDescription() + " holds tick " + sequence + " where tick " + expected +
                " should follow");
        }
    }

    /** Reads the tick with this ordinal into {@link #tick} and returns its sequence. */
    private long sequenceAt(final long ordinal)
    {
        final int length = cursor.readAt(ordinal, tick);
        if (length == QueueCursor.NO_RECORD)
        {
            throw new JournalDamagedException(cursor.cycleFile(cursor.cycleOfOrdinal(ordinal)), "record " +
                cursor.positionInCycle(ordinal) + " of the cycle is in its index but cannot be read");
        }
        if (length != TICK_LENGTH)
        {
            throw new JournalDamagedException(cursor.currentFile(), "record " +
                cursor.positionInCycle(ordinal) + " of the cycle is " + length + " bytes long where a tick has " +
                TICK_LENGTH);
        }
        return tick.getLong(SEQUENCE_OFFSET, ORDER);
    }

    /** @return the smallest ordinal whose key is at least the target, or total when there is none. */
    private long lowerBound(final int keyOffset, final long target, final long total)
    {
        long low = 0;
        long high = total;
        while (low < high)
        {
            final long middle = (low + high) >>> 1;
            sequenceAt(middle);
            if (tick.getLong(keyOffset, ORDER) < target)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low;
    }
}
