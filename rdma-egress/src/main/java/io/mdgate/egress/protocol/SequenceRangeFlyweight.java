package io.mdgate.egress.protocol;

/**
 * RECOVER, RECOVERY_END, RESYNC, RESYNCED and LAPPED: messages about a range of gateway sequences and a ring
 * position ({@link ControlMessageDescriptor} says which fields each uses). Not thread-safe.
 */
public final class SequenceRangeFlyweight extends ControlFlyweight
{
    private static final int FROM = 8;
    private static final int TO = 16;
    private static final int POSITION = 24;
    private static final int COUNT = 32;
    private static final int STATUS = 40;
    private static final int FLAGS = 44;
    public static final int LENGTH = 48;

    @Override
    public int length()
    {
        return LENGTH;
    }

    public long from()
    {
        return buffer.getLong(offset + FROM, LE);
    }

    public SequenceRangeFlyweight from(final long value)
    {
        mutable.putLong(offset + FROM, value, LE);
        return this;
    }

    public long to()
    {
        return buffer.getLong(offset + TO, LE);
    }

    public SequenceRangeFlyweight to(final long value)
    {
        mutable.putLong(offset + TO, value, LE);
        return this;
    }

    public long position()
    {
        return buffer.getLong(offset + POSITION, LE);
    }

    public SequenceRangeFlyweight position(final long value)
    {
        mutable.putLong(offset + POSITION, value, LE);
        return this;
    }

    public long count()
    {
        return buffer.getLong(offset + COUNT, LE);
    }

    public SequenceRangeFlyweight count(final long value)
    {
        mutable.putLong(offset + COUNT, value, LE);
        return this;
    }

    public int status()
    {
        return buffer.getInt(offset + STATUS, LE);
    }

    public SequenceRangeFlyweight status(final int value)
    {
        mutable.putInt(offset + STATUS, value, LE);
        return this;
    }

    public int flags()
    {
        return buffer.getInt(offset + FLAGS, LE);
    }

    public SequenceRangeFlyweight flags(final int value)
    {
        mutable.putInt(offset + FLAGS, value, LE);
        return this;
    }
}
