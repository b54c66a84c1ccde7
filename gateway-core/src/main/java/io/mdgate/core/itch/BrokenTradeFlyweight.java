package io.mdgate.core.itch;

/**
 * Broken Trade ('B', 19 bytes): an execution was broken.
 * <pre>
 *   11 matchNumber (u64)
 * </pre>
 */
public final class BrokenTradeFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.BROKEN_TRADE;
    public static final int LENGTH = 19;

    public static final int MATCH_NUMBER_OFFSET = 11;

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

    public long matchNumber()
    {
        return u64(MATCH_NUMBER_OFFSET);
    }

    public BrokenTradeFlyweight matchNumber(final long value)
    {
        u64(MATCH_NUMBER_OFFSET, value);
        return this;
    }
}
