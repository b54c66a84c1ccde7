package io.mdgate.core.capture;

import io.mdgate.core.itch.ItchMessageType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Hand-built inputs for the readers: ITCH messages, MoldUDP64 packets, Ethernet/IPv4/UDP frames, and daily,
 * zero-prefixed, pcap and pcapng files, written from the published layouts rather than from the code under test.
 */
public final class CaptureFixtures
{
    public static final int GROUP_A = 0xE9360C6F;
    public static final int GROUP_B = 0xE9360D6F;
    public static final int PORT = 26477;
    public static final int SOURCE = 0x0A000001;
    public static final String SESSION = "000010059B";

    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int ETHERTYPE_ARP = 0x0806;
    public static final int TPID_VLAN = 0x8100;
    public static final int TPID_QINQ = 0x88A8;
    public static final int PROTOCOL_UDP = 17;
    public static final int PROTOCOL_TCP = 6;

    private CaptureFixtures()
    {
    }

    /**
     * @param type an ITCH 5.0 type letter.
     * @param tag  written as the tracking number, so a test can tell messages apart.
     * @return a message of the type's length with the header filled in and the body zero.
     */
    public static byte[] itch(final char type, final int tag)
    {
        final int length = ItchMessageType.lengthOf((byte)type);
        final byte[] message = new byte[length == 0 ? 12 : length];
        message[0] = (byte)type;
        message[1] = 0;
        message[2] = 1;
        message[3] = (byte)(tag >>> 8);
        message[4] = (byte)tag;
        return message;
    }

    /** @return the tracking number a message was tagged with by {@link #itch(char, int)}. */
    public static int tagOf(final byte[] message)
    {
        return ((message[3] & 0xFF) << 8) | (message[4] & 0xFF);
    }

    public static byte[] moldPacket(final String session, final long sequence, final byte[]... messages)
    {
        final ByteWriter w = moldHeader(session, sequence, messages.length);
        for (final byte[] message : messages)
        {
            w.u16(message.length).bytes(message);
        }
        return w.toBytes();
    }

    /** @return a packet of {@code count} Add Orders tagged with their sequence numbers. */
    public static byte[] moldPacketOfAdds(final String session, final long sequence, final int count)
    {
        final byte[][] messages = new byte[count][];
        for (int i = 0; i < count; i++)
        {
            messages[i] = itch('A', (int)(sequence + i));
        }
        return moldPacket(session, sequence, messages);
    }

    public static byte[] moldHeartbeat(final String session, final long nextSequence)
    {
        return moldHeader(session, nextSequence, 0).toBytes();
    }

    public static byte[] moldEndOfSession(final String session, final long nextSequence)
    {
        return moldHeader(session, nextSequence, 0xFFFF).toBytes();
    }

    private static ByteWriter moldHeader(final String session, final long sequence, final int count)
    {
        final byte[] id = (session + "          ").substring(0, 10).getBytes(StandardCharsets.US_ASCII);
        return new ByteWriter(ByteOrder.BIG_ENDIAN).bytes(id).u64(sequence).u16(count);
    }

    /** @return an Ethernet frame (no VLAN) carrying IPv4/UDP from {@link #SOURCE} to the group and port. */
    public static byte[] udpFrame(final int group, final int port, final byte[] payload)
    {
        return ethernet(ETHERTYPE_IPV4, ipv4(SOURCE, group, PROTOCOL_UDP, 0, udp(40000, port, payload)));
    }

    public static byte[] udp(final int sourcePort, final int destinationPort, final byte[] payload)
    {
        return new ByteWriter(ByteOrder.BIG_ENDIAN)
            .u16(sourcePort).u16(destinationPort).u16(8 + payload.length).u16(0).bytes(payload).toBytes();
    }

    /**
     * @param fragment the flags and fragment offset field (0x2000 = more fragments, low 13 bits = offset).
     * @return an IPv4 datagram with a 20-byte header.
     */
    public static byte[] ipv4(
        final int source, final int destination, final int protocol, final int fragment, final byte[] payload)
    {
        return new ByteWriter(ByteOrder.BIG_ENDIAN)
            .u8(0x45).u8(0).u16(20 + payload.length).u16(1).u16(fragment).u8(64).u8(protocol).u16(0)
            .u32(source).u32(destination).bytes(payload).toBytes();
    }

    /**
     * @param etherType of the payload.
     * @param payload   the frame's payload.
     * @param tpids     VLAN tag protocol ids to insert, outermost first.
     * @return the frame.
     */
    public static byte[] ethernet(final int etherType, final byte[] payload, final int... tpids)
    {
        final ByteWriter w = new ByteWriter(ByteOrder.BIG_ENDIAN)
            .bytes(new byte[] { 1, 0, 0x5E, 0x36, 0x0C, 0x6F }).bytes(new byte[] { 2, 0, 0, 0, 0, 1 });
        int vlan = 100;
        for (final int tpid : tpids)
        {
            w.u16(tpid).u16(vlan++);
        }
        return w.u16(etherType).bytes(payload).toBytes();
    }

