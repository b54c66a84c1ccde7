package io.mdgate.ingress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A plain UDP multicast sender for the namespace tests, run in the sending namespace: each of the seeded
 * MoldUDP64 packets ({@link DpdkTests#moldPackets}) goes to line A and then line B, every tenth is followed by a
 * datagram to a port no line uses, paced to a rate. Arguments: {@code INTERFACE PACKETS SEED PACKETS_PER_SECOND}.
 * Prints {@code SENT a=N b=N other=M} and exits 0.
 */
public final class UdpLineSender
{
    private UdpLineSender()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final NetworkInterface nif = NetworkInterface.getByName(args[0]);
        final int packets = Integer.parseInt(args[1]);
        final long seed = Long.parseLong(args[2]);
        final long nanosPerDatagram = 1_000_000_000L / Long.parseLong(args[3]);
        final List<byte[]> payloads = DpdkTests.moldPackets(packets, seed);
        final InetSocketAddress lineA = address(DpdkTests.LINE_A.address(), DpdkTests.LINE_A.port());
        final InetSocketAddress lineB = address(DpdkTests.LINE_B.address(), DpdkTests.LINE_B.port());
        final InetSocketAddress other = address(DpdkTests.LINE_A.address(), DpdkTests.LINE_A.port() + 1);
        int others = 0;
        try (DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, false);
            final long start = System.nanoTime();
            long sent = 0;
            for (int i = 0; i < packets; i++)
            {
                channel.send(ByteBuffer.wrap(payloads.get(i)), lineA);
                channel.send(ByteBuffer.wrap(payloads.get(i)), lineB);
                sent += 2;
                if (i % 10 == 0)
                {
                    channel.send(ByteBuffer.wrap(payloads.get(i), 0, 20), other);
                    others++;
                    sent++;
                }
                final long due = start + sent * nanosPerDatagram;
                while (System.nanoTime() < due)
                {
                    LockSupport.parkNanos(due - System.nanoTime());
                }
            }
        }
        System.out.println("SENT a=" + packets + " b=" + packets + " other=" + others);
    }

    private static InetSocketAddress address(final int ip, final int port) throws IOException
    {
        final byte[] bytes = { (byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8), (byte)ip };
        return new InetSocketAddress(InetAddress.getByAddress(bytes), port);
    }
}
