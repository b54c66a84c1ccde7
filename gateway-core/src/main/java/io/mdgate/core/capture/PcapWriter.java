package io.mdgate.core.capture;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Writes a classic pcap file with nanosecond timestamps and Ethernet link type: UDP datagrams wrapped in
 * Ethernet II, IPv4 (valid header checksum) and UDP (valid checksum) headers, or ready-made frames. A path
 * ending in {@code .gz} is gzip-compressed. Records are built in one preallocated staging buffer and written
 * when it fills: no allocation per packet.
 * <pre>
 *   file header (24, little-endian): magic A1B23C4D (ns), version 2.4, zone 0, sigfigs 0, snaplen, link type 1
 *   record header (16, little-endian): seconds, nanoseconds, captured length, original length
 *   frame: Ethernet dst (6) src (6) type 0800 | IPv4 (20, no options) | UDP (8) | payload
 * </pre>
 * The destination MAC of a multicast group is its IPv4 multicast MAC (01:00:5e and the group's low 23 bits);
 * other MACs are locally administered (02:00 and the IPv4 address). I/O failures are thrown as
 * {@link UncheckedIOException}; a payload too long for one IPv4 datagram is refused. Not thread-safe.
 */
public final class PcapWriter implements AutoCloseable
{
    public static final int MAGIC_NANOSECONDS = 0xA1B2_3C4D;
    public static final int LINK_TYPE_ETHERNET = 1;
    /** Large enough that no frame is ever truncated. */
    public static final int SNAPSHOT_LENGTH = 262_144;
    public static final int FILE_HEADER_LENGTH = 24;
    public static final int RECORD_HEADER_LENGTH = 16;
    public static final int ETHERNET_HEADER_LENGTH = 14;
    public static final int IPV4_HEADER_LENGTH = 20;
    public static final int UDP_HEADER_LENGTH = 8;
    /** The largest UDP payload one IPv4 datagram can carry. */
    public static final int MAX_UDP_PAYLOAD = 65_535 - IPV4_HEADER_LENGTH - UDP_HEADER_LENGTH;
    /** Time to live written in IPv4 headers. */
    public static final int TTL = 64;

    private static final int ETHER_TYPE_IPV4 = 0x0800;
    private static final int PROTOCOL_UDP = 17;
    private static final int ETHERNET_MAX_FRAME = 14 + 65_535;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final StagedFileOutput output;
    private final UnsafeBuffer buffer;
    private int identification;
    private long packets;

    /**
     * Creates or truncates the file and writes the pcap file header.
     *
     * @param file to write; gzip-compressed when its name ends in {@code .gz}.
     * @throws UncheckedIOException when the file cannot be created.
     */
    public PcapWriter(final Path file)
    {
        this(new StagedFileOutput(file, "pcap file"));
    }

    /**
     * Writes the pcap file header and then the records to a stream already open, uncompressed: a pipe such
     * as stdout ({@code tshark -r -}). Closing the writer closes the stream.
     *
     * @param stream      to write.
     * @param description what the stream is, for error messages (e.g. "pcap on stdout").
     */
    public PcapWriter(final OutputStream stream, final String description)
    {
        this(new StagedFileOutput(stream, description));
    }

    private PcapWriter(final StagedFileOutput output)
    {
        this.output = output;
        buffer = output.buffer();
        final int at = output.reserve(FILE_HEADER_LENGTH);
        buffer.putInt(at, MAGIC_NANOSECONDS, LE);
        buffer.putShort(at + 4, (short)2, LE);
        buffer.putShort(at + 6, (short)4, LE);
        buffer.putInt(at + 8, 0, LE);
        buffer.putInt(at + 12, 0, LE);
        buffer.putInt(at + 16, SNAPSHOT_LENGTH, LE);
        buffer.putInt(at + 20, LINK_TYPE_ETHERNET, LE);
        output.commit(FILE_HEADER_LENGTH);
    }

    /**
     * Writes one UDP datagram as an Ethernet/IPv4/UDP frame.
     *
     * @param timestampNanos capture time, nanoseconds since the epoch.
     * @param srcIp          IPv4 source address as a big-endian int (10.0.0.1 = 0x0A000001).
     * @param srcPort        UDP source port.
     * @param dstIp          IPv4 destination (a multicast group or a unicast address) as a big-endian int.
     * @param dstPort        UDP destination port.
     * @param payload        holding the UDP payload.
     * @param offset         of the payload in the buffer.
     * @param length         of the payload, at most {@link #MAX_UDP_PAYLOAD}.
     */
    public void writeUdp(
        final long timestampNanos,
        final int srcIp,
        final int srcPort,
        final int dstIp,
        final int dstPort,
        final DirectBuffer payload,
        final int offset,
        final int length)
    {
        if (length < 0 || length > MAX_UDP_PAYLOAD)
        {
            throw new IllegalArgumentException(
                "a UDP payload in one IPv4 datagram is 0 to " + MAX_UDP_PAYLOAD + " bytes, got " + length);
        }
        final int frameLength = ETHERNET_HEADER_LENGTH + IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH + length;
        final int frame = beginRecord(timestampNanos, frameLength);
        ethernet(frame, srcIp, dstIp);
        final int ip = frame + ETHERNET_HEADER_LENGTH;
        ipv4(ip, srcIp, dstIp, IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH + length);
        final int udp = ip + IPV4_HEADER_LENGTH;
        buffer.putShort(udp, (short)srcPort, BE);
        buffer.putShort(udp + 2, (short)dstPort, BE);
        buffer.putShort(udp + 4, (short)(UDP_HEADER_LENGTH + length), BE);
        buffer.putShort(udp + 6, (short)0, BE);
        buffer.putBytes(udp + UDP_HEADER_LENGTH, payload, offset, length);
        final int udpLength = UDP_HEADER_LENGTH + length;
        final long pseudo = ((srcIp >>> 16) + (srcIp & 0xFFFF) + (dstIp >>> 16) + (dstIp & 0xFFFF)) +
            PROTOCOL_UDP + udpLength;
        int checksum = fold(pseudo + sum(udp, udpLength));
        if (checksum == 0)
        {
            checksum = 0xFFFF;
        }
        buffer.putShort(udp + 6, (short)checksum, BE);
        endRecord(frameLength);
    }

    /**
     * Writes one complete Ethernet frame as it is (VLAN tags, other protocols, deliberately broken frames).
     *
     * @param timestampNanos capture time, nanoseconds since the epoch.
     * @param frame          holding the frame from its destination MAC on.
     * @param offset         of the frame in the buffer.
     * @param length         of the frame.
     */
    public void writeFrame(final long timestampNanos, final DirectBuffer frame, final int offset, final int length)
    {
        if (length < 0 || length > ETHERNET_MAX_FRAME)
        {
            throw new IllegalArgumentException("an Ethernet frame here is 0 to " + ETHERNET_MAX_FRAME +
                " bytes, got " + length);
        }
        final int at = beginRecord(timestampNanos, length);
        buffer.putBytes(at, frame, offset, length);
        endRecord(length);
    }

    /** @return records written so far. */
    public long packetsWritten()
    {
        return packets;
    }

    /** Writes out what is staged; the file is complete up to here. */
    public void flush()
    {
        output.flush();
    }

    /** Writes out what is staged and closes the file. Idempotent. */
    @Override
    public void close()
    {
        output.close();
    }

    /** @return where the frame goes, after the record header written here. */
    private int beginRecord(final long timestampNanos, final int frameLength)
    {
        final int at = output.reserve(RECORD_HEADER_LENGTH + frameLength);
        buffer.putInt(at, (int)(timestampNanos / NANOS_PER_SECOND), LE);
        buffer.putInt(at + 4, (int)(timestampNanos % NANOS_PER_SECOND), LE);
        buffer.putInt(at + 8, frameLength, LE);
        buffer.putInt(at + 12, frameLength, LE);
        return at + RECORD_HEADER_LENGTH;
    }

    private void endRecord(final int frameLength)
    {
        output.commit(RECORD_HEADER_LENGTH + frameLength);
        packets++;
    }

    private void ethernet(final int at, final int srcIp, final int dstIp)
    {
        if ((dstIp >>> 28) == 0xE)
        {
            buffer.putByte(at, (byte)0x01);
            buffer.putByte(at + 1, (byte)0x00);
            buffer.putByte(at + 2, (byte)0x5E);
            buffer.putByte(at + 3, (byte)((dstIp >>> 16) & 0x7F));
            buffer.putShort(at + 4, (short)dstIp, BE);
        }
        else
        {
            buffer.putShort(at, (short)0x0200, BE);
            buffer.putInt(at + 2, dstIp, BE);
        }
        buffer.putShort(at + 6, (short)0x0200, BE);
        buffer.putInt(at + 8, srcIp, BE);
        buffer.putShort(at + 12, (short)ETHER_TYPE_IPV4, BE);
    }

    private void ipv4(final int at, final int srcIp, final int dstIp, final int totalLength)
    {
        buffer.putByte(at, (byte)0x45);
        buffer.putByte(at + 1, (byte)0);
        buffer.putShort(at + 2, (short)totalLength, BE);
        buffer.putShort(at + 4, (short)identification++, BE);
        buffer.putShort(at + 6, (short)0, BE);
        buffer.putByte(at + 8, (byte)TTL);
        buffer.putByte(at + 9, (byte)PROTOCOL_UDP);
        buffer.putShort(at + 10, (short)0, BE);
        buffer.putInt(at + 12, srcIp, BE);
        buffer.putInt(at + 16, dstIp, BE);
        buffer.putShort(at + 10, (short)fold(sum(at, IPV4_HEADER_LENGTH)), BE);
    }

    /** Sum of big-endian 16-bit words (the last byte padded with zero), not yet folded. */
    private long sum(final int at, final int length)
    {
        long sum = 0;
        final int end = at + (length & ~1);
        for (int i = at; i < end; i += 2)
        {
            sum += buffer.getShort(i, BE) & 0xFFFF;
        }
        if ((length & 1) != 0)
        {
            sum += (buffer.getByte(at + length - 1) & 0xFF) << 8;
        }
        return sum;
    }

    /** The one's-complement of the one's-complement folded sum: the Internet checksum. */
    private static int fold(final long value)
    {
        long sum = value;
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)(~sum & 0xFFFF);
    }
}
