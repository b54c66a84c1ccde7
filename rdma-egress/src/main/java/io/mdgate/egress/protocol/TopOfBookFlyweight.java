package io.mdgate.egress.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static io.mdgate.egress.protocol.TopOfBookDescriptor.*;

/**
 * A view over one 64-byte top-of-book record ({@link TopOfBookDescriptor}): read accessors, and fluent setters for
 * the gateway's own records. Prices are Price4 mantissas ({@link TopOfBookDescriptor#NULL_PRICE} when the side is
 * empty); sizes and order counts are unsigned 32-bit values returned as {@code long}.
 * <p>
 * Threading: not thread-safe; a reader uses it over its private copy ({@link TopOfBookReader}).
 */
public final class TopOfBookFlyweight
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private DirectBuffer buffer;
    private MutableDirectBuffer mutable;
    private int offset;

    public TopOfBookFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutable = buffer instanceof MutableDirectBuffer ? (MutableDirectBuffer)buffer : null;
        this.offset = offset;
        return this;
    }

    public DirectBuffer buffer()
    {
        return buffer;
    }

    public int offset()
    {
        return offset;
    }

    public long version()
    {
        return buffer.getLong(offset + VERSION_OFFSET, LE);
    }

    public long gatewaySequence()
    {
        return buffer.getLong(offset + GATEWAY_SEQUENCE_OFFSET, LE);
    }

    public TopOfBookFlyweight gatewaySequence(final long value)
    {
        mutable.putLong(offset + GATEWAY_SEQUENCE_OFFSET, value, LE);
        return this;
    }

    public long exchangeTimestamp()
    {
        return buffer.getLong(offset + EXCHANGE_TIMESTAMP_OFFSET, LE);
    }

    public TopOfBookFlyweight exchangeTimestamp(final long value)
    {
        mutable.putLong(offset + EXCHANGE_TIMESTAMP_OFFSET, value, LE);
        return this;
    }

    /** @return the symbol packed as {@code Alpha.pack8}, 0 when unknown. */
    public long symbol()
    {
        return buffer.getLong(offset + SYMBOL_OFFSET, LE);
    }

    public TopOfBookFlyweight symbol(final long value)
    {
        mutable.putLong(offset + SYMBOL_OFFSET, value, LE);
        return this;
    }

    public int bidPrice()
    {
        return buffer.getInt(offset + BID_PRICE_OFFSET, LE);
    }

    public TopOfBookFlyweight bidPrice(final int value)
    {
        mutable.putInt(offset + BID_PRICE_OFFSET, value, LE);
        return this;
    }

    public long bidSize()
    {
        return buffer.getInt(offset + BID_SIZE_OFFSET, LE) & 0xFFFF_FFFFL;
    }

    public TopOfBookFlyweight bidSize(final long value)
    {
        mutable.putInt(offset + BID_SIZE_OFFSET, (int)value, LE);
        return this;
    }

    public int askPrice()
    {
        return buffer.getInt(offset + ASK_PRICE_OFFSET, LE);
    }

    public TopOfBookFlyweight askPrice(final int value)
    {
        mutable.putInt(offset + ASK_PRICE_OFFSET, value, LE);
        return this;
    }

    public long askSize()
    {
        return buffer.getInt(offset + ASK_SIZE_OFFSET, LE) & 0xFFFF_FFFFL;
    }

    public TopOfBookFlyweight askSize(final long value)
    {
        mutable.putInt(offset + ASK_SIZE_OFFSET, (int)value, LE);
        return this;
    }

    public long bidOrders()
    {
        return buffer.getInt(offset + BID_ORDERS_OFFSET, LE) & 0xFFFF_FFFFL;
    }

    public TopOfBookFlyweight bidOrders(final long value)
    {
        mutable.putInt(offset + BID_ORDERS_OFFSET, (int)value, LE);
        return this;
    }

    public long askOrders()
    {
        return buffer.getInt(offset + ASK_ORDERS_OFFSET, LE) & 0xFFFF_FFFFL;
    }

    public TopOfBookFlyweight askOrders(final long value)
    {
        mutable.putInt(offset + ASK_ORDERS_OFFSET, (int)value, LE);
        return this;
    }

    public int instrumentId()
    {
        return buffer.getShort(offset + INSTRUMENT_ID_OFFSET, LE) & 0xFFFF;
    }

    public TopOfBookFlyweight instrumentId(final int value)
    {
        mutable.putShort(offset + INSTRUMENT_ID_OFFSET, (short)value, LE);
        return this;
    }

    /** @return the ITCH trading state ('H', 'P', 'Q', 'T'), or 0 when none was seen. */
    public char tradingState()
    {
        return (char)(buffer.getByte(offset + TRADING_STATE_OFFSET) & 0xFF);
    }

    public TopOfBookFlyweight tradingState(final char value)
    {
        mutable.putByte(offset + TRADING_STATE_OFFSET, (byte)value);
        return this;
    }

    /** Makes the record an empty book for {@code instrumentId} (both prices null, sizes and counts zero). */
    public TopOfBookFlyweight clear(final int instrumentId)
    {
        mutable.setMemory(offset, LENGTH, (byte)0);
        return bidPrice(NULL_PRICE).askPrice(NULL_PRICE).instrumentId(instrumentId);
    }
}
