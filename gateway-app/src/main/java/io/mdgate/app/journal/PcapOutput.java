package io.mdgate.app.journal;

import io.mdgate.core.capture.PcapWriter;
import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.PacketHandler;
import org.agrona.DirectBuffer;

/**
 * Writes replayed raw packets back into a pcap capture that the capture readers (and so {@code decode},
 * {@code record} and the ingress's pcap device) read: line A's packets to line A's group and port, line B's to line
 * B's, both from one source; recovery-line packets (retransmissions the gateway received by unicast) to line A's
 * group from the source port plus one, so an arbitration of the capture still finds their messages. Each packet
 * keeps its receive time as capture time. Not thread-safe.
 */
final class PcapOutput implements PacketHandler, AutoCloseable
{
    private final PcapWriter writer;
    private final UdpEndpoint lineA;
    private final UdpEndpoint lineB;
    private final UdpEndpoint source;
    private final ProgressBar progress;
    private long written;

    PcapOutput(
        final PcapWriter writer,
        final UdpEndpoint lineA,
        final UdpEndpoint lineB,
        final UdpEndpoint source,
        final ProgressBar progress)
    {
        this.writer = writer;
        this.lineA = lineA;
        this.lineB = lineB;
        this.source = source;
        this.progress = progress;
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestamp)
    {
        final UdpEndpoint group = line == FeedLines.B ? lineB : lineA;
        final int sourcePort = line == FeedLines.RECOVERY ? source.port() + 1 : source.port();
        writer.writeUdp(receiveTimestamp, source.address(), sourcePort, group.address(), group.port(), buffer, offset,
            length);
        progress.update(++written);
    }

    long written()
    {
        return written;
    }

    @Override
    public void close()
    {
        writer.close();
    }
}
