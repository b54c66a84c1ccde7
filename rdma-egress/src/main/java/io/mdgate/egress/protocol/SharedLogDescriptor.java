package io.mdgate.egress.protocol;

/**
 * Layout of the shared tick log: one writer (the publisher), any number of readers on the same host (consumers
 * subscribed to every instrument), every live tick written once, in order, whatever the number of readers. It is the
 * shm counterpart of the per-consumer ring ({@link ConsumerRegionDescriptor}) for the one subscription that needs
 * no filtering: readers keep their own position, the writer never waits for them, and a reader a whole log behind
 * is lapped and finds out from the stamps.
 * <pre>
 *  0     +---------------------------------------------------------------+
 *        |                     magic "MDGSLOG1"                          |
 *  8     +-------------------------------+-------------------------------+
 *        |  version (1)                  |  stream id                    |
 *  16    +-------------------------------+-------------------------------+
 *        |  slots N (2^k)                |  (reserved)                   |
 *  24    +-------------------------------+-------------------------------+
 *        |  publisher epoch (ns since the epoch, at its start)           |
 *  128   +---------------------------------------------------------------+
 *        |  tail: positions written (position of the next tick)          |  own cache line
 *  4096  +---------------------------------------------------------------+
 *        |  slot 0: one 64-byte tick                                     |
 *        |  ...                                                          |
 *        |  slot N-1                                                     |
 *  4096+64N +------------------------------------------------------------+
 *        | W |  stamp 0: position + 1                                     |  8 bytes each
 *        |  ...                                                          |
 *        |  stamp N-1                                                    |
 *        +---------------------------------------------------------------+
 * </pre>
 * Log position {@code p} (0, 1, 2, ... for the life of the publisher) lives in slot {@code p mod N}; its stamp holds
 * {@code p + 1} once the tick is complete (0: never written), with the top bit W set while it is being written.
 * <p>
 * Writer, for position p: stamp = (p + 1) | W, store-store fence, the 64 tick bytes, stamp = p + 1 (release),
 * tail = p + 1 (release). Reader expecting p: reads the stamp (acquire); {@code p + 1} means complete: it copies the
 * slot, load-load fence, reads the stamp again, and the copy is good only if the stamp is still {@code p + 1} (a
 * torn or overwritten slot has a different stamp by then, because W is set before any byte changes). A smaller
 * stamp, or {@code (p + 1) | W}, means not written yet; a larger one, with or without W, means the writer lapped the
 * reader: it resumes from the tail minus half a log and recovers the ticks it skipped over the control channel
 * (RECOVER), exactly as a gap in the multicast stream. Ticks carry their gateway sequence, so gaps in the input are
 * seen the same way.
 */
public final class SharedLogDescriptor
{
    public static final long MAGIC = 0x31474F4C5347444DL; // "MDGSLOG1" little-endian
    public static final int VERSION = 1;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int STREAM_ID_OFFSET = 12;
    public static final int SLOTS_OFFSET = 16;
    public static final int PUBLISHER_EPOCH_OFFSET = 24;
    public static final int TAIL_OFFSET = 128;
    public static final int HEADER_LENGTH = 4096;
    public static final int SLOT_LENGTH = 64;
    public static final int STAMP_LENGTH = 8;
    public static final long WRITING = Long.MIN_VALUE;
    public static final int MIN_SLOTS = 16;
    public static final int MAX_SLOTS = 1 << 22;

    private SharedLogDescriptor()
    {
    }

    /** @return the log's length in bytes for {@code slots} slots. */
    public static int length(final int slots)
    {
        return HEADER_LENGTH + slots * (SLOT_LENGTH + STAMP_LENGTH);
    }

    /** @return whether {@code slots} is a valid slot count: a power of two from {@value #MIN_SLOTS}. */
    public static boolean isValidSlots(final int slots)
    {
        return slots >= MIN_SLOTS && slots <= MAX_SLOTS && Integer.bitCount(slots) == 1;
    }

    /** @return offset of the slot holding {@code position}. */
    public static int slotOffset(final long position, final int slotMask)
    {
        return HEADER_LENGTH + (int)(position & slotMask) * SLOT_LENGTH;
    }

    /** @return offset of the stamp of the slot holding {@code position}. */
    public static int stampOffset(final long position, final int slots)
    {
        return HEADER_LENGTH + slots * SLOT_LENGTH + (int)(position & (slots - 1)) * STAMP_LENGTH;
    }
}
