package io.mdgate.core.capture;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;

/**
 * Writes test inputs byte by byte in a chosen byte order, independently of the readers' offset constants.
 */
public final class ByteWriter
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteOrder order;

    public ByteWriter(final ByteOrder order)
    {
        this.order = order;
    }

    public ByteWriter u8(final int value)
    {
        out.write(value);
        return this;
    }

    public ByteWriter u16(final int value)
    {
        return integer(value, 2);
    }

    public ByteWriter u32(final long value)
    {
        return integer(value, 4);
    }

    public ByteWriter u64(final long value)
    {
        return integer(value, 8);
    }

    public ByteWriter bytes(final byte[] value)
    {
        out.writeBytes(value);
        return this;
    }

    /** Pads with zeros to a multiple of four bytes. */
    public ByteWriter pad4()
    {
        while ((out.size() & 3) != 0)
        {
            out.write(0);
        }
        return this;
    }

    public int size()
    {
        return out.size();
    }

    public byte[] toBytes()
    {
        return out.toByteArray();
    }

    private ByteWriter integer(final long value, final int width)
    {
        for (int i = 0; i < width; i++)
        {
            final int shift = order == ByteOrder.BIG_ENDIAN ? (width - 1 - i) * 8 : i * 8;
            out.write((int)(value >>> shift));
        }
        return this;
    }
}
