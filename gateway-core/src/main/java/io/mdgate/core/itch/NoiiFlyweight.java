package io.mdgate.core.itch;

/**
 * Net Order Imbalance Indicator ('I', 50 bytes): auction imbalance information before a cross.
 * <pre>
 *   11 pairedShares (u64) 19 imbalanceShares (u64) 27 imbalanceDirection (1) 28 stock (8)
 *   36 farPrice (Price(4)) 40 nearPrice (Price(4)) 44 currentReferencePrice (Price(4)) 48 crossType (1)
 *   49 priceVariationIndicator (1)
 * </pre>
 */
public final class NoiiFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.NOII;
    public static final int LENGTH = 50;

    public static final int PAIRED_SHARES_OFFSET = 11;
    public static final int IMBALANCE_SHARES_OFFSET = 19;
    public static final int IMBALANCE_DIRECTION_OFFSET = 27;
    public static final int STOCK_OFFSET = 28;
    public static final int FAR_PRICE_OFFSET = 36;
    public static final int NEAR_PRICE_OFFSET = 40;
    public static final int CURRENT_REFERENCE_PRICE_OFFSET = 44;
    public static final int CROSS_TYPE_OFFSET = 48;
    public static final int PRICE_VARIATION_INDICATOR_OFFSET = 49;

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

    public long pairedShares()
    {
        return u64(PAIRED_SHARES_OFFSET);
    }

    public NoiiFlyweight pairedShares(final long value)
    {
        u64(PAIRED_SHARES_OFFSET, value);
        return this;
    }

    public long imbalanceShares()
    {
        return u64(IMBALANCE_SHARES_OFFSET);
    }

    public NoiiFlyweight imbalanceShares(final long value)
    {
        u64(IMBALANCE_SHARES_OFFSET, value);
        return this;
    }

    public char imbalanceDirection()
    {
        return alpha1(IMBALANCE_DIRECTION_OFFSET);
    }

    public NoiiFlyweight imbalanceDirection(final char value)
    {
        alpha1(IMBALANCE_DIRECTION_OFFSET, value);
        return this;
    }

    /** @return packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public NoiiFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long farPrice()
    {
        return u32(FAR_PRICE_OFFSET);
    }

    public NoiiFlyweight farPrice(final long value)
    {
        u32(FAR_PRICE_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long nearPrice()
    {
        return u32(NEAR_PRICE_OFFSET);
    }

    public NoiiFlyweight nearPrice(final long value)
    {
        u32(NEAR_PRICE_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long currentReferencePrice()
    {
        return u32(CURRENT_REFERENCE_PRICE_OFFSET);
    }

    public NoiiFlyweight currentReferencePrice(final long value)
    {
        u32(CURRENT_REFERENCE_PRICE_OFFSET, value);
        return this;
    }

    public char crossType()
    {
        return alpha1(CROSS_TYPE_OFFSET);
    }

    public NoiiFlyweight crossType(final char value)
    {
        alpha1(CROSS_TYPE_OFFSET, value);
        return this;
    }

    public char priceVariationIndicator()
    {
        return alpha1(PRICE_VARIATION_INDICATOR_OFFSET);
    }

    public NoiiFlyweight priceVariationIndicator(final char value)
    {
        alpha1(PRICE_VARIATION_INDICATOR_OFFSET, value);
        return this;
    }
}
