package io.mdgate.core.itch;

/**
 * System Event ('S', 12 bytes): a market-wide event of the trading day.
 * <pre>
 *   11 eventCode (1)
 * </pre>
 */
public final class SystemEventFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.SYSTEM_EVENT;
    public static final int LENGTH = 12;

    public static final int EVENT_CODE_OFFSET = 11;

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

    /** @return O start of messages, S start of system hours, Q start of market hours, M end of market hours, E end of system hours, C end of messages. */
    public char eventCode()
    {
        return alpha1(EVENT_CODE_OFFSET);
    }

    public SystemEventFlyweight eventCode(final char value)
    {
        alpha1(EVENT_CODE_OFFSET, value);
        return this;
    }
}
