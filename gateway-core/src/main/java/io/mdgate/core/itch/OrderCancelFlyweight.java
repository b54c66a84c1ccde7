package io.mdgate.core.itch;

/**
 * Order Cancel ('X', 23 bytes): part of a resting order was cancelled.
 * <pre>
 *   11 orderReference (u64) 19 cancelledShares (u32)
 * </pre>
 */
public final class OrderCancelFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.ORDER_CANCEL;
    public static final int LENGTH = 23;

    public static final int ORDER_REFERENCE_OFFSET = 11;
    public static final int CANCELLED_SHARES_OFFSET = 19;

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

    public OrderCancelFlyweight orderReference(final long value)
    {
        u64(ORDER_REFERENCE_OFFSET, value);
        return this;
    }

    public long cancelledShares()
    {
        return u32(CANCELLED_SHARES_OFFSET);
    }

    public OrderCancelFlyweight cancelledShares(final long value)
    {
        u32(CANCELLED_SHARES_OFFSET, value);
        return this;
    }
}
