package io.mdgate.egress.protocol;

/**
 * REJECT: why the publisher refused a consumer ({@link ControlMessageDescriptor}). Not thread-safe.
 */
public final class RejectFlyweight extends ControlFlyweight
{
    public static final int MAX_TEXT_LENGTH = 240;
    private static final int REASON = 8;
    private static final int TEXT = 12;
    public static final int LENGTH = TEXT + 2 + MAX_TEXT_LENGTH;

    @Override
    public int length()
    {
        return LENGTH;
    }

    public int reason()
    {
        return buffer.getInt(offset + REASON, LE);
    }

    public RejectFlyweight reason(final int value)
    {
        mutable.putInt(offset + REASON, value, LE);
        return this;
    }

    public String text()
    {
        final int length = Math.min(buffer.getShort(offset + TEXT, LE) & 0xFFFF, MAX_TEXT_LENGTH);
        return buffer.getStringWithoutLengthAscii(offset + TEXT + 2, length);
    }

    public RejectFlyweight text(final String value)
    {
        final int length = Math.min(value.length(), MAX_TEXT_LENGTH);
        mutable.putShort(offset + TEXT, (short)length, LE);
        mutable.putStringWithoutLengthAscii(offset + TEXT + 2, value, 0, length);
        return this;
    }
}
