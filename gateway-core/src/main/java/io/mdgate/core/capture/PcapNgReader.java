package io.mdgate.core.capture;

import org.agrona.DirectBuffer;

import java.io.IOException;
import java.nio.ByteOrder;

/**
 * Reads a pcapng capture block by block and hands each captured frame to a {@link UdpFrameDissector} in place in
 * the input's window. Every block is {@code type(4) totalLength(4) body totalLength(4)}; the byte order is set per
 * section by the Section Header Block's byte-order magic. Blocks read:
 * <ul>
 *   <li>Section Header (0x0A0D0D0A): byte order, forgets the previous section's interfaces;</li>
 *   <li>Interface Description (1): link type and timestamp resolution ({@code if_tsresol}, microseconds by default);</li>
 *   <li>Enhanced Packet (6), Simple Packet (3) and the obsolete Packet (2) block: a frame.</li>
 * </ul>
 * Other blocks (name resolution, statistics, custom, ...) are skipped. A packet block naming an interface that was
 * not described, or whose lengths contradict its block, is counted as malformed; a block too large for the window
 * is skipped as oversized; a block whose total length is impossible loses the framing, so reading stops there and
 * it is counted as malformed; a last block cut short by the end of the file is counted as truncated.
 * <p>
 * Not thread-safe: one reader thread.
 */
public final class PcapNgReader
{
    /** At most this many interfaces per section are remembered. */
    public static final int MAX_INTERFACES = 256;

    static final int SECTION_HEADER_BLOCK = ItchFileFormat.PCAPNG_SECTION_HEADER;
    static final int INTERFACE_DESCRIPTION_BLOCK = 1;
    static final int PACKET_BLOCK = 2;
    static final int SIMPLE_PACKET_BLOCK = 3;
    static final int ENHANCED_PACKET_BLOCK = 6;

    private static final int BLOCK_HEADER_LENGTH = 8;
    private static final int MIN_BLOCK_LENGTH = 12;
    private static final int PACKET_BLOCK_DATA_OFFSET = 28;
    private static final int SIMPLE_PACKET_DATA_OFFSET = 12;
    private static final int OPTION_END = 0;
    private static final int OPTION_IF_TSRESOL = 9;
    private static final int DEFAULT_TSRESOL = 6;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final int[] linkTypes = new int[MAX_INTERFACES];
    private final int[] snapLengths = new int[MAX_INTERFACES];
    private final byte[] timestampResolutions = new byte[MAX_INTERFACES];

    private ByteOrder byteOrder = ByteOrder.LITTLE_ENDIAN;
    private int interfaces;
    private long sections;
    private long records;
    private long truncatedRecords;
    private long oversizedRecords;
    private long malformedBlocks;

    /**
     * Reads every block to the end of the input, or until the dissector is stopped.
     *
     * @param input     positioned at the first Section Header Block.
     * @param dissector finds the UDP payload in each frame.
     * @param handler   receives the UDP payloads.
     * @return packet records read.
     * @throws CaptureFormatException when the input does not start with a Section Header Block.
     * @throws IOException            when the file cannot be read.
     */
    public long read(final CaptureInput input, final UdpFrameDissector dissector, final UdpDatagramHandler handler)
        throws IOException
    {
        checkStartsWithSection(input);
        final long before = records;
        while (!dissector.isStopped() && input.ensure(MIN_BLOCK_LENGTH))
        {
            final int at = input.position();
            final boolean section = input.buffer().getInt(at, ByteOrder.BIG_ENDIAN) == SECTION_HEADER_BLOCK;
            final ByteOrder order = section ? sectionOrder(input.buffer(), at) : byteOrder;
            final long totalLength = order == null ? 0 : input.buffer().getInt(at + 4, order) & 0xFFFF_FFFFL;
            if (totalLength < MIN_BLOCK_LENGTH || (totalLength & 3) != 0)
            {
                malformedBlocks++;
                input.advance(input.remaining());
                input.skip(Long.MAX_VALUE);
                break;
            }
            if (totalLength > input.capacity())
            {
                skipOversized(input, totalLength);
                continue;
            }
            if (!input.ensure((int)totalLength))
            {
                break;
            }
            final int blockAt = input.position();
            input.advance((int)totalLength);
            onBlock(section, order, input.buffer(), blockAt, (int)totalLength, dissector, handler);
        }
        if (!dissector.isStopped() && input.remaining() > 0)
        {
            truncatedRecords++;
            input.advance(input.remaining());
        }
        return records - before;
    }

