package io.mdgate.egress.transport.shm;

/**
 * Layout of a multicast stream's broadcast log file ({@code <instance>-stream-<id>}): one writer, any number of
 * readers, fixed-size slots of one datagram each, as a UD receive queue holds one datagram per posted buffer.
 * <pre>
 *  file header (one page)
 *  +---------------------------------------------------------------+
 *  |                       magic "MDGBCST1"                        |  0
 *  +-------------------------------+-------------------------------+
 *  |          version (1)          |          stream id            |  8
 *  +-------------------------------+-------------------------------+
 *  |          slot count (2^n)     |          slot length          | 16
 *  +-------------------------------+-------------------------------+
 *  |          mtu                  |          (reserved)           | 24
 *  +-------------------------------+-------------------------------+
 *  |                       ... (padding to 128)                    |
 *  +---------------------------------------------------------------+
 *  |                       tail: datagrams written                 | 128  own cache line
 *  +---------------------------------------------------------------+
 *
 *  slot i (datagram index d with d mod slot count = i), at 4096 + i x slot length
 *  +---------------------------------------------------------------+
 *  | W |                   stamp: d + 1                            |  0   W set while d is being written
 *  +-------------------------------+-------------------------------+
 *  |          length               |          (reserved)           |  8
 *  +-------------------------------+-------------------------------+
 *  |                       ... (padding to 64)                     |
 *  +---------------------------------------------------------------+
 *  |                       datagram bytes (up to mtu)              | 64
 *  +---------------------------------------------------------------+
 * </pre>
 * Writer, for datagram d: stamp = (d + 1) | W, store-store fence, length and bytes, stamp = d + 1 (release),
 * tail = d + 1 (release). Reader expecting d: reads the stamp (acquire); d + 1 means complete: copy, load-load
 * fence, read the stamp again, and the copy is good only if it is still d + 1. A smaller stamp (or d + 1 with W)
 * means not yet written; a larger one (with or without W) means the writer lapped the reader, which then skips
 * ahead from the tail and counts what it skipped. A stamp of 0 is a slot never written.
 */
public final class BroadcastLogDescriptor
{
    public static final long MAGIC = 0x315453434247444DL; // "MDGBCST1" little-endian
    public static final int VERSION = 1;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int STREAM_ID_OFFSET = 12;
    public static final int SLOT_COUNT_OFFSET = 16;
    public static final int SLOT_LENGTH_OFFSET = 20;
    public static final int MTU_OFFSET = 24;
    public static final int TAIL_OFFSET = 128;
    public static final int HEADER_LENGTH = 4096;

    public static final int SLOT_STAMP_OFFSET = 0;
    public static final int SLOT_DATAGRAM_LENGTH_OFFSET = 8;
    public static final int SLOT_HEADER_LENGTH = 64;
    public static final long WRITING = Long.MIN_VALUE;

    private BroadcastLogDescriptor()
    {
    }

    /** @return bytes a slot takes for a given MTU: header plus MTU, rounded up to a cache line. */
    public static int slotLength(final int mtu)
    {
        return SLOT_HEADER_LENGTH + ((mtu + 63) & ~63);
    }

    /** @return the file's length. */
    public static long fileLength(final int slotCount, final int mtu)
    {
        return HEADER_LENGTH + (long)slotCount * slotLength(mtu);
    }

    /** @return offset of slot {@code index}'s header, from the start of the file. */
    public static int slotOffset(final long datagramIndex, final int slotMask, final int slotLength)
    {
        return HEADER_LENGTH + (int)(datagramIndex & slotMask) * slotLength;
    }
}
