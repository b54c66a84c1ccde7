package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;

import java.util.Arrays;

/**
 * Writes one instrument's depth record into a consumer's depth table slot with the seqlock protocol of
 * {@link DepthTableDescriptor}: three one-sided writes over one connection, in order — version made odd, the body
 * (the first {@link #levels()} levels of the gateway's book), version made even. Keeps the version of each slot.
 * <p>
 * Threading: the publisher's thread. Allocation-free after construction.
 */
public final class DepthTableWriter
{
    private final long[] versions;
    private RemoteRegion remote;
    private int ringSlots;
    private int tableSlots;
    private int consumerLevels;
    private int levels;

    /** @param maxTableSlots largest table any consumer may have. */
    public DepthTableWriter(final int maxTableSlots)
    {
        versions = new long[maxTableSlots];
    }

    /**
     * @param consumerLevels the depth of the consumer's slots (its region's layout), 0 for no depth table.
     * @param levels         the levels written: at most {@code consumerLevels} and the gateway's depth.
     */
    public void attach(final RemoteRegion remote, final int ringSlots, final int tableSlots, final int consumerLevels,
        final int levels)
    {
        if (tableSlots > versions.length || levels > consumerLevels)
        {
            throw new IllegalArgumentException("depth table of " + tableSlots + " slots and " + levels +
                " levels does not fit " + versions.length + " slots of " + consumerLevels + " levels");
        }
        this.remote = remote;
        this.ringSlots = ringSlots;
        this.tableSlots = tableSlots;
        this.consumerLevels = consumerLevels;
        this.levels = levels;
        Arrays.fill(versions, 0, tableSlots, 0);
    }

    public void detach()
    {
        remote = null;
        levels = 0;
    }

    /** @return levels written per side, 0 when this consumer has no depth table (or the gateway keeps none). */
    public int levels()
    {
        return levels;
    }

    /**
     * @param slot         the consumer's table slot (its depth slot has the same index).
     * @param records      registered region holding the gateway's depth records.
     * @param recordOffset offset of the record to copy ({@link DepthTableDescriptor} layout, any depth from
     *                     {@link #levels()} up).
     * @return {@link TransportResult#OK} or the transport's failure code.
     */
    public int write(final int slot, final MemoryRegion records, final int recordOffset)
    {
        if (null == remote || levels == 0 || slot < 0 || slot >= tableSlots)
        {
            return TransportResult.OUT_OF_BOUNDS;
        }
        final int offset = ConsumerRegionDescriptor.depthSlotOffset(ringSlots, tableSlots, consumerLevels, slot);
        final long version = versions[slot];
        int result = remote.writeLong(offset + DepthTableDescriptor.VERSION_OFFSET, version + 1);
        if (result == TransportResult.OK)
        {
            result = remote.write(offset + DepthTableDescriptor.BODY_OFFSET, records,
                recordOffset + DepthTableDescriptor.BODY_OFFSET, DepthTableDescriptor.bodyLength(levels));
        }
        if (result == TransportResult.OK)
        {
            result = remote.writeLong(offset + DepthTableDescriptor.VERSION_OFFSET, version + 2);
        }
        if (result == TransportResult.OK)
        {
            versions[slot] = version + 2;
        }
        return result;
    }
}
