package io.mdgate.core.itch;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Base of the ITCH 5.0 flyweights: a view over one message in a buffer, read and written in place.
 * <p>
 * Every message starts with the same 11-byte header:
 * <pre>
 *   0        1               3                5                               11
 *   +--------+---------------+----------------+-------------------------------+------
 *   |  type  | stock locate  | tracking number|  timestamp (u48, ns since     | body
 *   |  (1)   |   (u16 BE)    |    (u16 BE)    |  midnight, exchange local)    | ...
 *   +--------+---------------+----------------+-------------------------------+------
 * </pre>
 * Integers are big-endian and unsigned. A flyweight wraps a read-only buffer for decoding or a mutable one
 * for encoding; setters need the latter. Not thread-safe: one instance per thread.
 */
public abstract class ItchMessageFlyweight
{
    public static final int TYPE_OFFSET = 0;
    public static final int STOCK_LOCATE_OFFSET = 1;
    public static final int TRACKING_NUMBER_OFFSET = 3;
    public static final int TIMESTAMP_OFFSET = 5;
    public static final int HEADER_LENGTH = 11;
    public static final int BODY_OFFSET = HEADER_LENGTH;

    /** Alpha fields are ASCII, left-justified and padded with spaces. */
    public static final byte PAD = ' ';

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    protected DirectBuffer buffer;
    protected MutableDirectBuffer mutableBuffer;
    protected int offset;

    /**
     * Wraps a message for reading.
     *
     * @param buffer holding the message.
     * @param offset of the type byte.
     * @return this for a fluent API.
     */
    public ItchMessageFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = null;
        this.offset = offset;
        return this;
    }

    /**
     * Wraps a region for writing and writes this message's type byte there.
     *
     * @param buffer to write into, with at least {@link #length()} bytes from offset.
     * @param offset of the type byte.
     * @return this for a fluent API.
     */
    public ItchMessageFlyweight wrapForEncode(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        buffer.putByte(offset + TYPE_OFFSET, type());
        return this;
    }

    /** @return the message type byte this flyweight is for, e.g. {@code 'A'}. */
    public abstract byte type();

    /** @return the whole message length this type has on the wire, type byte included. */
    public abstract int length();

    public DirectBuffer buffer()
    {
        return buffer;
    }

    public int offset()
    {
        return offset;
    }

    public int stockLocate()
    {
        return u16(STOCK_LOCATE_OFFSET);
    }

    public ItchMessageFlyweight stockLocate(final int value)
    {
        u16(STOCK_LOCATE_OFFSET, value);
        return this;
    }

    public int trackingNumber()
    {
        return u16(TRACKING_NUMBER_OFFSET);
    }

    public ItchMessageFlyweight trackingNumber(final int value)
    {
        u16(TRACKING_NUMBER_OFFSET, value);
        return this;
    }

    /** @return nanoseconds since midnight, exchange local time. */
    public long timestamp()
    {
        final int at = offset + TIMESTAMP_OFFSET;
        return ((long)(buffer.getShort(at, BE) & 0xFFFF) << 32) | (buffer.getInt(at + 2, BE) & 0xFFFF_FFFFL);
    }

    public ItchMessageFlyweight timestamp(final long nanosSinceMidnight)
    {
        final int at = offset + TIMESTAMP_OFFSET;
        mutableBuffer.putShort(at, (short)(nanosSinceMidnight >>> 32), BE);
        mutableBuffer.putInt(at + 2, (int)nanosSinceMidnight, BE);
        return this;
    }

    protected final char alpha1(final int fieldOffset)
    {
        return (char)(buffer.getByte(offset + fieldOffset) & 0xFF);
    }

    protected final void alpha1(final int fieldOffset, final char value)
    {
        mutableBuffer.putByte(offset + fieldOffset, (byte)value);
    }

    protected final int u16(final int fieldOffset)
    {
        return buffer.getShort(offset + fieldOffset, BE) & 0xFFFF;
    }

    protected final void u16(final int fieldOffset, final int value)
    {
        mutableBuffer.putShort(offset + fieldOffset, (short)value, BE);
    }

    protected final long u32(final int fieldOffset)
    {
        return buffer.getInt(offset + fieldOffset, BE) & 0xFFFF_FFFFL;
    }

    protected final void u32(final int fieldOffset, final long value)
    {
        mutableBuffer.putInt(offset + fieldOffset, (int)value, BE);
    }

    protected final long u64(final int fieldOffset)
    {
        return buffer.getLong(offset + fieldOffset, BE);
    }

    protected final void u64(final int fieldOffset, final long value)
    {
        mutableBuffer.putLong(offset + fieldOffset, value, BE);
    }

    /** An 8-character alpha field packed into a long, first character in the high byte: a zero-allocation key. */
    protected final long alpha8(final int fieldOffset)
    {
        return buffer.getLong(offset + fieldOffset, BE);
    }

    protected final void alpha8(final int fieldOffset, final long packed)
    {
        mutableBuffer.putLong(offset + fieldOffset, packed, BE);
    }

    /** A 4-character alpha field packed into an int, first character in the high byte. */
    protected final int alpha4(final int fieldOffset)
    {
        return buffer.getInt(offset + fieldOffset, BE);
    }

    protected final void alpha4(final int fieldOffset, final int packed)
    {
        mutableBuffer.putInt(offset + fieldOffset, packed, BE);
    }

    /** A 2-character alpha field packed into an int's low 16 bits, first character in the high byte. */
    protected final int alpha2(final int fieldOffset)
    {
        return buffer.getShort(offset + fieldOffset, BE) & 0xFFFF;
    }

    protected final void alpha2(final int fieldOffset, final int packed)
    {
        mutableBuffer.putShort(offset + fieldOffset, (short)packed, BE);
    }
}
