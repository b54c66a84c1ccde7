package io.mdgate.core.itch;

/**
 * Operational Halt ('h', 21 bytes): an operational halt or resumption of an instrument on one market.
 * <pre>
 *   11 stock (8) 19 marketCode (1) 20 operationalHaltAction (1)
 * </pre>
 */
public final class OperationalHaltFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.OPERATIONAL_HALT;
    public static final int LENGTH = 21;

    public static final int STOCK_OFFSET = 11;
    public static final int MARKET_CODE_OFFSET = 19;
    public static final int OPERATIONAL_HALT_ACTION_OFFSET = 20;

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

    public OperationalHaltFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    public char marketCode()
    {
        return alpha1(MARKET_CODE_OFFSET);
    }

    public OperationalHaltFlyweight marketCode(final char value)
    {
        alpha1(MARKET_CODE_OFFSET, value);
        return this;
    }

    /** @return H halted, T resumed. */
    public char operationalHaltAction()
    {
        return alpha1(OPERATIONAL_HALT_ACTION_OFFSET);
    }

    public OperationalHaltFlyweight operationalHaltAction(final char value)
    {
        alpha1(OPERATIONAL_HALT_ACTION_OFFSET, value);
        return this;
    }
}
