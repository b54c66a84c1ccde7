package io.mdgate.core.itch;

/**
 * Trade (non-cross) ('P', 44 bytes): an execution against a non-displayed order.
 * <pre>
 *   11 orderReference (u64) 19 side (1) 20 shares (u32) 24 stock (8) 32 price (Price(4)) 36 matchNumber (u64)
 * </pre>
 */
public final class TradeFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.TRADE;
    public static final int LENGTH = 44;

    public static final int ORDER_REFERENCE_OFFSET = 11;
    public static final int SIDE_OFFSET = 19;
    public static final int SHARES_OFFSET = 20;
    public static final int STOCK_OFFSET = 24;
    public static final int PRICE_OFFSET = 32;
    public static final int MATCH_NUMBER_OFFSET = 36;

    @Override
    public byte type()
    {
        return TYPE;
    }

    @Override
    public int length()
    {
        return LENGTH;
    }

    public long orderReference()
    {
        return u64(ORDER_REFERENCE_OFFSET);
    }

    public TradeFlyweight orderReference(final long value)
    {
        u64(ORDER_REFERENCE_OFFSET, value);
        return this;
    }

    /** @return B or S. */
    public char side()
    {
        return alpha1(SIDE_OFFSET);
    }

    public TradeFlyweight side(final char value)
    {
        alpha1(SIDE_OFFSET, value);
        return this;
    }

    public long shares()
    {
        return u32(SHARES_OFFSET);
    }

    public TradeFlyweight shares(final long value)
    {
        u32(SHARES_OFFSET, value);
        return this;
    }

    /** @return packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public TradeFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long price()
    {
        return u32(PRICE_OFFSET);
    }

    public TradeFlyweight price(final long value)
    {
        u32(PRICE_OFFSET, value);
        return this;
    }

    public long matchNumber()
    {
        return u64(MATCH_NUMBER_OFFSET);
    }

    public TradeFlyweight matchNumber(final long value)
    {
        u64(MATCH_NUMBER_OFFSET, value);
        return this;
    }
}
