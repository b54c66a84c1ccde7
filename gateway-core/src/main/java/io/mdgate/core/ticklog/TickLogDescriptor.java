package io.mdgate.core.ticklog;

/**
 * The tick log's memory: a ring of 64-byte tick slots and a separate block of positions, each on its own pair of
 * cache lines so the writer and every reader update theirs without false sharing.
 * <pre>
 *  ticks (capacity x 64 bytes, capacity a power of two)
 *  +--------------+--------------+-----+------------------+
 *  | slot 0       | slot 1       | ... | slot capacity-1  |   tick at position p lives in slot p & (capacity - 1)
 *  +--------------+--------------+-----+------------------+
 *
 *  positions ((1 + readers) x 128 bytes)
 *  +----------------------------+----------------------------+-----+
 *  | published  int64, 120 pad  | reader 0   int64, 120 pad  | ... |
 *  +----------------------------+----------------------------+-----+
 * </pre>
 * A position counts ticks from the log's start: {@code published} is the number of ticks written and visible (a
 * release store after each tick's bytes), a reader's position the number it has finished with (a release store after
 * a batch). The writer may write the tick at position {@code p} only when every reader's position is above
 * {@code p - capacity}.
 */
public final class TickLogDescriptor
{
    /** Bytes of one tick: one cache line. */
    public static final int TICK_LENGTH = 64;
    /** log2 of {@link #TICK_LENGTH}. */
    public static final int TICK_SHIFT = 6;
    /** Bytes between two positions: two cache lines, so the adjacent-line prefetcher cannot couple them. */
    public static final int POSITION_STRIDE = 128;
    /** Offset of the published position in the positions block. */
    public static final int PUBLISHED_OFFSET = 0;
    /** Fewest slots a log may have. */
    public static final int MIN_CAPACITY = 64;
    /** Most slots a log may have (2^26: 4 GiB of ticks). */
    public static final int MAX_CAPACITY = 1 << 26;

    private TickLogDescriptor()
    {
    }

    /**
     * @param reader the reader's index, from 0.
     * @return the offset of its position in the positions block.
     */
    public static int readerPositionOffset(final int reader)
    {
        return (reader + 1) * POSITION_STRIDE;
    }

    /**
     * @param readers how many readers the log has.
     * @return the length of the positions block.
     */
    public static int positionsLength(final int readers)
    {
        return (readers + 1) * POSITION_STRIDE;
    }

    /**
     * @param position a tick's position.
     * @param mask     capacity - 1.
     * @return the offset of its slot in the ticks block.
     */
    public static int slotOffset(final long position, final int mask)
    {
        return (int)(position & mask) << TICK_SHIFT;
    }
}
