package io.mdgate.core.capture;

import io.mdgate.core.feed.LineArbiter;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import org.agrona.DirectBuffer;

/**
 * Sorts the UDP datagrams of a capture onto the A and B lines of a {@link LineArbiter} by destination (group and
 * port). The lines are either given, or taken to be the first two distinct destinations whose first datagram is a
 * valid MoldUDP64 packet. Datagrams to any other destination are counted and skipped; before both lines are known,
 * datagrams that are not MoldUDP64 are counted separately, so unrelated traffic (DNS, ...) cannot become a line.
 * An optional {@link PacketHandler} sees every datagram of a line, with its line and capture time, before the arbiter
 * does (e.g. to journal the raw packets).
 * <p>
 * Allocation-free. Not thread-safe: one reader thread.
 */
public final class MoldUdp64LineSelector implements UdpDatagramHandler
{
    private static final long UNASSIGNED = -1;
    private static final MoldUdp64MessageHandler VALIDATE_ONLY = (buffer, offset, length, sequence) -> {};

    private final LineArbiter arbiter;
    private final PacketHandler packetHandler;
    private final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
    private final long[] lineKeys = { UNASSIGNED, UNASSIGNED };
    private final boolean automatic;
    private long otherDestinationDatagrams;
    private long notMoldUdp64Datagrams;

    /**
     * @param arbiter receives each line's packets.
     * @param lineA   the A line, or null to take the first MoldUDP64 destination seen.
     * @param lineB   the B line, or null to take the second; given only together with {@code lineA}.
     */
    public MoldUdp64LineSelector(final LineArbiter arbiter, final UdpEndpoint lineA, final UdpEndpoint lineB)
    {
        this(arbiter, lineA, lineB, null);
    }

    /**
     * @param arbiter       receives each line's packets.
     * @param lineA         the A line, or null to take the first MoldUDP64 destination seen.
     * @param lineB         the B line, or null to take the second; given only together with {@code lineA}.
     * @param packetHandler sees each line's datagrams before the arbiter, or null.
     */
    public MoldUdp64LineSelector(
        final LineArbiter arbiter, final UdpEndpoint lineA, final UdpEndpoint lineB, final PacketHandler packetHandler)
    {
        if ((lineA == null) != (lineB == null))
        {
            throw new IllegalArgumentException("give both lines or neither");
        }
        if (lineA != null && lineA.equals(lineB))
        {
            throw new IllegalArgumentException("lines A and B are both " + lineA + "; they must differ");
        }
        this.arbiter = arbiter;
        this.packetHandler = packetHandler;
        this.automatic = lineA == null;
        if (!automatic)
        {
            lineKeys[LineArbiter.LINE_A] = lineA.key();
            lineKeys[LineArbiter.LINE_B] = lineB.key();
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
        final long key = UdpEndpoint.key(destinationAddress, destinationPort);
        int line = lineOf(key);
        if (line < 0 && automatic && lineKeys[LineArbiter.LINE_B] == UNASSIGNED)
        {
            if (decoder.decode(buffer, offset, length, VALIDATE_ONLY) < 0)
            {
                notMoldUdp64Datagrams++;
                return;
            }
            line = lineKeys[LineArbiter.LINE_A] == UNASSIGNED ? LineArbiter.LINE_A : LineArbiter.LINE_B;
            lineKeys[line] = key;
        }
        if (line < 0)
        {
            otherDestinationDatagrams++;
            return;
        }
        if (packetHandler != null)
        {
            packetHandler.onPacket(line, buffer, offset, length, timestampNanos);
        }
        arbiter.onPacket(line, buffer, offset, length);
    }

    private int lineOf(final long key)
    {
        if (key == lineKeys[LineArbiter.LINE_A])
        {
            return LineArbiter.LINE_A;
        }
        return key == lineKeys[LineArbiter.LINE_B] ? LineArbiter.LINE_B : -1;
    }

    /**
     * @param line {@link LineArbiter#LINE_A} or {@link LineArbiter#LINE_B}.
     * @return the line's destination, or null when no datagram has been seen for it. Allocates: for reports.
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

    /** @return datagrams that could not be MoldUDP64, seen while the lines were still being chosen. */
    public long notMoldUdp64Datagrams()
    {
        return notMoldUdp64Datagrams;
    }
}
