package io.mdgate.egress.protocol;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The check stamped beside each ring slot: a 64-bit mix of the slot's ring position and its eight words. A reader
 * recomputes it over its copy; a copy mixing two writes, or a slot from another position, matches with
 * probability about 2^-64. Not a cryptographic hash: it protects against torn and stale reads, not against a
 * writer that means harm. Allocation-free; any thread.
 */
public final class SlotCheck
{
    private static final long SEED = 0x9E3779B97F4A7C15L;
    private static final long MULTIPLIER = 0xBF58476D1CE4E5B9L;
    private static final long FINAL_MULTIPLIER = 0x94D049BB133111EBL;

    private SlotCheck()
    {
    }

    /**
     * @param position ring position the slot holds.
     * @param buffer   holding the slot's 64 bytes.
     * @param offset   of the slot.
     * @return the check.
     */
    public static long compute(final long position, final DirectBuffer buffer, final int offset)
    {
        long hash = (position + 1) * SEED;
        for (int i = 0; i < ConsumerRegionDescriptor.SLOT_LENGTH; i += 8)
        {
            hash = Long.rotateLeft(hash ^ buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN), 27) * MULTIPLIER;
        }
        hash ^= hash >>> 31;
        hash *= FINAL_MULTIPLIER;
        return hash ^ (hash >>> 29);
    }
}
