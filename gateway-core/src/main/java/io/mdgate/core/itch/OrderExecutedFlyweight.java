package io.mdgate.core.itch;

/**
 * Order Executed ('E', 31 bytes): part or all of a resting order traded at its own price.
 * <pre>
 *   11 orderReference (u64) 19 executedShares (u32) 23 matchNumber (u64)
 * </pre>
 */
public final class OrderExecutedFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.ORDER_EXECUTED;
    public static final int LENGTH = 31;

    public static final int ORDER_REFERENCE_OFFSET = 11;
    public static final int EXECUTED_SHARES_OFFSET = 19;
    public static final int MATCH_NUMBER_OFFSET = 23;

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

    public OrderExecutedFlyweight orderReference(final long value)
    {
        u64(ORDER_REFERENCE_OFFSET, value);
        return this;
    }

    public long executedShares()
    {
        return u32(EXECUTED_SHARES_OFFSET);
    }

    public OrderExecutedFlyweight executedShares(final long value)
    {
        u32(EXECUTED_SHARES_OFFSET, value);
        return this;
    }

    public long matchNumber()
    {
        return u64(MATCH_NUMBER_OFFSET);
    }

    public OrderExecutedFlyweight matchNumber(final long value)
    {
        u64(MATCH_NUMBER_OFFSET, value);
        return this;
    }
}
