package io.mdgate.core.capture;

import io.mdgate.core.itch.ItchMessageType;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The file framings a user may hand to the decoder, and their detection from the first bytes of the content (never
 * from the file name). Detection looks at most {@link #DETECTION_LENGTH} bytes of already-decompressed data.
 * <p>
 * Stateless and thread-safe.
 */
public enum ItchFileFormat
{
    /** Nasdaq's daily files: {@code [u16 BE length][message]} repeated. */
    DAILY("daily", "Nasdaq daily file (u16 length + ITCH message)"),
    /** ITCH messages each preceded by two zero bytes; framed by the length of their type. */
    ZERO_PREFIXED("zero-prefixed", "ITCH file with zero length prefixes (framed by message type)"),
    /** Classic libpcap capture (micro- or nanosecond timestamps, either byte order) of MoldUDP64 over UDP. */
    PCAP("pcap", "pcap capture of MoldUDP64 over Ethernet/IPv4/UDP"),
    /** pcapng capture of MoldUDP64 over UDP. */
    PCAPNG("pcapng", "pcapng capture of MoldUDP64 over Ethernet/IPv4/UDP");

    /** Bytes of content enough to tell the formats apart. */
    public static final int DETECTION_LENGTH = 4096;

    /** How many consecutive ITCH records must frame cleanly for a file to count as an ITCH file. */
    static final int RECORDS_TO_CHECK = 8;

    static final int PCAP_MICROS = 0xA1B2C3D4;
    static final int PCAP_MICROS_SWAPPED = 0xD4C3B2A1;
    static final int PCAP_NANOS = 0xA1B23C4D;
    static final int PCAP_NANOS_SWAPPED = 0x4D3CB2A1;
    static final int PCAPNG_SECTION_HEADER = 0x0A0D0D0A;
    static final int PCAPNG_BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    static final int PCAPNG_BYTE_ORDER_MAGIC_SWAPPED = 0x4D3C2B1A;

    private static final int PREFIX_LENGTH = 2;

    private final String cliName;
    private final String description;

    ItchFileFormat(final String cliName, final String description)
    {
        this.cliName = cliName;
        this.description = description;
    }

    /** @return the name used on the command line and in summaries, e.g. {@code zero-prefixed}. */
    public String cliName()
    {
        return cliName;
    }

    /** @return a short description naming the framing. */
    public String description()
    {
        return description;
    }

    /** @return true for the packet captures (pcap and pcapng). */
    public boolean isCapture()
    {
        return this == PCAP || this == PCAPNG;
    }

    /** @return one line per format, for messages that say what would have been accepted. */
    public static String acceptedFormats()
    {
        final StringBuilder sb = new StringBuilder();
        for (final ItchFileFormat format : values())
        {
            sb.append(sb.length() == 0 ? "" : "; ").append(format.description);
        }
        return sb.append(" (any of them may be gzip-compressed)").toString();
    }

    /**
     * Recognises a format from the start of a file's content.
     *
     * @param buffer holding the start of the content.
     * @param offset of the first byte of the content.
     * @param length bytes available, ideally {@link #DETECTION_LENGTH} or the whole file if shorter.
     * @return the format, or null when the content matches none.
     */
    public static ItchFileFormat detect(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length >= 4)
        {
            final int magic = buffer.getInt(offset, ByteOrder.BIG_ENDIAN);
            if (magic == PCAP_MICROS || magic == PCAP_MICROS_SWAPPED || magic == PCAP_NANOS ||
                magic == PCAP_NANOS_SWAPPED)
            {
                return length >= PcapReader.FILE_HEADER_LENGTH ? PCAP : null;
            }
            if (magic == PCAPNG_SECTION_HEADER)
            {
                return isPcapNg(buffer, offset, length) ? PCAPNG : null;
            }
        }
        if (framesCleanly(buffer, offset, length, false))
        {
            return DAILY;
        }
        if (framesCleanly(buffer, offset, length, true))
        {
            return ZERO_PREFIXED;
        }
        return null;
    }

    private static boolean isPcapNg(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < 12)
        {
            return false;
        }
        final int byteOrderMagic = buffer.getInt(offset + 8, ByteOrder.BIG_ENDIAN);
        return byteOrderMagic == PCAPNG_BYTE_ORDER_MAGIC || byteOrderMagic == PCAPNG_BYTE_ORDER_MAGIC_SWAPPED;
    }

    /**
     * Walks up to {@link #RECORDS_TO_CHECK} records from the start, the walk ending early at the end of the sample or
     * where the framing cannot go on (a zero prefix in a daily file, an unknown type in a zero-prefixed one). A record
     * is good when its type is ITCH 5.0 and its prefix is its length (daily) or zero (zero-prefixed). The file matches
     * when the first record is good and at least three in four of those looked at are, so a damaged record near the
     * start does not hide an otherwise good file.
     */
    private static boolean framesCleanly(
        final DirectBuffer buffer, final int offset, final int length, final boolean zeroPrefixed)
    {
        int at = offset;
        final int end = offset + length;
        int checked = 0;
        int good = 0;
        while (checked < RECORDS_TO_CHECK && at + PREFIX_LENGTH < end)
        {
            final int prefix = buffer.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            final int typeLength = ItchMessageType.lengthOf(buffer.getByte(at + PREFIX_LENGTH));
            checked++;
            if (typeLength != 0 && prefix == (zeroPrefixed ? 0 : typeLength))
            {
                good++;
            }
            else if (checked == 1)
            {
                return false;
            }
            final int next = zeroPrefixed ? typeLength : prefix;
            if (next == 0)
            {
                break;
            }
            at += PREFIX_LENGTH + next;
        }
        return good > 0 && good * 4 >= checked * 3;
    }
}
