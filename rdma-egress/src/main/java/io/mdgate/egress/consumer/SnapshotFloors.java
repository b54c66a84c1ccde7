package io.mdgate.egress.consumer;

import io.mdgate.egress.protocol.TickLayout;

/**
 * The per-instrument sequences of the last snapshot: each instrument's part was taken at its own sequence S(i),
 * between the snapshot's {@code from} and {@code to}, so a live tick of instrument i is covered by the snapshot
 * when its sequence is at most S(i) (or at most {@code from}, for every instrument and for market-wide ticks).
 * Instruments without a part have no floor above {@code from}. One {@code long} per possible instrument id,
 * allocated once; clearing touches only the instruments the last snapshot named.
 * <p>
 * Threading: the consumer's thread.
 */
final class SnapshotFloors
{
    private final long[] floor = new long[TickLayout.MAX_INSTRUMENT_ID + 1];
    private final int[] named = new int[TickLayout.MAX_INSTRUMENT_ID + 1];
    private int namedCount;
    private long from;
    private long to;

    /** Forgets the last snapshot's floors (a new one is asked for). */
    void clear()
    {
        for (int i = 0; i < namedCount; i++)
        {
            floor[named[i]] = 0;
        }
        namedCount = 0;
        from = 0;
        to = 0;
    }

    /** A snapshot tick of {@code instrument} at {@code sequence} was delivered. */
    void onSnapshotTick(final int instrument, final long sequence)
    {
        if (floor[instrument] == 0)
        {
            named[namedCount++] = instrument;
        }
        floor[instrument] = Math.max(floor[instrument], sequence);
    }

    /** The snapshot ended: live delivery continues after {@code from}; no part is above {@code to}. */
    void onEnd(final long from, final long to)
    {
        this.from = from;
        this.to = Math.max(from, to);
    }

    /** @return whether a live tick of this instrument and sequence is covered by the snapshot (not to deliver). */
    boolean covers(final int instrument, final long sequence)
    {
        return sequence <= to && (sequence <= from || sequence <= floor[instrument]);
    }

    /** @return the highest part sequence of the last snapshot (its SNAPSHOT_END's to; 0 before one). */
    long to()
    {
        return to;
    }

    /** @return the instrument's part sequence in the last snapshot, or 0 when it had no part. */
    long floor(final int instrument)
    {
        return floor[instrument];
    }
}
