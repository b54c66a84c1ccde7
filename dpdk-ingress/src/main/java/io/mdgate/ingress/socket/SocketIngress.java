package io.mdgate.ingress.socket;

import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.util.Collections;
import java.util.stream.Collectors;

/**
 * The {@link Ingress} over kernel UDP sockets: one non-blocking {@link DatagramChannel} per configured
 * (destination, port) pair, bound to that destination (so a socket only sees its own group, whatever other groups
 * the host joined) and, for a multicast group, joined on the named interface. {@link #poll} reads up to a burst of
 * datagrams from each socket into one direct buffer and hands each payload to the {@link PacketHandler} with the
 * line it was configured for and a receive timestamp in ns since the epoch, from {@code System.nanoTime} calibrated
 * to the epoch once ({@link OffsetEpochNanoClock}) unless another clock is given.
 * <p>
 * The kernel's own drops (receive buffer overruns) are not visible per socket; size {@code SO_RCVBUF} for bursts
 * ({@link Context#receiveBufferBytes}) and raise {@code net.core.rmem_max} if the effective size in
 * {@link #stats()} ({@code soRcvbuf}) is smaller than asked.
 * <p>
 * Threading: {@link #start()}, {@link #poll} and {@link #close()} on the receive thread; {@link #stats()} from any
 * thread (counters may lag by a burst). Allocation-free while polling.
 */
public final class SocketIngress implements Ingress
{
    /** {@link #poll} before {@link #start()} or after {@link #close()}: -EBADF. */
    public static final int NOT_OPEN = -9;

    private static final int MAX_PAYLOAD = 65_507;

    private final Context context;
    private final IngressLines lines;
    private final EpochNanoClock clock;
    private final int burst;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(MAX_PAYLOAD + 1);
    private final UnsafeBuffer view = new UnsafeBuffer(buffer);
    private final DatagramChannel[] channels;
    private final MembershipKey[] memberships;
    private final int[] channelLine;
    private final long[] linePackets = new long[IngressLines.lineCount()];
    private final long[] lineBytes = new long[IngressLines.lineCount()];
    private volatile long receiveErrors;
    private volatile int smallestReceiveBuffer;
    private volatile boolean open;
    private boolean closed;

    /**
     * @param context the settings; {@link Context#conclude()} is called here. Nothing is opened until
     *                {@link #start()}.
     * @throws IllegalArgumentException when a setting is wrong, saying what would be right.
     */
    public SocketIngress(final Context context)
    {
        this.context = context.conclude();
        this.lines = context.lines();
        this.clock = context.clock();
        this.burst = context.burst();
        this.channels = new DatagramChannel[lines.size()];
        this.memberships = new MembershipKey[lines.size()];
        this.channelLine = new int[lines.size()];
    }

    /**
     * Opens, binds and joins one socket per configured pair.
     *
     * @throws IllegalStateException naming the interface or pair that failed and why, after closing whatever had
     *                               been opened.
     */
    @Override
    public void start()
    {
        if (open || closed)
        {
            throw new IllegalStateException("a socket ingress starts once; this one is " + (open ? "running" : "closed"));
        }
        final NetworkInterface networkInterface = findInterface(context.interfaceName());
        int smallest = Integer.MAX_VALUE;
        try
        {
            for (int i = 0; i < lines.size(); i++)
            {
                channelLine[i] = lines.line(i);
                channels[i] = openChannel(i, networkInterface);
                smallest = Math.min(smallest, channels[i].getOption(StandardSocketOptions.SO_RCVBUF));
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            closeChannels();
            throw new IllegalStateException("cannot receive " + lines + " on interface " + context.interfaceName() +
                ": " + ex.getMessage(), ex);
        }
        smallestReceiveBuffer = smallest;
        open = true;
    }

    private DatagramChannel openChannel(final int index, final NetworkInterface networkInterface) throws IOException
    {
        final UdpEndpoint endpoint = lines.endpoint(index);
        final InetAddress destination = address(endpoint);
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channels[index] = channel;
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, context.receiveBufferBytes());
        try
        {
            channel.bind(new InetSocketAddress(destination, endpoint.port()));
            if (lines.isMulticast(index))
            {
                memberships[index] = channel.join(destination, networkInterface);
            }
        }
        catch (final IOException ex)
        {
            throw new IOException(endpoint + ": " + ex.getMessage(), ex);
        }
        channel.configureBlocking(false);
        return channel;
    }

    @Override
    public int poll(final PacketHandler handler)
    {
        if (!open)
        {
            return NOT_OPEN;
        }
        int total = 0;
        for (int i = 0; i < channels.length; i++)
        {
            final int received = drain(i, handler);
            if (received < 0)
            {
                return received;
            }
            total += received;
        }
        return total;
    }

    private int drain(final int index, final PacketHandler handler)
    {
        final DatagramChannel channel = channels[index];
        final int line = channelLine[index];
        int received = 0;
        while (received < burst)
        {
            buffer.clear();
            try
            {
                if (null == channel.receive(buffer))
                {
                    break;
                }
            }
            catch (final ClosedChannelException ex)
            {
                return NOT_OPEN;
            }
            catch (final IOException ex)
            {
                receiveErrors++;
                break;
            }
            final int length = buffer.position();
            received++;
            linePackets[line]++;
            lineBytes[line] += length;
            handler.onPacket(line, view, 0, length, clock.nanoTime());
        }
        return received;
    }

