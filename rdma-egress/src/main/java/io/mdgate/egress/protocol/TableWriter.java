package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportResult;

import java.util.Arrays;

/**
 * Writes one top-of-book record into a consumer's table slot with the seqlock protocol of
 * {@link TopOfBookDescriptor}: three one-sided writes over one connection, in order — version made odd, the body,
 * version made even. Keeps the version of each slot it writes.
 * <p>
 * Threading: the publisher's thread. Allocation-free after construction.
 */
public final class TableWriter
{
    private final long[] versions;
    private RemoteRegion remote;
    private int ringSlots;
    private int tableSlots;

    /** @param maxTableSlots largest table any consumer may have. */
    public TableWriter(final int maxTableSlots)
    {
        versions = new long[maxTableSlots];
    }

    public void attach(final RemoteRegion remote, final int ringSlots, final int tableSlots)
    {
        if (tableSlots > versions.length)
        {
            throw new IllegalArgumentException("table of " + tableSlots + " slots exceeds " + versions.length);
        }
        this.remote = remote;
        this.ringSlots = ringSlots;
        this.tableSlots = tableSlots;
        Arrays.fill(versions, 0, tableSlots, 0);
    }

    public void detach()
    {
        remote = null;
    }

    public int tableSlots()
    {
        return tableSlots;
    }

    /**
     * @param slot         the consumer's table slot.
     * @param records      registered region holding the gateway's records.
     * @param recordOffset offset of the record to copy.
     * @return {@link TransportResult#OK} or the transport's failure code.
     */
    public int write(final int slot, final MemoryRegion records, final int recordOffset)
    {
        if (null == remote || slot < 0 || slot >= tableSlots)
        {
            return TransportResult.OUT_OF_BOUNDS;
        }
        final int offset = ConsumerRegionDescriptor.tableSlotOffset(ringSlots, slot);
        final long version = versions[slot];
        int result = remote.writeLong(offset + TopOfBookDescriptor.VERSION_OFFSET, version + 1);
        if (result == TransportResult.OK)
        {
            result = remote.write(offset + TopOfBookDescriptor.BODY_OFFSET, records,
                recordOffset + TopOfBookDescriptor.BODY_OFFSET, TopOfBookDescriptor.BODY_LENGTH);
        }
        if (result == TransportResult.OK)
        {
            result = remote.writeLong(offset + TopOfBookDescriptor.VERSION_OFFSET, version + 2);
        }
        if (result == TransportResult.OK)
        {
            versions[slot] = version + 2;
        }
        return result;
    }
}
