package io.mdgate.core.mold;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static io.mdgate.core.mold.MoldUdp64Descriptor.REQUEST_COUNT_OFFSET;
import static io.mdgate.core.mold.MoldUdp64Descriptor.REQUEST_SEQUENCE_NUMBER_OFFSET;
import static io.mdgate.core.mold.MoldUdp64Descriptor.SESSION_LENGTH;
import static io.mdgate.core.mold.MoldUdp64Descriptor.SESSION_OFFSET;

/**
 * A MoldUDP64 re-request (see {@link MoldUdp64Descriptor}): a client asks the re-request server for
 * {@code requestedCount} messages of a session from {@code sequenceNumber} on. Read by the server, written by
 * the client: wrap a {@link DirectBuffer} to read, a {@link MutableDirectBuffer} to read and write. A server
 * checks {@link #isRequestLength(int)} on the datagram before reading. Allocation-free except
 * {@link #sessionString()}. Not thread-safe: one instance per thread.
 */
public final class MoldUdp64RequestFlyweight
{
    /** A re-request is exactly this long. */
    public static final int LENGTH = MoldUdp64Descriptor.REQUEST_LENGTH;

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /**
     * @param datagramLength length of a received datagram.
     * @return true when it has the length of a re-request; anything else is malformed and should be dropped.
     */
    public static boolean isRequestLength(final int datagramLength)
    {
        return datagramLength == LENGTH;
    }

    /**
     * Wraps a request for reading.
     *
     * @param buffer holding at least {@link #LENGTH} bytes from offset.
     * @param offset of the request's first byte.
     * @return this for a fluent API.
     */
    public MoldUdp64RequestFlyweight wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = null;
        this.offset = offset;
        return this;
    }

    /**
     * Wraps a request for reading and writing.
     *
     * @param buffer with at least {@link #LENGTH} bytes from offset.
     * @param offset of the request's first byte.
     * @return this for a fluent API.
     */
    public MoldUdp64RequestFlyweight wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Copies the session into {@code dst}.
     *
     * @param dst       to copy into.
     * @param dstOffset where the 10 bytes go in dst.
     */
    public void session(final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + SESSION_OFFSET, dst, dstOffset, SESSION_LENGTH);
    }

    /**
     * @param src the 10-byte session, as built by {@link MoldUdp64Session#of(String)}.
     * @return this for a fluent API.
     * @throws IllegalArgumentException when not exactly 10 bytes.
     */
    public MoldUdp64RequestFlyweight session(final byte[] src)
    {
        MoldUdp64Session.checkLength(src);
        mutableBuffer.putBytes(offset + SESSION_OFFSET, src);
        return this;
    }

    /** @return true when the request names this session; allocation-free. */
    public boolean sessionEquals(final byte[] expected)
    {
        if (expected.length != SESSION_LENGTH)
        {
            return false;
        }
        for (int i = 0; i < SESSION_LENGTH; i++)
        {
            if (buffer.getByte(offset + SESSION_OFFSET + i) != expected[i])
            {
                return false;
            }
        }
        return true;
    }

    /** @return the session as text without padding. Allocates: for reports, not the hot path. */
    public String sessionString()
    {
        final byte[] bytes = new byte[SESSION_LENGTH];
        session(bytes, 0);
        return MoldUdp64Session.text(bytes);
    }

    /** @return the first sequence wanted. */
    public long sequenceNumber()
    {
        return buffer.getLong(offset + REQUEST_SEQUENCE_NUMBER_OFFSET, BE);
    }

    public MoldUdp64RequestFlyweight sequenceNumber(final long firstSequence)
    {
        mutableBuffer.putLong(offset + REQUEST_SEQUENCE_NUMBER_OFFSET, firstSequence, BE);
        return this;
    }

    /** @return how many messages are wanted (u16). */
    public int requestedCount()
    {
        return buffer.getShort(offset + REQUEST_COUNT_OFFSET, BE) & 0xFFFF;
    }

    /**
     * @param count messages wanted; only the low 16 bits go on the wire.
     * @return this for a fluent API.
     */
    public MoldUdp64RequestFlyweight requestedCount(final int count)
    {
        mutableBuffer.putShort(offset + REQUEST_COUNT_OFFSET, (short)count, BE);
        return this;
    }
}
