package io.mdgate.core.itch;

/**
 * IPO Quoting Period Update ('K', 28 bytes): the anticipated quotation release time of an IPO.
 * <pre>
 *   11 stock (8) 19 ipoQuotationReleaseTime (u32) 23 ipoQuotationReleaseQualifier (1) 24 ipoPrice (Price(4))
 * </pre>
 */
public final class IpoQuotingPeriodUpdateFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.IPO_QUOTING_PERIOD_UPDATE;
    public static final int LENGTH = 28;

    public static final int STOCK_OFFSET = 11;
    public static final int IPO_QUOTATION_RELEASE_TIME_OFFSET = 19;
    public static final int IPO_QUOTATION_RELEASE_QUALIFIER_OFFSET = 23;
    public static final int IPO_PRICE_OFFSET = 24;

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

    public IpoQuotingPeriodUpdateFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    /** @return seconds since midnight. */
    public long ipoQuotationReleaseTime()
    {
        return u32(IPO_QUOTATION_RELEASE_TIME_OFFSET);
    }

    public IpoQuotingPeriodUpdateFlyweight ipoQuotationReleaseTime(final long value)
    {
        u32(IPO_QUOTATION_RELEASE_TIME_OFFSET, value);
        return this;
    }

    public char ipoQuotationReleaseQualifier()
    {
        return alpha1(IPO_QUOTATION_RELEASE_QUALIFIER_OFFSET);
    }

    public IpoQuotingPeriodUpdateFlyweight ipoQuotationReleaseQualifier(final char value)
    {
        alpha1(IPO_QUOTATION_RELEASE_QUALIFIER_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long ipoPrice()
    {
        return u32(IPO_PRICE_OFFSET);
    }

    public IpoQuotingPeriodUpdateFlyweight ipoPrice(final long value)
    {
        u32(IPO_PRICE_OFFSET, value);
        return this;
    }
}
