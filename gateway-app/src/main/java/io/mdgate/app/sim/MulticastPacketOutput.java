package io.mdgate.app.sim;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * Sends the two lines live as UDP multicast through a named interface ({@code IP_MULTICAST_IF}), with the
 * configured TTL (1 by default: the groups stay on the local segment) and multicast loopback on, so receivers
 * on the same host hear it. Packets are paced to their exchange timestamps: the wall-clock gap between two sends
 * is the gap between their timestamps, with idle stretches (the pre-open, heartbeat-only times) cut to at most
 * {@code maxIdleNanos}. While waiting it runs the idle work (the re-request server), spinning or sleeping as its
 * {@link SimulatorSettings.Pacing} says. A send that fails is counted, never thrown. Not thread-safe.
 */
public final class MulticastPacketOutput implements PacketOutput
{
    private static final long PARK_THRESHOLD_NANOS = 200_000;
    private static final long PARK_MARGIN_NANOS = 100_000;
    private static final long LONGEST_PARK_NANOS = 1_000_000;
    private static final long SLEEPING_TIMER_SLACK_NANOS = 1_000;

    private final DatagramChannel channel;
    private final String interfaceName;
    private final InetSocketAddress[] groups;
    private final UdpAddress[] groupAddresses;
    private final ByteBuffer datagram = ByteBuffer.allocateDirect(65_536);
    private final UnsafeBuffer datagramView = new UnsafeBuffer(datagram);
    private final long maxIdleNanos;
    private final IntSupplier idleWork;
    private final SimulatorSettings.Pacing pacing;
    private long lastTimestamp = -1;
    private long wallTarget;
    private long datagramsSent;
    private long sendFailures;
    private String firstFailure;

    /**
     * @param interfaceName such as {@code eth0} or {@code lo}.
     * @param groupA        line A's multicast group and port.
     * @param groupB        line B's multicast group and port.
     * @param ttl           IP time to live, 0 to 255.
     * @param maxIdleNanos  longest wall-clock wait between two packets.
     * @param pacing        how to wait for a packet's time.
     * @param idleWork      run while waiting for a send time; returns work done.
     * @throws IllegalArgumentException when the interface does not exist or cannot send multicast.
     */
    public MulticastPacketOutput(
        final String interfaceName,
        final UdpAddress groupA,
        final UdpAddress groupB,
        final int ttl,
        final long maxIdleNanos,
        final SimulatorSettings.Pacing pacing,
        final IntSupplier idleWork)
    {
        this.pacing = pacing;
        this.interfaceName = interfaceName;
        this.groupAddresses = new UdpAddress[] { groupA, groupB };
        this.groups = new InetSocketAddress[] { groupA.socketAddress(), groupB.socketAddress() };
        this.maxIdleNanos = maxIdleNanos;
        this.idleWork = idleWork;
        final NetworkInterface networkInterface;
        try
        {
            networkInterface = NetworkInterface.getByName(interfaceName);
        }
        catch (final SocketException ex)
        {
            throw new IllegalArgumentException("cannot look up interface '" + interfaceName + "': " + ex.getMessage());
        }
        if (null == networkInterface)
        {
            throw new IllegalArgumentException(
                "no network interface named '" + interfaceName + "'; `ip link` lists them (e.g. lo, eth0)");
        }
        try
        {
            channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, networkInterface);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, ttl);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(
                "cannot send multicast through '" + interfaceName + "': " + ex.getMessage(), ex);
        }
    }

    @Override
    public void send(final int line, final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        pace(timestamp);
        datagram.clear();
        datagramView.putBytes(0, buffer, offset, length);
        datagram.limit(length);
        try
        {
            if (channel.send(datagram, groups[line]) == length)
            {
                datagramsSent++;
            }
            else
            {
                failed("datagram not sent");
            }
        }
        catch (final IOException ex)
        {
            failed(ex.toString());
        }
    }

    private void failed(final String reason)
    {
        sendFailures++;
        if (null == firstFailure)
        {
            firstFailure = reason;
        }
    }

    private void pace(final long timestamp)
    {
        if (lastTimestamp < 0)
        {
            if (pacing == SimulatorSettings.Pacing.SLEEP)
            {
                final String refused = TimerSlack.set(SLEEPING_TIMER_SLACK_NANOS);
                if (null != refused)
                {
                    System.err.println("sim: sleep pacing keeps the default timer slack (packets may go up to " +
                        "50 us late): " + refused);
                }
            }
            wallTarget = System.nanoTime();
        }
        else
        {
            wallTarget += Math.min(Math.max(0, timestamp - lastTimestamp), maxIdleNanos);
        }
        lastTimestamp = timestamp;
        if (pacing == SimulatorSettings.Pacing.SLEEP)
        {
            sleepUntilTarget();
            return;
        }
        long remaining;
        while ((remaining = wallTarget - System.nanoTime()) > 0)
        {
            if (idleWork.getAsInt() > 0)
            {
                continue;
            }
            if (remaining > PARK_THRESHOLD_NANOS)
            {
                LockSupport.parkNanos(Math.min(remaining - PARK_MARGIN_NANOS, LONGEST_PARK_NANOS));
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    /** One poll of the idle work per wake-up, then parks for what is left (at most 1 ms at a time). */
    private void sleepUntilTarget()
    {
        long remaining;
        while ((remaining = wallTarget - System.nanoTime()) > 0)
        {
            if (idleWork.getAsInt() > 0)
            {
                continue;
            }
            LockSupport.parkNanos(Math.min(remaining, LONGEST_PARK_NANOS));
        }
    }

    public long datagramsSent()
    {
        return datagramsSent;
    }

    public long sendFailures()
    {
        return sendFailures;
    }

    /** @return the first send failure's reason, or null. */
    public String firstFailure()
    {
        return firstFailure;
    }

    @Override
    public String describe()
    {
        return "multicast on " + interfaceName + " (A " + groupAddresses[0] + ", B " + groupAddresses[1] + ")";
    }

    @Override
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
