package io.mdgate.core.itch;

import java.nio.charset.StandardCharsets;

/**
 * Builds the bytes a message must have on the wire, field by field at offsets written out from the ITCH 5.0
 * table, so that encoder and decoder are checked against the specification rather than against each other's
 * offset constants.
 */
final class WireBytes
{
    private final byte[] bytes;

    WireBytes(final int length)
    {
        bytes = new byte[length];
    }

    /** The common header: type, stock locate, tracking number, u48 timestamp. */
    static WireBytes header(final char type, final int length, final int locate, final int tracking, final long timestamp)
    {
        return new WireBytes(length).ch(0, type).u16(1, locate).u16(3, tracking).u48(5, timestamp);
    }

    WireBytes ch(final int at, final char value)
    {
        bytes[at] = (byte)value;
        return this;
    }

    WireBytes u16(final int at, final int value)
    {
        return bigEndian(at, value, 2);
    }

    WireBytes u32(final int at, final long value)
    {
        return bigEndian(at, value, 4);
    }

    WireBytes u48(final int at, final long value)
    {
        return bigEndian(at, value, 6);
    }

    WireBytes u64(final int at, final long value)
    {
        return bigEndian(at, value, 8);
    }

    /** An alpha field: ASCII, left-justified, padded with spaces to its width. */
    WireBytes alpha(final int at, final String text, final int width)
    {
        final byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < width; i++)
        {
            bytes[at + i] = i < ascii.length ? ascii[i] : (byte)' ';
        }
        return this;
    }

    byte[] toBytes()
    {
        return bytes.clone();
    }

    int length()
    {
        return bytes.length;
    }

    private WireBytes bigEndian(final int at, final long value, final int width)
    {
        for (int i = 0; i < width; i++)
        {
            bytes[at + i] = (byte)(value >>> (8 * (width - 1 - i)));
        }
        return this;
    }
}