    public static byte[] dailyFile(final byte[]... messages)
    {
        final ByteWriter w = new ByteWriter(ByteOrder.BIG_ENDIAN);
        for (final byte[] message : messages)
        {
            w.u16(message.length).bytes(message);
        }
        return w.toBytes();
    }

    public static byte[] zeroPrefixedFile(final byte[]... messages)
    {
        final ByteWriter w = new ByteWriter(ByteOrder.BIG_ENDIAN);
        for (final byte[] message : messages)
        {
            w.u16(0).bytes(message);
        }
        return w.toBytes();
    }

    public static byte[] concat(final byte[]... parts)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final byte[] part : parts)
        {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    public static byte[] cut(final byte[] bytes, final int dropAtEnd)
    {
        final byte[] cut = new byte[bytes.length - dropAtEnd];
        System.arraycopy(bytes, 0, cut, 0, cut.length);
        return cut;
    }

    public static byte[] gzip(final byte[] bytes)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out))
        {
            gzip.write(bytes);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return out.toByteArray();
    }

    public static Path write(final Path directory, final String name, final byte[] bytes)
    {
        try
        {
            return Files.write(directory.resolve(name), bytes);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** A classic pcap file: 24-byte header, then records. */
    public static final class Pcap
    {
        private final ByteWriter w;
        private final boolean nanos;

        public Pcap(final ByteOrder order, final boolean nanos, final int linkType)
        {
            this.w = new ByteWriter(order);
            this.nanos = nanos;
            w.u32(nanos ? 0xA1B23C4DL : 0xA1B2C3D4L).u16(2).u16(4).u32(0).u32(0).u32(262144).u32(linkType);
        }

        /** An Ethernet pcap in little-endian order with nanosecond timestamps, as tcpdump writes on x86. */
        public Pcap()
        {
            this(ByteOrder.LITTLE_ENDIAN, true, 1);
        }

        public Pcap record(final long timestampNanos, final byte[] frame)
        {
            final long seconds = timestampNanos / 1_000_000_000L;
            final long fraction = timestampNanos % 1_000_000_000L;
            w.u32(seconds).u32(nanos ? fraction : fraction / 1000).u32(frame.length).u32(frame.length).bytes(frame);
            return this;
        }

        public Pcap udp(final int group, final byte[] payload)
        {
            return record(1_700_000_000_000_000_000L, udpFrame(group, PORT, payload));
        }

        public byte[] toBytes()
        {
            return w.toBytes();
        }
    }

    /** A pcapng file built block by block. */
    public static final class PcapNg
    {
        private final ByteOrder order;
        private final ByteWriter w;

        public PcapNg(final ByteOrder order)
        {
            this.order = order;
            this.w = new ByteWriter(order);
        }

        public PcapNg section()
        {
            return block(0x0A0D0D0A, new ByteWriter(order).u32(0x1A2B3C4D).u16(1).u16(0).u64(-1L).toBytes());
        }

        /**
         * @param tsresol the if_tsresol option value, or -1 for none (microseconds).
         */
        public PcapNg interfaceDescription(final int linkType, final int snapLength, final int tsresol)
        {
            final ByteWriter body = new ByteWriter(order).u16(linkType).u16(0).u32(snapLength);
            body.u16(2).u16(3).bytes(new byte[] { 'e', 't', 'h' }).pad4();
            if (tsresol >= 0)
            {
                body.u16(9).u16(1).u8(tsresol).pad4();
            }
            body.u16(0).u16(0);
            return block(1, body.toBytes());
        }

        public PcapNg enhancedPacket(final int interfaceId, final long ticks, final byte[] frame)
        {
            final ByteWriter body = new ByteWriter(order)
                .u32(interfaceId).u32(ticks >>> 32).u32(ticks & 0xFFFF_FFFFL).u32(frame.length).u32(frame.length)
                .bytes(frame).pad4();
            body.u16(1).u16(4).bytes(new byte[] { 'n', 'o', 't', 'e' }).u16(0).u16(0);
            return block(6, body.toBytes());
        }

        public PcapNg simplePacket(final byte[] frame)
        {
            return block(3, new ByteWriter(order).u32(frame.length).bytes(frame).pad4().toBytes());
        }

        public PcapNg block(final int type, final byte[] body)
        {
            final int padded = (body.length + 3) & ~3;
            w.u32(type).u32(12 + padded).bytes(body);
            for (int i = body.length; i < padded; i++)
            {
                w.u8(0);
            }
            w.u32(12 + padded);
            return this;
        }

        public byte[] toBytes()
        {
            return w.toBytes();
        }
    }
}
