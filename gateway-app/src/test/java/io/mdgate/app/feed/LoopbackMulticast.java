package io.mdgate.app.feed;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;

/** Helpers for tests that send multicast over {@code lo}: a free UDP port, and whether multicast loops back. */
public final class LoopbackMulticast
{
    private LoopbackMulticast()
    {
    }

    public static int freePort() throws IOException
    {
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            probe.bind(new InetSocketAddress(0));
            return ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
    }

    /** @return why loopback multicast cannot be used here, or null when a probe came through. */
    public static String problem(final NetworkInterface lo, final String group)
    {
        try (DatagramChannel receiver = DatagramChannel.open(StandardProtocolFamily.INET);
            DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            receiver.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            receiver.bind(new InetSocketAddress(InetAddress.getByName(group), 0));
            receiver.join(InetAddress.getByName(group), lo);
            receiver.configureBlocking(false);
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, lo);
            sender.send(ByteBuffer.wrap(new byte[] { 1 }), receiver.getLocalAddress());
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (null == receiver.receive(ByteBuffer.allocate(8)))
            {
                if (System.nanoTime() > deadline)
                {
                    return "a probe datagram sent to " + group + " on lo never arrived";
                }
                Thread.onSpinWait();
            }
            return null;
        }
        catch (final IOException ex)
        {
            return "multicast on lo is unavailable: " + ex;
        }
    }
}
