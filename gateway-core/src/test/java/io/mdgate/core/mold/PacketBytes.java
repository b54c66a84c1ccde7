package io.mdgate.core.mold;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Builds MoldUDP64 packets byte by byte for tests, independently of {@link MoldUdp64PacketEncoder}, so that the
 * decoder is checked against the layout as written in the specification rather than against the encoder.
 */
final class PacketBytes
{
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    PacketBytes(final String session, final long sequenceNumber, final int messageCount)
    {
        final byte[] sessionBytes = (session + "          ").substring(0, 10).getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(sessionBytes);
        u64(sequenceNumber);
        u16(messageCount);
    }

    PacketBytes block(final byte... message)
    {
        u16(message.length);
        out.writeBytes(message);
        return this;
    }

    PacketBytes raw(final int... bytes)
    {
        for (final int b : bytes)
        {
            out.write(b);
        }
        return this;
    }

    PacketBytes u16(final int value)
    {
        out.write(value >>> 8);
        out.write(value);
        return this;
    }

    PacketBytes u64(final long value)
    {
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            out.write((int)(value >>> shift));
        }
        return this;
    }

    byte[] toBytes()
    {
        return out.toByteArray();
    }

    static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
