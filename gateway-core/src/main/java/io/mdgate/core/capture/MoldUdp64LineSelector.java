package io.mdgate.core.capture;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.PacketHandler;
import org.agrona.DirectBuffer;

/**
 * Sorts the UDP datagrams of a capture onto the A and B lines by destination (group and port), as an ingress does
 * by its configured lines, and hands each line's datagrams, whatever they hold, with their capture time to the
 * feed (a {@link CaptureFeed}). The lines are given, or found beforehand by a {@link MoldUdp64LineFinder}.
 * Datagrams to any other destination are counted and skipped: as not MoldUDP64 while they came before both lines
 * were known (only MoldUDP64 makes a line, so they were not), as other destinations after. An optional tap sees
 * every datagram of a line before the feed does (e.g. to journal the raw packets).
 * <p>
 * Allocation-free. Not thread-safe: one reader thread.
 */
public final class MoldUdp64LineSelector implements UdpDatagramHandler
{
    private static final long UNASSIGNED = -1;

    private final PacketHandler feed;
    private final PacketHandler tap;
    private final long[] lineKeys = { UNASSIGNED, UNASSIGNED };
    private final long discoveryDatagrams;
    private long datagrams;
    private long otherDestinationDatagrams;
    private long notMoldUdp64Datagrams;

    /**
     * @param feed               receives each line's datagrams, line {@link FeedLines#A} or {@link FeedLines#B}.
     * @param lineA              the A line.
     * @param lineB              the B line, or null when the capture has only one.
     * @param tap                sees each line's datagrams before the feed, or null.
     * @param discoveryDatagrams how many datagrams it took to find the lines (0 when they were given); datagrams
     *                           to neither line among these are counted as not MoldUDP64.
     */
    public MoldUdp64LineSelector(final PacketHandler feed, final UdpEndpoint lineA, final UdpEndpoint lineB,
        final PacketHandler tap, final long discoveryDatagrams)
    {
        if (lineA != null && lineA.equals(lineB))
        {
            throw new IllegalArgumentException("lines A and B are both " + lineA + "; they must differ");
        }
        this.feed = feed;
        this.tap = tap;
        this.discoveryDatagrams = discoveryDatagrams;
        if (lineA != null)
        {
            lineKeys[FeedLines.A] = lineA.key();
        }
        if (lineB != null)
        {
            lineKeys[FeedLines.B] = lineB.key();
        }
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
        final int line = key == lineKeys[FeedLines.A] ? FeedLines.A : key == lineKeys[FeedLines.B] ? FeedLines.B : -1;
        if (line < 0)
        {
            if (datagrams <= discoveryDatagrams)
            {
                notMoldUdp64Datagrams++;
            }
            else
            {
                otherDestinationDatagrams++;
            }
            return;
        }
        if (tap != null)
        {
            tap.onPacket(line, buffer, offset, length, timestampNanos);
        }
        feed.onPacket(line, buffer, offset, length, timestampNanos);
    }

    /**
     * @param line {@link FeedLines#A} or {@link FeedLines#B}.
     * @return the line's destination, or null when it has none. Allocates: for reports.
     */
    public UdpEndpoint line(final int line)
    {
        return lineKeys[line] == UNASSIGNED ? null : UdpEndpoint.fromKey(lineKeys[line]);
    }

    /** @return datagrams to a destination that is neither line. */
    public long otherDestinationDatagrams()
    {
        return otherDestinationDatagrams;
    }

    /** @return datagrams to neither line that came before the lines were known, so were not MoldUDP64. */
    public long notMoldUdp64Datagrams()
    {
        return notMoldUdp64Datagrams;
    }
}
