package io.mdgate.core.capture;

import java.io.IOException;
import java.nio.ByteOrder;

/**
 * Reads a classic libpcap capture: the 24-byte file header (microsecond or nanosecond magic, in either byte order),
 * then records of a 16-byte header and the captured frame, handed to a {@link UdpFrameDissector} in place in the
 * input's window.
 * <pre>
 *   file header:   magic(4) major(2) minor(2) thiszone(4) sigfigs(4) snaplen(4) linktype(4)
 *   record header: seconds(4) fraction(4, micro- or nanoseconds) captured length(4) original length(4)
 * </pre>
 * A record whose captured length does not fit the window is skipped and counted as oversized; a last record cut
 * short by the end of the file is counted as truncated. Neither is thrown.
 * <p>
 * Not thread-safe: one reader thread.
 */
public final class PcapReader
{
    public static final int FILE_HEADER_LENGTH = 24;
    public static final int RECORD_HEADER_LENGTH = 16;

    private static final int LINK_TYPE_OFFSET = 20;
    private static final int LINK_TYPE_MASK = 0xFFFF;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private ByteOrder byteOrder = ByteOrder.BIG_ENDIAN;
    private boolean nanosecond;
    private int linkType;
    private long records;
    private long truncatedRecords;
    private long oversizedRecords;

    /**
     * Reads the file header and every record to the end of the input, or until the dissector is stopped.
     *
     * @param input     positioned at the file header.
     * @param dissector finds the UDP payload in each frame.
     * @param handler   receives the UDP payloads.
     * @return records read.
     * @throws CaptureFormatException when the input does not start with a pcap file header.
     * @throws IOException            when the file cannot be read.
     */
    public long read(final CaptureInput input, final UdpFrameDissector dissector, final UdpDatagramHandler handler)
        throws IOException
    {
        readFileHeader(input);
        final long before = records;
        while (!dissector.isStopped() && input.ensure(RECORD_HEADER_LENGTH))
        {
            final int at = input.position();
            final long seconds = input.buffer().getInt(at, byteOrder) & 0xFFFF_FFFFL;
            final long fraction = input.buffer().getInt(at + 4, byteOrder) & 0xFFFF_FFFFL;
            final long capturedLength = input.buffer().getInt(at + 8, byteOrder) & 0xFFFF_FFFFL;
            if (capturedLength > input.capacity() - RECORD_HEADER_LENGTH)
            {
                input.advance(RECORD_HEADER_LENGTH);
                skipOversized(input, capturedLength);
                continue;
            }
            if (!input.ensure(RECORD_HEADER_LENGTH + (int)capturedLength))
            {
                break;
            }
            records++;
            final long timestamp = seconds * NANOS_PER_SECOND + (nanosecond ? fraction : fraction * 1000);
            final int frameAt = input.position() + RECORD_HEADER_LENGTH;
            input.advance(RECORD_HEADER_LENGTH + (int)capturedLength);
            dissector.dissect(linkType, timestamp, input.buffer(), frameAt, (int)capturedLength, handler);
        }
        if (!dissector.isStopped() && input.remaining() > 0)
        {
            truncatedRecords++;
            input.advance(input.remaining());
        }
        return records - before;
    }

    private void readFileHeader(final CaptureInput input) throws IOException
    {
        if (!input.ensure(FILE_HEADER_LENGTH))
        {
            throw new CaptureFormatException(input.name() + ": too short for a pcap file header (" +
                FILE_HEADER_LENGTH + " bytes)");
        }
        final int magic = input.buffer().getInt(input.position(), ByteOrder.BIG_ENDIAN);
        switch (magic)
        {
            case ItchFileFormat.PCAP_MICROS -> magic(ByteOrder.BIG_ENDIAN, false);
            case ItchFileFormat.PCAP_MICROS_SWAPPED -> magic(ByteOrder.LITTLE_ENDIAN, false);
            case ItchFileFormat.PCAP_NANOS -> magic(ByteOrder.BIG_ENDIAN, true);
            case ItchFileFormat.PCAP_NANOS_SWAPPED -> magic(ByteOrder.LITTLE_ENDIAN, true);
            default -> throw new CaptureFormatException(input.name() + ": not a pcap capture (magic 0x" +
                Integer.toHexString(magic) + ", expected a1b2c3d4 or a1b23c4d in either byte order)");
        }
        linkType = input.buffer().getInt(input.position() + LINK_TYPE_OFFSET, byteOrder) & LINK_TYPE_MASK;
        input.advance(FILE_HEADER_LENGTH);
    }

    private void magic(final ByteOrder order, final boolean nanos)
    {
        byteOrder = order;
        nanosecond = nanos;
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

    /** @return the byte order of the file's headers. */
    public ByteOrder byteOrder()
    {
        return byteOrder;
    }

    /** @return true when record timestamps carry nanoseconds rather than microseconds. */
    public boolean nanosecond()
    {
        return nanosecond;
    }

    /** @return the capture's link type (1 for Ethernet). */
    public int linkType()
    {
        return linkType;
    }

    /** @return records read and dissected. */
    public long records()
    {
        return records;
    }

    /** @return records cut short by the end of the file (at most one per file). */
    public long truncatedRecords()
    {
        return truncatedRecords;
    }

    /** @return records too large for the reader's window, skipped. */
    public long oversizedRecords()
    {
        return oversizedRecords;
    }
}
