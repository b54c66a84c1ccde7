package io.mdgate.core.itch;

/**
 * Direct Listing with Capital Raise Price Discovery ('O', 48 bytes): price discovery of a direct listing with a capital raise.
 * <pre>
 *   11 stock (8) 19 openEligibilityStatus (1) 20 minimumAllowablePrice (Price(4))
 *   24 maximumAllowablePrice (Price(4)) 28 nearExecutionPrice (Price(4)) 32 nearExecutionTime (u64)
 *   40 lowerPriceRangeCollar (Price(4)) 44 upperPriceRangeCollar (Price(4))
 * </pre>
 */
public final class DirectListingCapitalRaiseFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.DIRECT_LISTING_CAPITAL_RAISE;
    public static final int LENGTH = 48;

    public static final int STOCK_OFFSET = 11;
    public static final int OPEN_ELIGIBILITY_STATUS_OFFSET = 19;
    public static final int MINIMUM_ALLOWABLE_PRICE_OFFSET = 20;
    public static final int MAXIMUM_ALLOWABLE_PRICE_OFFSET = 24;
    public static final int NEAR_EXECUTION_PRICE_OFFSET = 28;
    public static final int NEAR_EXECUTION_TIME_OFFSET = 32;
    public static final int LOWER_PRICE_RANGE_COLLAR_OFFSET = 40;
    public static final int UPPER_PRICE_RANGE_COLLAR_OFFSET = 44;

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

    public DirectListingCapitalRaiseFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    public char openEligibilityStatus()
    {
        return alpha1(OPEN_ELIGIBILITY_STATUS_OFFSET);
    }

    public DirectListingCapitalRaiseFlyweight openEligibilityStatus(final char value)
    {
        alpha1(OPEN_ELIGIBILITY_STATUS_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long minimumAllowablePrice()
    {
        return u32(MINIMUM_ALLOWABLE_PRICE_OFFSET);
    }

    public DirectListingCapitalRaiseFlyweight minimumAllowablePrice(final long value)
    {
        u32(MINIMUM_ALLOWABLE_PRICE_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long maximumAllowablePrice()
    {
        return u32(MAXIMUM_ALLOWABLE_PRICE_OFFSET);
    }

    public DirectListingCapitalRaiseFlyweight maximumAllowablePrice(final long value)
    {
        u32(MAXIMUM_ALLOWABLE_PRICE_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long nearExecutionPrice()
    {
        return u32(NEAR_EXECUTION_PRICE_OFFSET);
    }

    public DirectListingCapitalRaiseFlyweight nearExecutionPrice(final long value)
    {
        u32(NEAR_EXECUTION_PRICE_OFFSET, value);
        return this;
    }

    public long nearExecutionTime()
    {
        return u64(NEAR_EXECUTION_TIME_OFFSET);
    }

    public DirectListingCapitalRaiseFlyweight nearExecutionTime(final long value)
    {
        u64(NEAR_EXECUTION_TIME_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long lowerPriceRangeCollar()
    {
        return u32(LOWER_PRICE_RANGE_COLLAR_OFFSET);
    }

    public DirectListingCapitalRaiseFlyweight lowerPriceRangeCollar(final long value)
    {
        u32(LOWER_PRICE_RANGE_COLLAR_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long upperPriceRangeCollar()
    {
        return u32(UPPER_PRICE_RANGE_COLLAR_OFFSET);
    }

    public DirectListingCapitalRaiseFlyweight upperPriceRangeCollar(final long value)
    {
        u32(UPPER_PRICE_RANGE_COLLAR_OFFSET, value);
        return this;
    }
}
