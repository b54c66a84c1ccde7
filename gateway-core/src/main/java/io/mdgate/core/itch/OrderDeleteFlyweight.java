package io.mdgate.core.itch;

/**
 * Order Delete ('D', 19 bytes): a resting order left the book.
 * <pre>
 *   11 orderReference (u64)
 * </pre>
 */
public final class OrderDeleteFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.ORDER_DELETE;
    public static final int LENGTH = 19;

    public static final int ORDER_REFERENCE_OFFSET = 11;

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

    public OrderDeleteFlyweight orderReference(final long value)
    {
        u64(ORDER_REFERENCE_OFFSET, value);
        return this;
    }
}
