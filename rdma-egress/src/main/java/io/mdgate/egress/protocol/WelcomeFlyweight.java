package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.RemoteKey;

/**
 * WELCOME: the publisher accepted the consumer ({@link ControlMessageDescriptor}). Not thread-safe.
 */
public final class WelcomeFlyweight extends ControlFlyweight
{
    private static final int PUBLISHER_EPOCH = 8;
    private static final int POSITION_ADDRESS = 16;
    private static final int POSITION_KEY = 24;
    private static final int STREAM_ID = 28;
    private static final int POSITION_LENGTH = 32;
    private static final int NEXT_SEQUENCE = 40;
    private static final int HEARTBEAT_INTERVAL = 48;
    private static final int HEARTBEAT_TIMEOUT = 56;
    private static final int MTU = 64;
    private static final int SHARED_LOG_SLOTS = 68;
    private static final int DEPTH_LEVELS = 72;
    /** Length of a WELCOME from before depth tables: the shortest a consumer accepts (depth levels 0). */
    public static final int LENGTH = 72;
    /** Length of the WELCOME this build sends: it adds the publisher's depth levels. */
    public static final int DEPTH_LENGTH = 80;

    @Override
    public int length()
    {
        return DEPTH_LENGTH;
    }

    /**
     * @param length of the message received.
     * @return the depth D the publisher keeps per side and instrument, 0 when none or from a WELCOME of
     *         {@link #LENGTH} bytes.
     */
    public int depthLevelsIn(final int length)
    {
        return length >= DEPTH_LENGTH ? buffer.getInt(offset + DEPTH_LEVELS, LE) : 0;
    }

    public WelcomeFlyweight depthLevels(final int value)
    {
        mutable.putInt(offset + DEPTH_LEVELS, value, LE);
        return this;
    }

    public long publisherEpoch()
    {
        return buffer.getLong(offset + PUBLISHER_EPOCH, LE);
    }

    public WelcomeFlyweight publisherEpoch(final long value)
    {
        mutable.putLong(offset + PUBLISHER_EPOCH, value, LE);
        return this;
    }

    public RemoteKey positionRegion()
    {
        return new RemoteKey(buffer.getLong(offset + POSITION_ADDRESS, LE), buffer.getInt(offset + POSITION_KEY, LE),
            buffer.getLong(offset + POSITION_LENGTH, LE));
    }

    public WelcomeFlyweight positionRegion(final RemoteKey key)
    {
        mutable.putLong(offset + POSITION_ADDRESS, key.address(), LE);
        mutable.putInt(offset + POSITION_KEY, key.key(), LE);
        mutable.putLong(offset + POSITION_LENGTH, key.length(), LE);
        return this;
    }

    public int streamId()
    {
        return buffer.getInt(offset + STREAM_ID, LE);
    }

    public WelcomeFlyweight streamId(final int value)
    {
        mutable.putInt(offset + STREAM_ID, value, LE);
        return this;
    }

    public long nextSequence()
    {
        return buffer.getLong(offset + NEXT_SEQUENCE, LE);
    }

    public WelcomeFlyweight nextSequence(final long value)
    {
        mutable.putLong(offset + NEXT_SEQUENCE, value, LE);
        return this;
    }

    public long heartbeatIntervalNanos()
    {
        return buffer.getLong(offset + HEARTBEAT_INTERVAL, LE);
    }

    public WelcomeFlyweight heartbeatIntervalNanos(final long value)
    {
        mutable.putLong(offset + HEARTBEAT_INTERVAL, value, LE);
        return this;
    }

    public long heartbeatTimeoutNanos()
    {
        return buffer.getLong(offset + HEARTBEAT_TIMEOUT, LE);
    }

    public WelcomeFlyweight heartbeatTimeoutNanos(final long value)
    {
        mutable.putLong(offset + HEARTBEAT_TIMEOUT, value, LE);
        return this;
    }

    public int mtu()
    {
        return buffer.getInt(offset + MTU, LE);
    }

    public WelcomeFlyweight mtu(final int value)
    {
        mutable.putInt(offset + MTU, value, LE);
        return this;
    }

    /** @return slots of the publisher's shared tick log, 0 when it has none for this consumer's transport. */
    public int sharedLogSlots()
    {
        return buffer.getInt(offset + SHARED_LOG_SLOTS, LE);
    }

    public WelcomeFlyweight sharedLogSlots(final int value)
    {
        mutable.putInt(offset + SHARED_LOG_SLOTS, value, LE);
        return this;
    }
}
