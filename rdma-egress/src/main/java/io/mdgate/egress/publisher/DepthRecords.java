package io.mdgate.egress.publisher;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.egress.protocol.DepthTableDescriptor;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.MemoryRegion;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.nio.ByteOrder;

/**
 * The gateway's depth per instrument, kept from the {@code LEVEL} ticks themselves in a registered region of
 * {@link DepthTableDescriptor} records of depth D (one {@link DepthBook} each), which is the source of every depth
 * table write. A {@code SESSION} tick empties them all (the new session's books start empty). Sized at start; never
 * allocates afterwards.
 * <p>
 * Threading: the publisher's thread.
 */
final class DepthRecords
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final MemoryRegion region;
    private final AtomicBuffer buffer;
    private final DepthBook book = new DepthBook();
    private final int depth;
    private final int recordLength;
    private final int maxInstruments;
    private final boolean[] touched;

    DepthRecords(final MemoryRegion region, final int maxInstruments, final int depth)
    {
        this.region = region;
        this.buffer = region.buffer();
        this.depth = depth;
        this.recordLength = DepthTableDescriptor.slotLength(depth);
        this.maxInstruments = maxInstruments;
        this.touched = new boolean[maxInstruments];
        for (int i = 0; i < maxInstruments; i++)
        {
            clear(i);
        }
    }

    static int regionLength(final int maxInstruments, final int depth)
    {
        return maxInstruments * DepthTableDescriptor.slotLength(depth);
    }

    MemoryRegion region()
    {
        return region;
    }

    int depth()
    {
        return depth;
    }

    int recordOffset(final int instrument)
    {
        return instrument * recordLength;
    }

    /** @return the instrument's book (a flyweight reused by every call). */
    DepthBook book(final int instrument)
    {
        return book.wrap(buffer, recordOffset(instrument) + DepthTableDescriptor.BOOK_OFFSET, depth);
    }

    /**
     * Applies a LEVEL tick to its instrument's record.
     *
     * @return true when the book changed.
     */
    boolean apply(final DirectBuffer tick, final int offset, final int instrument)
    {
        if (instrument <= 0 || instrument >= maxInstruments || book(instrument).apply(tick, offset) != DepthBook.CHANGED)
        {
            return false;
        }
        final int record = recordOffset(instrument);
        buffer.putLong(record + DepthTableDescriptor.GATEWAY_SEQUENCE_OFFSET,
            tick.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE), LE);
        buffer.putLong(record + DepthTableDescriptor.EXCHANGE_TIMESTAMP_OFFSET,
            tick.getLong(offset + TickLayout.EXCHANGE_TIMESTAMP_OFFSET, LE), LE);
        touched[instrument] = true;
        return true;
    }

    /**
     * Empties every book that has been written to (a new session), stamping them with the SESSION tick.
     *
     * @return books emptied.
     */
    int clearAll(final DirectBuffer tick, final int offset)
    {
        int cleared = 0;
        for (int i = 1; i < maxInstruments; i++)
        {
            if (touched[i])
            {
                clear(i);
                final int record = recordOffset(i);
                buffer.putLong(record + DepthTableDescriptor.GATEWAY_SEQUENCE_OFFSET,
                    tick.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE), LE);
                buffer.putLong(record + DepthTableDescriptor.EXCHANGE_TIMESTAMP_OFFSET,
                    tick.getLong(offset + TickLayout.EXCHANGE_TIMESTAMP_OFFSET, LE), LE);
                cleared++;
            }
        }
        return cleared;
    }

    private void clear(final int instrument)
    {
        final int record = recordOffset(instrument);
        buffer.setMemory(record, recordLength, (byte)0);
        buffer.putInt(record + DepthTableDescriptor.INSTRUMENT_ID_OFFSET, instrument, LE);
        touched[instrument] = false;
    }
}
