package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64RequestFlyweight;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * The MoldUDP64 re-request client over UDP unicast: one non-blocking {@link DatagramChannel} bound to an
 * ephemeral port and connected to the re-request server, so that only the server's answers are read. Requests are
 * written with a {@link MoldUdp64RequestFlyweight}; answers are read in {@link #poll} and handed over as packets
 * on {@link FeedLines#RECOVERY}, stamped with the receive time (ns since the epoch) of the clock given.
 * <p>
 * A failed send or receive (for instance the ICMP "port unreachable" a connected socket reports when no server
 * listens) is counted and reported as a return value, never thrown. Allocation-free after construction.
 * Threading: not thread-safe; {@link #request} and {@link #poll} run on the feed session's thread, the counters
 * are read there too.
 */
public final class UdpRetransmitRequester implements RetransmitRequester, AutoCloseable
{
    /** Largest UDP payload over IPv4: every answer fits. */
    public static final int MAX_ANSWER_LENGTH = 65_507;
    public static final int DEFAULT_RECEIVE_BUFFER_BYTES = 4 << 20;
    /** Answers handed over per {@link #poll} at most, so a flood cannot starve the duty cycle. */
    public static final int POLL_LIMIT = 64;

    private final DatagramChannel channel;
    private final InetSocketAddress server;
    private final EpochNanoClock clock;
    private final ByteBuffer requestBuffer = ByteBuffer.allocateDirect(MoldUdp64RequestFlyweight.LENGTH);
    private final UnsafeBuffer requestView = new UnsafeBuffer(requestBuffer);
    private final ByteBuffer answerBuffer = ByteBuffer.allocateDirect(MAX_ANSWER_LENGTH + 1);
    private final UnsafeBuffer answerView = new UnsafeBuffer(answerBuffer);
    private final MoldUdp64RequestFlyweight request = new MoldUdp64RequestFlyweight();
    private long requestsSent;
    private long sendFailures;
    private long answersReceived;
    private long receiveErrors;

    /**
     * Binds to an ephemeral port on every local address, with the default receive buffer and a clock of
     * {@code System.nanoTime} calibrated to the epoch.
     *
     * @param server the re-request server's address and port.
     */
    public UdpRetransmitRequester(final InetSocketAddress server)
    {
        this(server, new InetSocketAddress(0), DEFAULT_RECEIVE_BUFFER_BYTES, new OffsetEpochNanoClock());
    }

    /**
     * @param server             the re-request server's address and port.
     * @param bind               local address to send from; port 0 picks an ephemeral one.
     * @param receiveBufferBytes SO_RCVBUF asked of the kernel for answers.
     * @param clock              stamps each answer with its receive time, ns since the epoch.
     * @throws UncheckedIOException when the socket cannot be opened, bound or connected, saying to what.
     */
    public UdpRetransmitRequester(
        final InetSocketAddress server,
        final InetSocketAddress bind,
        final int receiveBufferBytes,
        final EpochNanoClock clock)
    {
        if (server.isUnresolved() || server.getPort() == 0)
        {
            throw new IllegalArgumentException(
                "re-request server " + server + " needs a resolved address and a port from 1 to 65535");
        }
        if (receiveBufferBytes < 1)
        {
            throw new IllegalArgumentException("receive buffer must be at least 1 byte, was " + receiveBufferBytes);
        }
        this.server = server;
        this.clock = clock;
        DatagramChannel opened = null;
        try
        {
            opened = DatagramChannel.open(StandardProtocolFamily.INET);
            opened.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
            opened.bind(bind);
            opened.connect(server);
            opened.configureBlocking(false);
        }
        catch (final IOException | RuntimeException ex)
        {
            closeQuietly(opened);
            throw new UncheckedIOException(new IOException(
                "cannot open the re-request socket from " + bind + " to " + server + ": " + ex.getMessage(), ex));
        }
        this.channel = opened;
        request.wrap(requestView, 0);
    }

    @Override
    public boolean request(final byte[] session, final long firstSequence, final int count)
    {
        request.session(session).sequenceNumber(firstSequence).requestedCount(count);
        requestBuffer.clear();
        try
        {
            if (channel.write(requestBuffer) == MoldUdp64RequestFlyweight.LENGTH)
            {
                requestsSent++;
                return true;
            }
        }
        catch (final IOException ex)
        {
            // the kernel refused the datagram (e.g. an earlier ICMP error); the session asks again on its timer
        }
        sendFailures++;
        return false;
    }

    @Override
    public int poll(final PacketHandler handler)
    {
        int polled = 0;
        while (polled < POLL_LIMIT)
        {
            answerBuffer.clear();
            final int length;
            try
            {
                length = channel.read(answerBuffer);
            }
            catch (final IOException ex)
            {
                receiveErrors++;
                break;
            }
            if (length <= 0)
            {
                break;
            }
            polled++;
            answersReceived++;
            handler.onPacket(FeedLines.RECOVERY, answerView, 0, length, clock.nanoTime());
        }
        return polled;
    }

    /** @return the local UDP port requests are sent from and answers arrive at. */
    public int localPort()
    {
        try
        {
            return ((InetSocketAddress)channel.getLocalAddress()).getPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    public InetSocketAddress server()
    {
        return server;
    }

    public long requestsSent()
    {
        return requestsSent;
    }

    /** @return requests the kernel did not take. */
    public long sendFailures()
    {
        return sendFailures;
    }

    public long answersReceived()
    {
        return answersReceived;
    }

    /** @return failed reads, such as the ICMP errors of requests no server received. */
    public long receiveErrors()
    {
        return receiveErrors;
    }

    @Override
    public void close()
    {
        closeQuietly(channel);
    }

    private static void closeQuietly(final DatagramChannel channel)
    {
        if (null != channel)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // closing a datagram socket has nothing to flush; there is nothing left to do
            }
        }
    }
}