    @Override
    public IngressStats stats()
    {
        final IngressStats.Builder builder = IngressStats.builder(describe());
        for (int line = 0; line < IngressLines.lineCount(); line++)
        {
            builder.line(line, linePackets[line], lineBytes[line]);
        }
        return builder
            .port("sockets", channels.length)
            .port("soRcvbuf", smallestReceiveBuffer)
            .port("receiveErrors", receiveErrors)
            .build();
    }

    /** @return e.g. {@code "sockets on lo: A=239.255.0.1:30001,B=239.255.0.2:30002"}. */
    public String describe()
    {
        return "sockets on " + context.interfaceName() + ": " + lines;
    }

    /** @return true between {@link #start()} and {@link #close()}. */
    public boolean isOpen()
    {
        return open;
    }

    @Override
    public void close()
    {
        open = false;
        closed = true;
        closeChannels();
    }

    private void closeChannels()
    {
        for (int i = 0; i < channels.length; i++)
        {
            if (null != memberships[i])
            {
                memberships[i].drop();
                memberships[i] = null;
            }
            if (null != channels[i])
            {
                try
                {
                    channels[i].close();
                }
                catch (final IOException ignore)
                {
                    // a datagram socket has nothing to flush on close
                }
                channels[i] = null;
            }
        }
    }

    private static InetAddress address(final UdpEndpoint endpoint) throws UnknownHostException
    {
        final int a = endpoint.address();
        return Inet4Address.getByAddress(new byte[] { (byte)(a >>> 24), (byte)(a >>> 16), (byte)(a >>> 8), (byte)a });
    }

    private static NetworkInterface findInterface(final String name)
    {
        final NetworkInterface found;
        try
        {
            found = NetworkInterface.getByName(name);
            if (null != found && found.isUp())
            {
                return found;
            }
        }
        catch (final SocketException ex)
        {
            throw new IllegalStateException("cannot look up network interface '" + name + "': " + ex.getMessage(), ex);
        }
        throw new IllegalStateException("network interface '" + name + "' " + (null == found ? "does not exist" :
            "is down") + "; interfaces up on this host: " + interfacesUp());
    }

    private static String interfacesUp()
    {
        try
        {
            return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .filter(SocketIngress::isUp).map(NetworkInterface::getName).sorted().collect(Collectors.joining(", "));
        }
        catch (final SocketException ex)
        {
            return "(unknown: " + ex.getMessage() + ")";
        }
    }

    private static boolean isUp(final NetworkInterface networkInterface)
    {
        try
        {
            return networkInterface.isUp();
        }
        catch (final SocketException ex)
        {
            return false;
        }
    }

    /**
     * The settings of a {@link SocketIngress}, with defaults; {@link #conclude()} checks them. Not thread-safe:
     * fill in before the ingress is built.
     */
    public static final class Context
    {
        public static final int DEFAULT_RECEIVE_BUFFER_BYTES = 8 << 20;
        public static final int DEFAULT_BURST = 32;
        public static final int MAX_BURST = 4_096;

        private IngressLines lines;
        private String interfaceName;
        private int receiveBufferBytes = DEFAULT_RECEIVE_BUFFER_BYTES;
        private int burst = DEFAULT_BURST;
        private EpochNanoClock clock;

        /**
         * @return this.
         * @throws IllegalArgumentException naming every setting that is wrong and what would be right.
         */
        public Context conclude()
        {
            final StringBuilder problems = new StringBuilder();
            if (null == lines)
            {
                problem(problems, "lines are required, e.g. A=233.54.12.111:26477,B=233.49.196.111:26477");
            }
            if (null == interfaceName || interfaceName.isBlank())
            {
                problem(problems, "interfaceName is required: the interface to join the groups on, e.g. eth1 or lo");
            }
            if (receiveBufferBytes < 4_096 || receiveBufferBytes > (1 << 30))
            {
                problem(problems, "receiveBufferBytes must be 4096 to 1073741824 (SO_RCVBUF), was " +
                    receiveBufferBytes);
            }
            if (burst < 1 || burst > MAX_BURST)
            {
                problem(problems, "burst must be 1 to " + MAX_BURST + " datagrams per socket and poll, was " + burst);
            }
            if (problems.length() > 0)
            {
                throw new IllegalArgumentException("socket ingress settings: " + problems);
            }
            if (null == clock)
            {
                clock = new OffsetEpochNanoClock();
            }
            return this;
        }

        private static void problem(final StringBuilder problems, final String problem)
        {
            problems.append(problems.length() > 0 ? "; " : "").append(problem);
        }

        public IngressLines lines()
        {
            return lines;
        }

        /** @param lines the (destination, port) pairs to receive and the line each feeds. */
        public Context lines(final IngressLines lines)
        {
            this.lines = lines;
            return this;
        }

        public String interfaceName()
        {
            return interfaceName;
        }

        /** @param name the network interface to join multicast groups on, as {@code ip link} names it. */
        public Context interfaceName(final String name)
        {
            this.interfaceName = name;
            return this;
        }

        public int receiveBufferBytes()
        {
            return receiveBufferBytes;
        }

        /** @param bytes SO_RCVBUF asked for each socket; the kernel caps it at {@code net.core.rmem_max}. */
        public Context receiveBufferBytes(final int bytes)
        {
            this.receiveBufferBytes = bytes;
            return this;
        }

        public int burst()
        {
            return burst;
        }

        /** @param datagrams read from each socket per poll at most. */
        public Context burst(final int datagrams)
        {
            this.burst = datagrams;
            return this;
        }

        public EpochNanoClock clock()
        {
            return clock;
        }

        /** @param clock stamps each datagram with its receive time, ns since the epoch; null for the default. */
        public Context clock(final EpochNanoClock clock)
        {
            this.clock = clock;
            return this;
        }
    }
}
