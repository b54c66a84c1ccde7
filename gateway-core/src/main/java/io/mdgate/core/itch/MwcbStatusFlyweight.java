package io.mdgate.core.itch;

/**
 * MWCB Status ('W', 12 bytes): a market-wide circuit breaker level was breached.
 * <pre>
 *   11 breachedLevel (1)
 * </pre>
 */
public final class MwcbStatusFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.MWCB_STATUS;
    public static final int LENGTH = 12;

    public static final int BREACHED_LEVEL_OFFSET = 11;

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

    public char breachedLevel()
    {
        return alpha1(BREACHED_LEVEL_OFFSET);
    }

    public MwcbStatusFlyweight breachedLevel(final char value)
    {
        alpha1(BREACHED_LEVEL_OFFSET, value);
        return this;
    }
}
