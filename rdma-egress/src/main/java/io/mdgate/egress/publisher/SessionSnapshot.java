package io.mdgate.egress.publisher;

import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.RecoveryDataFlyweight;
import io.mdgate.egress.protocol.SnapshotRequestFlyweight;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * One session's late-join snapshot (or directory) while it is built and sent: the request (every subscribed
 * instrument or a list, the whole state or the directory alone), how far the walk over its instruments got, the
 * sequences it spans, and the staging buffer of the parts built and not yet taken by the consumer's control channel. Each session has its own, so a consumer that stops reading
 * keeps only its own snapshot waiting.
 * <p>
 * The staging buffer holds {@code capacity} ticks after one spare tick's room: tick j sits at {@code (j + 1) * 64},
 * so a SNAPSHOT_DATA message of ticks j.. is sent in place, its 64-byte header written over tick j - 1, which has
 * gone out already (or over the spare room for j = 0).
 * <p>
 * Threading: the publisher's thread. Allocated at start; never afterwards.
 */
final class SessionSnapshot
{
    static final int IDLE = 0;
    /** Asked for; starts at the sender's next duty cycle. */
    static final int WANTED = 1;
    /** Parts are built and sent. */
    static final int BUILDING = 2;
    /** Every part went out (or one did not fit): SNAPSHOT_END with {@link #endStatus} waits for room. */
    static final int ENDING = 3;

    final UnsafeBuffer staging;
    final int capacity;
    final int[] ids = new int[ControlMessageDescriptor.MAX_SNAPSHOT_INSTRUMENTS];
    /** Instruments the request lists; -1: every subscribed one (every known one for a directory). */
    int idCount;
    /** The request asked for the directory alone (flag DIRECTORY): INSTRUMENT ticks, no book state. */
    boolean directory;
    int state = IDLE;
    /** Next instrument to take: an index into the builder's known instruments, or into {@link #ids}. */
    int cursor;
    /** Instruments the walk covers: the known ones when it began, or the listed ones. */
    int limit;
    /** The sequence live delivery continues after, and the highest part sequence so far. */
    long from;
    long to;
    int ticksSent;
    int flags;
    /** A SESSION tick came: no more parts. */
    boolean cut;
    int staged;
    int stagedSent;
    long boundaryWaitSinceNanos;
    boolean boundaryWaiting;
    long startedNanos;
    int endStatus;

    SessionSnapshot(final int capacity)
    {
        this.capacity = capacity;
        this.staging = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            RecoveryDataFlyweight.TICKS_OFFSET + capacity * TickLayout.LENGTH, 64));
    }

    /**
     * Records a request (the instruments a well-formed SNAPSHOT lists, sorted and without repeats); a second one
     * before the first began replaces it, one while a snapshot is under way is ignored.
     */
    void request(final SnapshotRequestFlyweight request)
    {
        if (state == BUILDING || state == ENDING)
        {
            return;
        }
        final int count = request.instrumentCount();
        for (int i = 0; i < count; i++)
        {
            ids[i] = request.instrument(i);
        }
        Arrays.sort(ids, 0, count);
        int distinct = 0;
        for (int i = 0; i < count; i++)
        {
            if (distinct == 0 || ids[distinct - 1] != ids[i])
            {
                ids[distinct++] = ids[i];
            }
        }
        idCount = count == 0 ? -1 : distinct;
        directory = (request.flags() & ControlMessageDescriptor.DIRECTORY) != 0;
        state = WANTED;
    }

    void begin(final long sequence, final int instruments, final long nowNanos)
    {
        startedNanos = nowNanos;
        state = BUILDING;
        cursor = 0;
        limit = idCount < 0 ? instruments : idCount;
        from = sequence;
        to = sequence;
        ticksSent = 0;
        flags = ControlMessageDescriptor.PER_INSTRUMENT | (directory ? ControlMessageDescriptor.DIRECTORY : 0);
        cut = false;
        staged = 0;
        stagedSent = 0;
        boundaryWaiting = false;
    }

    boolean walked()
    {
        return cut || cursor == limit;
    }

    /** @return the staging offset of tick {@code index}. */
    static int tickOffset(final int index)
    {
        return RecoveryDataFlyweight.TICKS_OFFSET + index * TickLayout.LENGTH;
    }

    /** No more parts: SNAPSHOT_END with this status goes out as soon as the channel takes it. */
    void end(final int status)
    {
        state = ENDING;
        endStatus = status;
        staged = 0;
        stagedSent = 0;
    }

    void clear()
    {
        state = IDLE;
        staged = 0;
        stagedSent = 0;
    }
}
