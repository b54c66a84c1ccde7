package io.mdgate.core.itch;

/**
 * Add Order, no MPID attribution ('A', 36 bytes): a new order on the book.
 * <pre>
 *   11 order reference (u64)   19 side (B/S)   20 shares (u32)   24 stock (8)   32 price (Price(4))
 * </pre>
 */
public class AddOrderFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.ADD_ORDER;
    public static final int LENGTH = 36;

    public static final int ORDER_REFERENCE_OFFSET = 11;
    public static final int SIDE_OFFSET = 19;
    public static final int SHARES_OFFSET = 20;
    public static final int STOCK_OFFSET = 24;
    public static final int PRICE_OFFSET = 32;

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

    public AddOrderFlyweight orderReference(final long value)
    {
        u64(ORDER_REFERENCE_OFFSET, value);
        return this;
    }

    /** @return 'B' for buy, 'S' for sell. */
    public char side()
    {
        return alpha1(SIDE_OFFSET);
    }

    public AddOrderFlyweight side(final char value)
    {
        alpha1(SIDE_OFFSET, value);
        return this;
    }

    public long shares()
    {
        return u32(SHARES_OFFSET);
    }

    public AddOrderFlyweight shares(final long value)
    {
        u32(SHARES_OFFSET, value);
        return this;
    }

    /** @return the symbol packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public AddOrderFlyweight stock(final long packed)
    {
        alpha8(STOCK_OFFSET, packed);
        return this;
    }

    /** @return price with 4 implied decimals. */
    public long price()
    {
        return u32(PRICE_OFFSET);
    }

    public AddOrderFlyweight price(final long value)
    {
        u32(PRICE_OFFSET, value);
        return this;
    }
}
