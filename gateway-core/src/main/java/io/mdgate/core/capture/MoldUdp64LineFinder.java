package io.mdgate.core.capture;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import org.agrona.DirectBuffer;

/**
 * Finds the A and B lines of a capture whose lines were not given: the first two distinct destinations (group and
 * port) that receive a valid MoldUDP64 packet, in the order of those packets. Read in a pass of its own before the
 * capture is decoded, so that every datagram of a line, its damaged first ones included, then reaches the feed
 * session as it would have live, where the lines are configured. Traffic that is never MoldUDP64 (DNS, ...) cannot
 * become a line. Stops the read (through the {@link UdpFrameDissector}) once both lines are known.
 * <p>
 * Allocation-free. Not thread-safe: one reader thread.
 */
public final class MoldUdp64LineFinder implements UdpDatagramHandler
{
    private static final long UNASSIGNED = -1;
    private static final MoldUdp64MessageHandler VALIDATE_ONLY = (buffer, offset, length, sequence) -> {};

    private final UdpFrameDissector dissector;
    private final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
    private final long[] lineKeys = { UNASSIGNED, UNASSIGNED };
    private long datagrams;

    /**
     * @param dissector the dissector of this pass, stopped once both lines are found.
     */
    public MoldUdp64LineFinder(final UdpFrameDissector dissector)
    {
        this.dissector = dissector;
    }

    @Override
    public void onDatagram(
        final long timestampNanos,
        final int sourceAddress,
        final int sourcePort,
        final int destinationAddress,
        final int destinationPort,
        final DirectBuffer buffer,
        final int offset,
        final int length)
    {
        datagrams++;
        final long key = UdpEndpoint.key(destinationAddress, destinationPort);
        if (key == lineKeys[FeedLines.A] || decoder.decode(buffer, offset, length, VALIDATE_ONLY) < 0)
        {
            return;
        }
        if (lineKeys[FeedLines.A] == UNASSIGNED)
        {
            lineKeys[FeedLines.A] = key;
            return;
        }
        lineKeys[FeedLines.B] = key;
        dissector.stop();
    }

    /**
     * @param line {@link FeedLines#A} or {@link FeedLines#B}.
     * @return the line's destination, or null when the capture has none for it. Allocates: once per file.
     */
    public UdpEndpoint line(final int line)
    {
        return lineKeys[line] == UNASSIGNED ? null : UdpEndpoint.fromKey(lineKeys[line]);
    }

    /**
     * @return datagrams read until both lines were known (all of them when they never were): the part of the
     * capture in which a datagram to neither line was not MoldUDP64.
     */
    public long datagramsUntilFound()
    {
        return datagrams;
    }
}
