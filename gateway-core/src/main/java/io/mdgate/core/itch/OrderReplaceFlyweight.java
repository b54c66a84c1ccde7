package io.mdgate.core.itch;

/**
 * Order Replace ('U', 35 bytes): a resting order was replaced; side and stock carry over from the original.
 * <pre>
 *   11 originalOrderReference (u64) 19 newOrderReference (u64) 27 shares (u32) 31 price (Price(4))
 * </pre>
 */
public final class OrderReplaceFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.ORDER_REPLACE;
    public static final int LENGTH = 35;

    public static final int ORIGINAL_ORDER_REFERENCE_OFFSET = 11;
    public static final int NEW_ORDER_REFERENCE_OFFSET = 19;
    public static final int SHARES_OFFSET = 27;
    public static final int PRICE_OFFSET = 31;

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

    public long originalOrderReference()
    {
        return u64(ORIGINAL_ORDER_REFERENCE_OFFSET);
    }

    public OrderReplaceFlyweight originalOrderReference(final long value)
    {
        u64(ORIGINAL_ORDER_REFERENCE_OFFSET, value);
        return this;
    }

    public long newOrderReference()
    {
        return u64(NEW_ORDER_REFERENCE_OFFSET);
    }

    public OrderReplaceFlyweight newOrderReference(final long value)
    {
        u64(NEW_ORDER_REFERENCE_OFFSET, value);
        return this;
    }

    public long shares()
    {
        return u32(SHARES_OFFSET);
    }

    public OrderReplaceFlyweight shares(final long value)
    {
        u32(SHARES_OFFSET, value);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long price()
    {
        return u32(PRICE_OFFSET);
    }

    public OrderReplaceFlyweight price(final long value)
    {
        u32(PRICE_OFFSET, value);
        return this;
    }
}
