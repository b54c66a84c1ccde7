package io.mdgate.core.itch;

/**
 * Retail Price Improvement Indicator ('N', 20 bytes): retail interest on an instrument.
 * <pre>
 *   11 stock (8) 19 interestFlag (1)
 * </pre>
 */
public final class RetailPriceImprovementFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.RETAIL_PRICE_IMPROVEMENT;
    public static final int LENGTH = 20;

    public static final int STOCK_OFFSET = 11;
    public static final int INTEREST_FLAG_OFFSET = 19;

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

    /** @return packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public RetailPriceImprovementFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    public char interestFlag()
    {
        return alpha1(INTEREST_FLAG_OFFSET);
    }

    public RetailPriceImprovementFlyweight interestFlag(final char value)
    {
        alpha1(INTEREST_FLAG_OFFSET, value);
        return this;
    }
}
