package io.mdgate.egress.protocol;

/**
 * Layout of the region a consumer registers for the gateway to write into with one-sided writes: a header, the
 * gateway's lap notice, the ring of that consumer's filtered ticks with one stamp per slot, and its top-of-book
 * table, and its depth table (when it asked for depth). The consumer writes the header once, before announcing the
 * region; everything else is written by the gateway.
 * <pre>
 *  0     +---------------------------------------------------------------+
 *        |                     magic "MDGCONS1"                          |
 *  8     +-------------------------------+-------------------------------+
 *        |  version (1)                  |  ring slots N (0 or 2^k)      |
 *  16    +-------------------------------+-------------------------------+
 *        |  table slots T                |  depth levels L (0: none)     |
 *  64    +---------------------------------------------------------------+
 *        |  lap position: ring position at which the gateway stopped     |  written by the gateway,
 *        |  writing because this consumer was a whole ring behind; -1    |  own cache line
 *  128   +---------------------------------------------------------------+
 *        |  slot 0: one 64-byte tick                                     |
 *        |  ...                                                          |
 *        |  slot N-1                                                     |
 *  128+64N +-------------------------------------------------------------+
 *        |  stamp 0: position + 1 (8) | check (8)                         |
 *        |  ...                                                          |
 *        |  stamp N-1                                                    |
 *  table +---------------------------------------------------------------+  aligned to 64
 *        |  table slot 0: {@link TopOfBookDescriptor} (64 bytes)          |
 *        |  ...                                                          |
 *        |  table slot T-1                                               |
 *  depth +---------------------------------------------------------------+  only when L > 0
 *        |  depth slot 0: {@link DepthTableDescriptor} of depth L         |
 *        |  ...          (the instrument of table slot k has depth slot k) |
 *        |  depth slot T-1                                               |
 *        +---------------------------------------------------------------+
 * </pre>
 * Ring position {@code p} (0, 1, 2, ... for the life of a connection) lives in slot {@code p mod N}. Its stamp holds
 * {@code p + 1} (0 = never written) and {@link SlotCheck#compute} over {@code p} and the slot's 64 bytes. The gateway
 * writes a batch of slots, then their stamps; a reader trusts a slot only when the stamp says {@code p + 1} before
 * and after it copied the slot and the check matches the copy, so it detects a stale slot (an older position) and a
 * torn one (a write in progress, or bytes placed in any order) by itself.
 */
public final class ConsumerRegionDescriptor
{
    public static final long MAGIC = 0x31534E4F4347444DL; // "MDGCONS1" little-endian
    public static final int VERSION = 1;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int RING_SLOTS_OFFSET = 12;
    public static final int TABLE_SLOTS_OFFSET = 16;
    public static final int DEPTH_LEVELS_OFFSET = 20;
    public static final int LAP_POSITION_OFFSET = 64;
    public static final int SLOTS_OFFSET = 128;
    public static final int SLOT_LENGTH = 64;
    public static final int STAMP_LENGTH = 16;
    public static final int STAMP_CHECK_OFFSET = 8;
    public static final long NOT_LAPPED = -1;
    /** Most ring slots a consumer may ask for. */
    public static final int MAX_RING_SLOTS = 1 << 22;
    /** Most table slots a consumer may ask for. */
    public static final int MAX_TABLE_SLOTS = 1 << 16;

    private ConsumerRegionDescriptor()
    {
    }

    /** @return whether {@code ringSlots} is 0 (no ring) or a power of two up to {@link #MAX_RING_SLOTS}. */
    public static boolean validRingSlots(final int ringSlots)
    {
        return ringSlots == 0 || (ringSlots > 0 && ringSlots <= MAX_RING_SLOTS && Integer.bitCount(ringSlots) == 1);
    }

    public static int slotOffset(final long position, final int ringSlots)
    {
        return SLOTS_OFFSET + (int)(position & (ringSlots - 1)) * SLOT_LENGTH;
    }

    public static int stampsOffset(final int ringSlots)
    {
        return SLOTS_OFFSET + ringSlots * SLOT_LENGTH;
    }

    public static int stampOffset(final long position, final int ringSlots)
    {
        return stampsOffset(ringSlots) + (int)(position & (ringSlots - 1)) * STAMP_LENGTH;
    }

    public static int tableOffset(final int ringSlots)
    {
        return (stampsOffset(ringSlots) + ringSlots * STAMP_LENGTH + 63) & ~63;
    }

    public static int tableSlotOffset(final int ringSlots, final int tableSlot)
    {
        return tableOffset(ringSlots) + tableSlot * TopOfBookDescriptor.LENGTH;
    }

    /** @return bytes of the whole region without a depth table. */
    public static int length(final int ringSlots, final int tableSlots)
    {
        return tableOffset(ringSlots) + tableSlots * TopOfBookDescriptor.LENGTH;
    }

    /** @return bytes of the whole region with depth slots of {@code depthLevels} levels (0: none). */
    public static long length(final int ringSlots, final int tableSlots, final int depthLevels)
    {
        return length(ringSlots, tableSlots) + (long)tableSlots * DepthTableDescriptor.slotLength(depthLevels);
    }

    public static int depthTableOffset(final int ringSlots, final int tableSlots)
    {
        return length(ringSlots, tableSlots);
    }

    public static int depthSlotOffset(final int ringSlots, final int tableSlots, final int depthLevels,
        final int tableSlot)
    {
        return depthTableOffset(ringSlots, tableSlots) + tableSlot * DepthTableDescriptor.slotLength(depthLevels);
    }

    /** @return bytes of the ring part alone (header, slots, stamps): what the gateway stages per consumer. */
    public static int ringLength(final int ringSlots)
    {
        return tableOffset(ringSlots);
    }
}
