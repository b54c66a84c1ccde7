package io.mdgate.core.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Test helper: reads back a classic little-endian nanosecond pcap of Ethernet/IPv4/UDP frames, as
 * {@link PcapWriter} writes them, with plain JDK code independent of the writer, and checks the IPv4 and UDP
 * checksums on the way.
 */
public final class WrittenPcap
{
    /** One record: its time, addresses and UDP payload, and whether both checksums verify. */
    public record Datagram(
        long timestampNanos, byte[] destinationMac, int srcIp, int srcPort, int dstIp, int dstPort, byte[] payload,
        boolean checksumsValid)
    {
    }

    public final int magic;
    public final int linkType;
    public final int snapshotLength;
    public final List<Datagram> datagrams = new ArrayList<>();

    private WrittenPcap(final ByteBuffer file)
    {
        file.order(ByteOrder.LITTLE_ENDIAN);
        magic = file.getInt(0);
        snapshotLength = file.getInt(16);
        linkType = file.getInt(20);
        int at = 24;
        while (at + 16 <= file.limit())
        {
            final long seconds = file.getInt(at) & 0xFFFF_FFFFL;
            final long nanos = file.getInt(at + 4) & 0xFFFF_FFFFL;
            final int captured = file.getInt(at + 8);
            final byte[] frame = new byte[captured];
            file.get(at + 16, frame);
            datagrams.add(datagram(seconds * 1_000_000_000L + nanos, ByteBuffer.wrap(frame)));
            at += 16 + captured;
        }
    }

    /** Reads a file written by {@link PcapWriter}; a {@code .gz} name is decompressed. */
    public static WrittenPcap read(final Path file) throws IOException
    {
        final byte[] bytes;
        if (file.getFileName().toString().endsWith(".gz"))
        {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(file)))
            {
                bytes = in.readAllBytes();
            }
        }
        else
        {
            bytes = Files.readAllBytes(file);
        }
        return new WrittenPcap(ByteBuffer.wrap(bytes));
    }

    private static Datagram datagram(final long timestampNanos, final ByteBuffer frame)
    {
        final byte[] mac = new byte[6];
        frame.get(0, mac);
        final int ip = 14;
        final int headerLength = (frame.get(ip) & 0x0F) * 4;
        final int totalLength = frame.getShort(ip + 2) & 0xFFFF;
        final boolean ipValid = checksum(frame, ip, headerLength, 0) == 0;
        final int srcIp = frame.getInt(ip + 12);
        final int dstIp = frame.getInt(ip + 16);
        final int udp = ip + headerLength;
        final int udpLength = frame.getShort(udp + 4) & 0xFFFF;
        final long pseudo = (srcIp >>> 16) + (srcIp & 0xFFFF) + (dstIp >>> 16) + (dstIp & 0xFFFF) + 17 + udpLength;
        final boolean udpValid = frame.getShort(udp + 6) != 0 && checksum(frame, udp, udpLength, pseudo) == 0;
        final byte[] payload = new byte[udpLength - 8];
        frame.get(udp + 8, payload);
        final boolean lengthsAgree = totalLength == headerLength + udpLength && frame.limit() == ip + totalLength;
        return new Datagram(timestampNanos, mac, srcIp, frame.getShort(udp) & 0xFFFF, dstIp,
            frame.getShort(udp + 2) & 0xFFFF, payload, ipValid && udpValid && lengthsAgree);
    }

    private static int checksum(final ByteBuffer frame, final int at, final int length, final long initial)
    {
        long sum = initial;
        for (int i = 0; i < length; i += 2)
        {
            final int high = frame.get(at + i) & 0xFF;
            final int low = i + 1 < length ? frame.get(at + i + 1) & 0xFF : 0;
            sum += (high << 8) | low;
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int)(~sum & 0xFFFF);
    }
}
