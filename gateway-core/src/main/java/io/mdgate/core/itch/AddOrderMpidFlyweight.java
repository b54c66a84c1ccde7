package io.mdgate.core.itch;

/**
 * Add Order with MPID Attribution ('F', 40 bytes): a new order on the book, attributed to a market participant.
 * <pre>
 *   as Add Order ('A'), then
 *   36 attribution (4)
 * </pre>
 */
public final class AddOrderMpidFlyweight extends AddOrderFlyweight
{
    public static final byte TYPE = ItchMessageType.ADD_ORDER_MPID;
    public static final int LENGTH = 40;

    public static final int ATTRIBUTION_OFFSET = 36;

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

    /** @return packed as by {@link Alpha#pack4(CharSequence)}. */
    public int attribution()
    {
        return alpha4(ATTRIBUTION_OFFSET);
    }

    public AddOrderMpidFlyweight attribution(final int value)
    {
        alpha4(ATTRIBUTION_OFFSET, value);
        return this;
    }
}
