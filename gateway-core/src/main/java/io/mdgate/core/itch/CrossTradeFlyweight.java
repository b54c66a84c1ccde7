package io.mdgate.core.itch;

/**
 * Cross Trade ('Q', 40 bytes): the bulk print of an opening, closing, IPO or halt cross.
 * <pre>
 *   11 shares (u64) 19 stock (8) 27 crossPrice (Price(4)) 31 matchNumber (u64) 39 crossType (1)
 * </pre>
 */
public final class CrossTradeFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.CROSS_TRADE;
    public static final int LENGTH = 40;

    public static final int SHARES_OFFSET = 11;
    public static final int STOCK_OFFSET = 19;
    public static final int CROSS_PRICE_OFFSET = 27;
    public static final int MATCH_NUMBER_OFFSET = 31;
    public static final int CROSS_TYPE_OFFSET = 39;

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

    public long shares()
    {
        return u64(SHARES_OFFSET);
    }

    public CrossTradeFlyweight shares(final long value)
    {
        u64(SHARES_OFFSET, value);
        return this;
    }

    /** @return packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public CrossTradeFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long crossPrice()
    {
        return u32(CROSS_PRICE_OFFSET);
    }

    public CrossTradeFlyweight crossPrice(final long value)
    {
        u32(CROSS_PRICE_OFFSET, value);
        return this;
    }

    public long matchNumber()
    {
        return u64(MATCH_NUMBER_OFFSET);
    }

    public CrossTradeFlyweight matchNumber(final long value)
    {
        u64(MATCH_NUMBER_OFFSET, value);
        return this;
    }

    public char crossType()
    {
        return alpha1(CROSS_TYPE_OFFSET);
    }

    public CrossTradeFlyweight crossType(final char value)
    {
        alpha1(CROSS_TYPE_OFFSET, value);
        return this;
    }
}