    private void checkStartsWithSection(final CaptureInput input) throws IOException
    {
        if (!input.ensure(MIN_BLOCK_LENGTH) ||
            input.buffer().getInt(input.position(), ByteOrder.BIG_ENDIAN) != SECTION_HEADER_BLOCK ||
            sectionOrder(input.buffer(), input.position()) == null)
        {
            throw new CaptureFormatException(input.name() + ": not a pcapng capture (expected a Section Header " +
                "Block 0a0d0d0a with byte-order magic 1a2b3c4d)");
        }
    }

    private static ByteOrder sectionOrder(final DirectBuffer buffer, final int blockAt)
    {
        final int magic = buffer.getInt(blockAt + BLOCK_HEADER_LENGTH, ByteOrder.BIG_ENDIAN);
        if (magic == ItchFileFormat.PCAPNG_BYTE_ORDER_MAGIC)
        {
            return ByteOrder.BIG_ENDIAN;
        }
        return magic == ItchFileFormat.PCAPNG_BYTE_ORDER_MAGIC_SWAPPED ? ByteOrder.LITTLE_ENDIAN : null;
    }

    private void onBlock(
        final boolean section,
        final ByteOrder order,
        final DirectBuffer buffer,
        final int at,
        final int length,
        final UdpFrameDissector dissector,
        final UdpDatagramHandler handler)
    {
        if (section)
        {
            byteOrder = order;
            interfaces = 0;
            sections++;
            return;
        }
        switch (buffer.getInt(at, byteOrder))
        {
            case INTERFACE_DESCRIPTION_BLOCK -> onInterface(buffer, at, length);
            case ENHANCED_PACKET_BLOCK -> onPacket(buffer, at, length, buffer.getInt(at + 8, byteOrder), dissector, handler);
            case PACKET_BLOCK ->
                onPacket(buffer, at, length, buffer.getShort(at + 8, byteOrder) & 0xFFFF, dissector, handler);
            case SIMPLE_PACKET_BLOCK -> onSimplePacket(buffer, at, length, dissector, handler);
            default ->
            {
                // other blocks carry nothing the decoder needs
            }
        }
    }

    private void onInterface(final DirectBuffer buffer, final int at, final int length)
    {
        if (interfaces == MAX_INTERFACES || length < 20)
        {
            malformedBlocks++;
            return;
        }
        final int index = interfaces++;
        linkTypes[index] = buffer.getShort(at + 8, byteOrder) & 0xFFFF;
        snapLengths[index] = buffer.getInt(at + 12, byteOrder);
        timestampResolutions[index] = DEFAULT_TSRESOL;
        int option = at + 16;
        final int end = at + length - 4;
        while (option + 4 <= end)
        {
            final int code = buffer.getShort(option, byteOrder) & 0xFFFF;
            final int optionLength = buffer.getShort(option + 2, byteOrder) & 0xFFFF;
            if (code == OPTION_END || option + 4 + optionLength > end)
            {
                break;
            }
            if (code == OPTION_IF_TSRESOL && optionLength >= 1)
            {
                timestampResolutions[index] = buffer.getByte(option + 4);
            }
            option += 4 + ((optionLength + 3) & ~3);
        }
    }

