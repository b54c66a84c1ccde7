package io.mdgate.app.clock;

import org.agrona.concurrent.EpochNanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.BooleanSupplier;

/**
 * Answers clock probes ({@link ClockExchange}) on one UDP address with its clock's readings: on receipt (t2) and as it
 * answers (t3). Anything else that arrives (a datagram of another length or magic) is counted and dropped, never
 * answered. Threading: one thread serves; {@link #answered()} and {@link #dropped()} may be read from any.
 */
final class ClockServer implements AutoCloseable
{
    private final DatagramChannel channel;
    private final Selector selector;
    private final EpochNanoClock clock;
    private final ByteBuffer buffer = ClockExchange.buffer();
    private volatile long answered;
    private volatile long dropped;

    /**
     * @throws IOException when the address cannot be bound (not an address of this host, or in use).
     */
    ClockServer(final InetSocketAddress address, final EpochNanoClock clock) throws IOException
    {
        this.clock = clock;
        channel = DatagramChannel.open();
        try
        {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(address);
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_READ);
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /** @return the bound address (the port chosen when 0 was asked for). */
    InetSocketAddress address() throws IOException
    {
        return (InetSocketAddress)channel.getLocalAddress();
    }

    /**
     * Answers probes until {@code running} says no (checked at least every 100 ms).
     *
     * @throws IOException when the socket fails.
     */
    void serve(final BooleanSupplier running) throws IOException
    {
        while (running.getAsBoolean())
        {
            if (selector.select(100) == 0)
            {
                continue;
            }
            selector.selectedKeys().clear();
            SocketAddress from;
            while (null != (from = receive()))
            {
                final long t2 = clock.nanoTime();
                buffer.flip();
                if (!ClockExchange.isProbe(buffer))
                {
                    dropped++;
                    continue;
                }
                ClockExchange.answer(buffer, t2, clock.nanoTime());
                channel.send(buffer, from);
                answered++;
            }
        }
    }

    private SocketAddress receive() throws IOException
    {
        buffer.clear();
        return channel.receive(buffer);
    }

    long answered()
    {
        return answered;
    }

    long dropped()
    {
        return dropped;
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            selector.close();
        }
        finally
        {
            channel.close();
        }
    }
}
