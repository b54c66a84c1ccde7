package io.mdgate.core.itch;

/**
 * Stock Directory ('R', 39 bytes): the attributes of one instrument, sent before it trades.
 * <pre>
 *   11 stock (8) 19 marketCategory (1) 20 financialStatusIndicator (1) 21 roundLotSize (u32)
 *   25 roundLotsOnly (1) 26 issueClassification (1) 27 issueSubType (2) 29 authenticity (1)
 *   30 shortSaleThresholdIndicator (1) 31 ipoFlag (1) 32 luldReferencePriceTier (1) 33 etpFlag (1)
 *   34 etpLeverageFactor (u32) 38 inverseIndicator (1)
 * </pre>
 */
public final class StockDirectoryFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.STOCK_DIRECTORY;
    public static final int LENGTH = 39;

    public static final int STOCK_OFFSET = 11;
    public static final int MARKET_CATEGORY_OFFSET = 19;
    public static final int FINANCIAL_STATUS_INDICATOR_OFFSET = 20;
    public static final int ROUND_LOT_SIZE_OFFSET = 21;
    public static final int ROUND_LOTS_ONLY_OFFSET = 25;
    public static final int ISSUE_CLASSIFICATION_OFFSET = 26;
    public static final int ISSUE_SUB_TYPE_OFFSET = 27;
    public static final int AUTHENTICITY_OFFSET = 29;
    public static final int SHORT_SALE_THRESHOLD_INDICATOR_OFFSET = 30;
    public static final int IPO_FLAG_OFFSET = 31;
    public static final int LULD_REFERENCE_PRICE_TIER_OFFSET = 32;
    public static final int ETP_FLAG_OFFSET = 33;
    public static final int ETP_LEVERAGE_FACTOR_OFFSET = 34;
    public static final int INVERSE_INDICATOR_OFFSET = 38;

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

    public StockDirectoryFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    public char marketCategory()
    {
        return alpha1(MARKET_CATEGORY_OFFSET);
    }

    public StockDirectoryFlyweight marketCategory(final char value)
    {
        alpha1(MARKET_CATEGORY_OFFSET, value);
        return this;
    }

    public char financialStatusIndicator()
    {
        return alpha1(FINANCIAL_STATUS_INDICATOR_OFFSET);
    }

    public StockDirectoryFlyweight financialStatusIndicator(final char value)
    {
        alpha1(FINANCIAL_STATUS_INDICATOR_OFFSET, value);
        return this;
    }

    public long roundLotSize()
    {
        return u32(ROUND_LOT_SIZE_OFFSET);
    }

    public StockDirectoryFlyweight roundLotSize(final long value)
    {
        u32(ROUND_LOT_SIZE_OFFSET, value);
        return this;
    }

    public char roundLotsOnly()
    {
        return alpha1(ROUND_LOTS_ONLY_OFFSET);
    }

    public StockDirectoryFlyweight roundLotsOnly(final char value)
    {
        alpha1(ROUND_LOTS_ONLY_OFFSET, value);
        return this;
    }

    public char issueClassification()
    {
        return alpha1(ISSUE_CLASSIFICATION_OFFSET);
    }

    public StockDirectoryFlyweight issueClassification(final char value)
    {
        alpha1(ISSUE_CLASSIFICATION_OFFSET, value);
        return this;
    }

    /** @return two characters packed big-endian into the low 16 bits. */
    public int issueSubType()
    {
        return alpha2(ISSUE_SUB_TYPE_OFFSET);
    }

    public StockDirectoryFlyweight issueSubType(final int value)
    {
        alpha2(ISSUE_SUB_TYPE_OFFSET, value);
        return this;
    }

    public char authenticity()
    {
        return alpha1(AUTHENTICITY_OFFSET);
    }

    public StockDirectoryFlyweight authenticity(final char value)
    {
        alpha1(AUTHENTICITY_OFFSET, value);
        return this;
    }

    public char shortSaleThresholdIndicator()
    {
        return alpha1(SHORT_SALE_THRESHOLD_INDICATOR_OFFSET);
    }

    public StockDirectoryFlyweight shortSaleThresholdIndicator(final char value)
    {
        alpha1(SHORT_SALE_THRESHOLD_INDICATOR_OFFSET, value);
        return this;
    }

    public char ipoFlag()
    {
        return alpha1(IPO_FLAG_OFFSET);
    }

    public StockDirectoryFlyweight ipoFlag(final char value)
    {
        alpha1(IPO_FLAG_OFFSET, value);
        return this;
    }

    public char luldReferencePriceTier()
    {
        return alpha1(LULD_REFERENCE_PRICE_TIER_OFFSET);
    }

    public StockDirectoryFlyweight luldReferencePriceTier(final char value)
    {
        alpha1(LULD_REFERENCE_PRICE_TIER_OFFSET, value);
        return this;
    }

    public char etpFlag()
    {
        return alpha1(ETP_FLAG_OFFSET);
    }

    public StockDirectoryFlyweight etpFlag(final char value)
    {
        alpha1(ETP_FLAG_OFFSET, value);
        return this;
    }

    public long etpLeverageFactor()
    {
        return u32(ETP_LEVERAGE_FACTOR_OFFSET);
    }

    public StockDirectoryFlyweight etpLeverageFactor(final long value)
    {
        u32(ETP_LEVERAGE_FACTOR_OFFSET, value);
        return this;
    }

    public char inverseIndicator()
    {
        return alpha1(INVERSE_INDICATOR_OFFSET);
    }

    public StockDirectoryFlyweight inverseIndicator(final char value)
    {
        alpha1(INVERSE_INDICATOR_OFFSET, value);
        return this;
    }
}
