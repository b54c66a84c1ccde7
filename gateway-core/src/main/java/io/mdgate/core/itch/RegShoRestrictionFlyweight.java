package io.mdgate.core.itch;

/**
 * Reg SHO Short Sale Price Test Restriction ('Y', 20 bytes): the short-sale restriction state of an instrument.
 * <pre>
 *   11 stock (8) 19 regShoAction (1)
 * </pre>
 */
public final class RegShoRestrictionFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.REG_SHO_RESTRICTION;
    public static final int LENGTH = 20;

    public static final int STOCK_OFFSET = 11;
    public static final int REG_SHO_ACTION_OFFSET = 19;

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

    public RegShoRestrictionFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    /** @return '0' none, '1' intraday drop, '2' restriction remains. */
    public char regShoAction()
    {
        return alpha1(REG_SHO_ACTION_OFFSET);
    }

    public RegShoRestrictionFlyweight regShoAction(final char value)
    {
        alpha1(REG_SHO_ACTION_OFFSET, value);
        return this;
    }
}