    private void onPacket(
        final DirectBuffer buffer,
        final int at,
        final int length,
        final int interfaceId,
        final UdpFrameDissector dissector,
        final UdpDatagramHandler handler)
    {
        final long capturedLength = buffer.getInt(at + 20, byteOrder) & 0xFFFF_FFFFL;
        if (interfaceId < 0 || interfaceId >= interfaces || length < PACKET_BLOCK_DATA_OFFSET + 4 ||
            capturedLength > length - PACKET_BLOCK_DATA_OFFSET - 4)
        {
            malformedBlocks++;
            return;
        }
        final long ticks = ((buffer.getInt(at + 12, byteOrder) & 0xFFFF_FFFFL) << 32) |
            (buffer.getInt(at + 16, byteOrder) & 0xFFFF_FFFFL);
        records++;
        dissector.dissect(
            linkTypes[interfaceId],
            toNanos(ticks, timestampResolutions[interfaceId]),
            buffer,
            at + PACKET_BLOCK_DATA_OFFSET,
            (int)capturedLength,
            handler);
    }

    private void onSimplePacket(
        final DirectBuffer buffer,
        final int at,
        final int length,
        final UdpFrameDissector dissector,
        final UdpDatagramHandler handler)
    {
        if (interfaces == 0 || length < SIMPLE_PACKET_DATA_OFFSET + 4)
        {
            malformedBlocks++;
            return;
        }
        long capturedLength = Math.min(
            buffer.getInt(at + 8, byteOrder) & 0xFFFF_FFFFL, length - SIMPLE_PACKET_DATA_OFFSET - 4);
        if (snapLengths[0] > 0)
        {
            capturedLength = Math.min(capturedLength, snapLengths[0] & 0xFFFF_FFFFL);
        }
        records++;
        dissector.dissect(linkTypes[0], 0, buffer, at + SIMPLE_PACKET_DATA_OFFSET, (int)capturedLength, handler);
    }

    /**
     * @param ticks      timestamp in units of the interface's resolution.
     * @param resolution {@code if_tsresol}: bit 7 clear means 10^-n seconds, set means 2^-n seconds.
     * @return nanoseconds since the epoch.
     */
    static long toNanos(final long ticks, final byte resolution)
    {
        final int exponent = resolution & 0x7F;
        if ((resolution & 0x80) == 0)
        {
            if (exponent <= 9)
            {
                long scale = 1;
                for (int i = exponent; i < 9; i++)
                {
                    scale *= 10;
                }
                return ticks * scale;
            }
            long divisor = 1;
            for (int i = 9; i < exponent && divisor < Long.MAX_VALUE / 10; i++)
            {
                divisor *= 10;
            }
            return Long.divideUnsigned(ticks, divisor);
        }
        if (exponent >= 64)
        {
            return 0;
        }
        final long seconds = exponent == 0 ? ticks : ticks >>> exponent;
        final long fraction = exponent == 0 ? 0 : ticks & ((1L << exponent) - 1);
        final long fractionNanos = exponent <= 30 ?
            (fraction * NANOS_PER_SECOND) >>> exponent :
            ((fraction >>> (exponent - 30)) * NANOS_PER_SECOND) >>> 30;
        return seconds * NANOS_PER_SECOND + fractionNanos;
    }

    private void skipOversized(final CaptureInput input, final long length) throws IOException
    {
        if (input.skip(length) == length)
        {
            oversizedRecords++;
        }
        else
        {
            truncatedRecords++;
        }
    }

    /** @return Section Header Blocks read. */
    public long sections()
    {
        return sections;
    }

    /** @return packet records read and dissected. */
    public long records()
    {
        return records;
    }

    /** @return blocks cut short by the end of the file (at most one per file). */
    public long truncatedRecords()
    {
        return truncatedRecords;
    }

    /** @return blocks too large for the reader's window, skipped. */
    public long oversizedRecords()
    {
        return oversizedRecords;
    }

    /** @return blocks whose contents contradict themselves, or an impossible length that stopped the reading. */
    public long malformedBlocks()
    {
        return malformedBlocks;
    }
}
