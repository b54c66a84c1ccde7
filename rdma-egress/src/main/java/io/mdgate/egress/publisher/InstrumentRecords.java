package io.mdgate.egress.publisher;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.protocol.TopOfBookDescriptor;
import io.mdgate.egress.protocol.TopOfBookFlyweight;
import io.mdgate.egress.transport.MemoryRegion;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.nio.ByteOrder;

/**
 * The gateway's latest top of book, trading state and symbol per instrument, kept from the ticks themselves
 * ({@code TOP_OF_BOOK}, {@code TRADING_STATUS}, {@code INSTRUMENT}) in a registered region of 64-byte records
 * ({@link TopOfBookDescriptor}), which is the source of every table write; and the symbol to instrument id map.
 * Sized at start; never allocates afterwards.
 * <p>
 * Threading: the publisher's thread.
 */
final class InstrumentRecords
{
    static final long NO_INSTRUMENT = -1;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final byte TOP_OF_BOOK = (byte)EventType.TOP_OF_BOOK.value();
    private static final byte TRADING_STATUS = (byte)EventType.TRADING_STATUS.value();
    private static final byte INSTRUMENT = (byte)EventType.INSTRUMENT.value();

    private final MemoryRegion region;
    private final TopOfBookFlyweight record = new TopOfBookFlyweight();
    private final Long2LongHashMap symbols;
    private final int maxInstruments;

    InstrumentRecords(final MemoryRegion region, final int maxInstruments)
    {
        this.region = region;
        this.maxInstruments = maxInstruments;
        this.symbols = new Long2LongHashMap(maxInstruments * 2, 0.65f, NO_INSTRUMENT);
        for (int i = 0; i < maxInstruments; i++)
        {
            record.wrap(region.buffer(), i * TopOfBookDescriptor.LENGTH).clear(i);
        }
    }

    static int regionLength(final int maxInstruments)
    {
        return maxInstruments * TopOfBookDescriptor.LENGTH;
    }

    MemoryRegion region()
    {
        return region;
    }

    int recordOffset(final int instrument)
    {
        return instrument * TopOfBookDescriptor.LENGTH;
    }

    boolean contains(final int instrument)
    {
        return instrument > 0 && instrument < maxInstruments;
    }

    /** @return the instrument the symbol names, or {@link #NO_INSTRUMENT}. */
    long instrumentOf(final long symbol)
    {
        return symbols.get(symbol);
    }

    long symbolOf(final int instrument)
    {
        return record.wrap(region.buffer(), recordOffset(instrument)).symbol();
    }

    /**
     * Applies a tick to its instrument's record.
     *
     * @return true when the record changed in a way table readers see (quote or state), false otherwise.
     */
    boolean apply(final DirectBuffer tick, final int offset, final int instrument, final byte eventType)
    {
        if (!contains(instrument))
        {
            return false;
        }
        if (eventType == TOP_OF_BOOK)
        {
            record.wrap(region.buffer(), recordOffset(instrument));
            final int price = tick.getInt(offset + TickLayout.PRICE_OFFSET, LE);
            final long size = tick.getInt(offset + TickLayout.QUANTITY_OFFSET, LE) & 0xFFFF_FFFFL;
            final long orders = tick.getLong(offset + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET, LE);
            if (tick.getByte(offset + TickLayout.SIDE_OFFSET) == 'B')
            {
                record.bidPrice(price).bidSize(size).bidOrders(orders);
            }
            else
            {
                record.askPrice(price).askSize(size).askOrders(orders);
            }
            stamp(tick, offset);
            return true;
        }
        if (eventType == TRADING_STATUS)
        {
            record.wrap(region.buffer(), recordOffset(instrument))
                .tradingState((char)tick.getLong(offset + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET, LE));
            stamp(tick, offset);
            return true;
        }
        if (eventType == INSTRUMENT)
        {
            final long symbol = tick.getLong(offset + TickLayout.ORDER_REFERENCE_OFFSET, LE);
            record.wrap(region.buffer(), recordOffset(instrument)).symbol(symbol);
            symbols.put(symbol, instrument);
            return true;
        }
        return false;
    }

    private void stamp(final DirectBuffer tick, final int offset)
    {
        record.gatewaySequence(tick.getLong(offset + TickLayout.GATEWAY_SEQUENCE_OFFSET, LE))
            .exchangeTimestamp(tick.getLong(offset + TickLayout.EXCHANGE_TIMESTAMP_OFFSET, LE));
    }
}
