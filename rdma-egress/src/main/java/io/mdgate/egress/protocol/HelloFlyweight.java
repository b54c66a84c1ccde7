package io.mdgate.egress.protocol;

import io.mdgate.egress.transport.RemoteKey;

/**
 * HELLO: a consumer's name, token and registered region ({@link ControlMessageDescriptor}). Not thread-safe.
 */
public final class HelloFlyweight extends ControlFlyweight
{
    public static final int MAX_NAME_LENGTH = 32;
    public static final int MAX_TOKEN_LENGTH = 64;
    private static final int RING_SLOTS = 8;
    private static final int TABLE_SLOTS = 12;
    private static final int REGION_ADDRESS = 16;
    private static final int REGION_KEY = 24;
    private static final int DEPTH_LEVELS = 28;
    private static final int REGION_LENGTH = 32;
    private static final int NAME = 40;
    private static final int TOKEN = NAME + 1 + MAX_NAME_LENGTH;
    public static final int LENGTH = TOKEN + 1 + MAX_TOKEN_LENGTH;

    @Override
    public int length()
    {
        return LENGTH;
    }

    public int ringSlots()
    {
        return buffer.getInt(offset + RING_SLOTS, LE);
    }

    public HelloFlyweight ringSlots(final int value)
    {
        mutable.putInt(offset + RING_SLOTS, value, LE);
        return this;
    }

    public int tableSlots()
    {
        return buffer.getInt(offset + TABLE_SLOTS, LE);
    }

    public HelloFlyweight tableSlots(final int value)
    {
        mutable.putInt(offset + TABLE_SLOTS, value, LE);
        return this;
    }

    /** @return levels per side of the region's depth table slots, 0 for none (and from consumers before depth). */
    public int depthLevels()
    {
        return buffer.getInt(offset + DEPTH_LEVELS, LE);
    }

    public HelloFlyweight depthLevels(final int value)
    {
        mutable.putInt(offset + DEPTH_LEVELS, value, LE);
        return this;
    }

    public RemoteKey region()
    {
        return new RemoteKey(buffer.getLong(offset + REGION_ADDRESS, LE), buffer.getInt(offset + REGION_KEY, LE),
            buffer.getLong(offset + REGION_LENGTH, LE));
    }

    public HelloFlyweight region(final RemoteKey key)
    {
        mutable.putLong(offset + REGION_ADDRESS, key.address(), LE);
        mutable.putInt(offset + REGION_KEY, key.key(), LE);
        mutable.putLong(offset + REGION_LENGTH, key.length(), LE);
        return this;
    }

    public String name()
    {
        return ascii(NAME, MAX_NAME_LENGTH);
    }

    public HelloFlyweight name(final String value)
    {
        ascii(NAME, MAX_NAME_LENGTH, value);
        return this;
    }

    /** @return the token's bytes (allocates: session set-up only). */
    public byte[] token()
    {
        final int length = Math.min(buffer.getByte(offset + TOKEN) & 0xFF, MAX_TOKEN_LENGTH);
        final byte[] token = new byte[length];
        buffer.getBytes(offset + TOKEN + 1, token);
        return token;
    }

    public HelloFlyweight token(final byte[] value)
    {
        final int length = Math.min(value.length, MAX_TOKEN_LENGTH);
        mutable.putByte(offset + TOKEN, (byte)length);
        mutable.putBytes(offset + TOKEN + 1, value, 0, length);
        return this;
    }
}
