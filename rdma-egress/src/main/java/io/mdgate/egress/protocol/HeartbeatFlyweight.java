package io.mdgate.egress.protocol;

/**
 * HEARTBEAT, both ways ({@link ControlMessageDescriptor}). Not thread-safe.
 */
public final class HeartbeatFlyweight extends ControlFlyweight
{
    private static final int TIMESTAMP = 8;
    private static final int SEQUENCE = 16;
    public static final int LENGTH = 24;

    @Override
    public int length()
    {
        return LENGTH;
    }

    public long timestamp()
    {
        return buffer.getLong(offset + TIMESTAMP, LE);
    }

    public HeartbeatFlyweight timestamp(final long value)
    {
        mutable.putLong(offset + TIMESTAMP, value, LE);
        return this;
    }

    public long sequence()
    {
        return buffer.getLong(offset + SEQUENCE, LE);
    }

    public HeartbeatFlyweight sequence(final long value)
    {
        mutable.putLong(offset + SEQUENCE, value, LE);
        return this;
    }
}
