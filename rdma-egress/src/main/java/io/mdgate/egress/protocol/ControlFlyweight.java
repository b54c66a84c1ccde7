package io.mdgate.egress.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Base of the control message flyweights: the common header ({@link ControlMessageDescriptor}) over a buffer.
 * Subclasses add their fields. Not thread-safe; reuse one instance per thread.
 */
public abstract class ControlFlyweight
{
    protected static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    protected DirectBuffer buffer;
    protected MutableDirectBuffer mutable;
    protected int offset;

    /** Wraps a received message for reading. */
    public ControlFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutable = null;
        this.offset = offset;
        return this;
    }

    /** Wraps a buffer for a new message and writes its header. */
    public ControlFlyweight wrapForEncode(final MutableDirectBuffer buffer, final int offset, final short type)
    {
        this.buffer = buffer;
        this.mutable = buffer;
        this.offset = offset;
        buffer.setMemory(offset, length(), (byte)0);
        buffer.putShort(offset + ControlMessageDescriptor.TYPE_OFFSET, type, LE);
        buffer.putShort(offset + ControlMessageDescriptor.VERSION_OFFSET, ControlMessageDescriptor.PROTOCOL_VERSION, LE);
        return this;
    }

    public short type()
    {
        return buffer.getShort(offset + ControlMessageDescriptor.TYPE_OFFSET, LE);
    }

    public short version()
    {
        return buffer.getShort(offset + ControlMessageDescriptor.VERSION_OFFSET, LE);
    }

    public DirectBuffer buffer()
    {
        return buffer;
    }

    /** @return the buffer being encoded (null when wrapped for reading). */
    public MutableDirectBuffer mutableBuffer()
    {
        return mutable;
    }

    public int offset()
    {
        return offset;
    }

    /** @return the encoded length of this message type. */
    public abstract int length();

    /** Reads the type of the message at {@code offset}. */
    public static short typeOf(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + ControlMessageDescriptor.TYPE_OFFSET, LE);
    }

    protected String ascii(final int at, final int maxLength)
    {
        final int length = Math.min(buffer.getByte(offset + at) & 0xFF, maxLength);
        return buffer.getStringWithoutLengthAscii(offset + at + 1, length);
    }

    protected void ascii(final int at, final int maxLength, final String value)
    {
        final int length = Math.min(value.length(), maxLength);
        mutable.putByte(offset + at, (byte)length);
        mutable.putStringWithoutLengthAscii(offset + at + 1, value, 0, length);
    }
}
