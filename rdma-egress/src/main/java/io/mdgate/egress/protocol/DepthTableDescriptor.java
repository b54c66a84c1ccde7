package io.mdgate.egress.protocol;

import io.mdgate.core.depth.DepthBook;

/**
 * Layout of one depth table slot: the top L price levels per side of one instrument, versioned as a seqlock like
 * a top-of-book slot ({@link TopOfBookDescriptor}). The gateway writes, over one connection and in this order, the
 * version made odd, the bytes after it, and the version made even again; a reader copies the slot between two
 * reads of an even, equal version and retries otherwise, so it never uses a half-written book.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     version (odd while written)               |  0
 *  +---------------------------------------------------------------+
 *  |                     gateway sequence of the last change       |  8
 *  +---------------------------------------------------------------+
 *  |                     exchange timestamp of the last change     | 16
 *  +-------------------------------+-------------------------------+
 *  |  instrument id                |  (reserved)                   | 24
 *  +-------------------------------+-------------------------------+
 *  |  the book: {@link DepthBook}'s layout for depth L               | 32
 *  |  (bid and ask level counts, then bid/ask level 0, 1, ... L)    |
 *  +---------------------------------------------------------------+  slot length: rounded up to 64
 * </pre>
 * Little-endian. L is the consumer's depth (HELLO) and the gateway's D the depth it keeps (WELCOME); the gateway
 * writes its book's first {@code min(L, D)} levels (a prefix of its book is a book of that depth), so a reader reads
 * its slot as a book of depth {@code min(L, D)}. The gateway keeps one such record per instrument (depth D) and
 * copies the written prefix into each subscribed consumer's slot.
 */
public final class DepthTableDescriptor
{
    public static final int VERSION_OFFSET = 0;
    public static final int GATEWAY_SEQUENCE_OFFSET = 8;
    public static final int EXCHANGE_TIMESTAMP_OFFSET = 16;
    public static final int INSTRUMENT_ID_OFFSET = 24;
    public static final int BOOK_OFFSET = 32;
    /** Bytes after the version: where the one data write starts. */
    public static final int BODY_OFFSET = 8;

    private DepthTableDescriptor()
    {
    }

    /** @return bytes of one slot of depth {@code levels} (0: none). */
    public static int slotLength(final int levels)
    {
        return levels == 0 ? 0 : (BOOK_OFFSET + DepthBook.length(levels) + 63) & ~63;
    }

    /** @return bytes the gateway writes after the version for a book of {@code levels} levels. */
    public static int bodyLength(final int levels)
    {
        return BOOK_OFFSET - BODY_OFFSET + DepthBook.length(levels);
    }
}
