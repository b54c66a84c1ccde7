package io.mdgate.egress.protocol;

/**
 * RECOVERY_DATA: recovered ticks over the control channel, 64 bytes each from offset 64
 * ({@link ControlMessageDescriptor}). Not thread-safe.
 */
public final class RecoveryDataFlyweight extends ControlFlyweight
{
    private static final int TICK_COUNT = 8;
    public static final int TICKS_OFFSET = 64;

    /** @return how many ticks fit a message of at most {@code maxMessageLength} bytes. */
    public static int maxTicks(final int maxMessageLength)
    {
        return (maxMessageLength - TICKS_OFFSET) / TickLayout.LENGTH;
    }

    /** @return the header length; the ticks follow. */
    @Override
    public int length()
    {
        return TICKS_OFFSET;
    }

    /** @return bytes of the message with its ticks. */
    public int encodedLength()
    {
        return TICKS_OFFSET + tickCount() * TickLayout.LENGTH;
    }

    public int tickCount()
    {
        return buffer.getInt(offset + TICK_COUNT, LE);
    }

    public RecoveryDataFlyweight tickCount(final int value)
    {
        mutable.putInt(offset + TICK_COUNT, value, LE);
        return this;
    }

    /** @return offset in {@link #buffer()} of tick {@code index}. */
    public int tickOffset(final int index)
    {
        return offset + TICKS_OFFSET + index * TickLayout.LENGTH;
    }
}
