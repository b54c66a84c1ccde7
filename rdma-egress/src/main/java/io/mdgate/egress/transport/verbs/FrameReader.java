package io.mdgate.egress.transport.verbs;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The direct buffer the library copies received messages or datagrams into, as frames:
 * <pre>
 *   0        4                  4 + length, padded to 8
 *   +--------+------------------+---------+
 *   | length | bytes            | padding |   ... next frame
 *   +--------+------------------+---------+
 * </pre>
 * little-endian length. Sized for {@code frames} frames of up to {@code maxLength} bytes, so one native call fills
 * it. Threading: one polling thread.
 */
final class FrameReader
{
    static final int HEADER_LENGTH = 4;
    static final int ALIGNMENT = 8;

    private final UnsafeBuffer buffer;
    private final int frames;

    FrameReader(final int maxLength, final int frames)
    {
        final int frameLength = frameLength(maxLength);
        this.frames = frames;
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(align(frameLength * frames, 4096), 4096));
    }

    /** The room one frame of a message of up to {@code maxLength} bytes takes (the library rounds up to 64). */
    static int frameLength(final int maxLength)
    {
        return align(HEADER_LENGTH + align(maxLength, 64), ALIGNMENT);
    }

    static int align(final int value, final int alignment)
    {
        return (value + alignment - 1) & -alignment;
    }

    long address()
    {
        return buffer.addressOffset();
    }

    int capacity()
    {
        return buffer.capacity();
    }

    int frames()
    {
        return frames;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return the length of the frame at {@code offset}. */
    int length(final int offset)
    {
        return buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
    }

    /** @return the offset of the frame after the one at {@code offset}. */
    int next(final int offset)
    {
        return offset + align(HEADER_LENGTH + length(offset), ALIGNMENT);
    }
}
