package io.mdgate.app.sim;

import io.mdgate.core.capture.PcapWriter;
import org.agrona.DirectBuffer;

import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Writes both lines into one pcap file as multicast UDP from one source: line A to its group, line B to its
 * group, stamped with the session date's midnight plus the exchange timestamp. Not thread-safe.
 */
public final class PcapPacketOutput implements PacketOutput
{
    private final PcapWriter writer;
    private final String name;
    private final long midnightEpochNanos;
    private final UdpAddress source;
    private final UdpAddress[] groups;

    public PcapPacketOutput(
        final Path file, final long midnightEpochNanos, final UdpAddress source, final UdpAddress groupA,
        final UdpAddress groupB)
    {
        this(new PcapWriter(file), file.toString(), midnightEpochNanos, source, groupA, groupB);
    }

    /**
     * Writes to a stream already open, such as stdout; closing the output closes the stream.
     */
    public PcapPacketOutput(
        final OutputStream stream, final long midnightEpochNanos, final UdpAddress source, final UdpAddress groupA,
        final UdpAddress groupB)
    {
        this(new PcapWriter(stream, "pcap on stdout"), "on stdout", midnightEpochNanos, source, groupA, groupB);
    }

    private PcapPacketOutput(
        final PcapWriter writer, final String name, final long midnightEpochNanos, final UdpAddress source,
        final UdpAddress groupA, final UdpAddress groupB)
    {
        this.writer = writer;
        this.name = name;
        this.midnightEpochNanos = midnightEpochNanos;
        this.source = source;
        this.groups = new UdpAddress[] { groupA, groupB };
    }

    @Override
    public void send(final int line, final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        final UdpAddress group = groups[line];
        writer.writeUdp(midnightEpochNanos + timestamp, source.ip(), source.port(), group.ip(), group.port(), buffer,
            offset, length);
    }

    @Override
    public String describe()
    {
        return "pcap " + name + " (A " + groups[0] + ", B " + groups[1] + ", from " + source + ")";
    }

    @Override
    public void close()
    {
        writer.close();
    }
}
