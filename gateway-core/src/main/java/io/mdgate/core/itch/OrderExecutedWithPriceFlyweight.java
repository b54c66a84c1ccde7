package io.mdgate.core.itch;

/**
 * Order Executed With Price ('C', 36 bytes): part or all of a resting order traded at another price.
 * <pre>
 *   11 orderReference (u64) 19 executedShares (u32) 23 matchNumber (u64) 31 printable (1)
 *   32 executionPrice (Price(4))
 * </pre>
 */
public final class OrderExecutedWithPriceFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.ORDER_EXECUTED_WITH_PRICE;
    public static final int LENGTH = 36;

    public static final int ORDER_REFERENCE_OFFSET = 11;
    public static final int EXECUTED_SHARES_OFFSET = 19;
    public static final int MATCH_NUMBER_OFFSET = 23;
    public static final int PRINTABLE_OFFSET = 31;
    public static final int EXECUTION_PRICE_OFFSET = 32;

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

    public OrderExecutedWithPriceFlyweight orderReference(final long value)
    {
        u64(ORDER_REFERENCE_OFFSET, value);
        return this;
    }

    public long executedShares()
    {
        return u32(EXECUTED_SHARES_OFFSET);
    }

    public OrderExecutedWithPriceFlyweight executedShares(final long value)
    {
        u32(EXECUTED_SHARES_OFFSET, value);
        return this;
    }

    public long matchNumber()
    {
        return u64(MATCH_NUMBER_OFFSET);
    }

    public OrderExecutedWithPriceFlyweight matchNumber(final long value)
    {
        u64(MATCH_NUMBER_OFFSET, value);
        return this;
    }

    /** @return Y or N. */
    public char printable()
    {
        return alpha1(PRINTABLE_OFFSET);
    }

    public OrderExecutedWithPriceFlyweight printable(final char value)
    {
        alpha1(PRINTABLE_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long executionPrice()
    {
        return u32(EXECUTION_PRICE_OFFSET);
    }

    public OrderExecutedWithPriceFlyweight executionPrice(final long value)
    {
        u32(EXECUTION_PRICE_OFFSET, value);
        return this;
    }
}
