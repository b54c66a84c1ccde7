package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.TransportException;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The publisher's control endpoint: a Unix domain socket, owner/group read-write. A socket file left by a crashed
 * publisher is replaced; one a live publisher answers on is refused. Removed on close.
 * <p>
 * Connections are accepted by a daemon thread blocked in {@code accept} and handed over through a queue, because a
 * non-blocking {@code accept} allocates even when nobody is connecting, and the publisher's duty cycle must not
 * (RDMA-CM likewise delivers connection requests on its own event channel).
 * <p>
 * Threading: {@link #accept()} on one thread; it never blocks.
 */
final class UnixControlServer implements ControlServer, ShmResource
{
    private final ServerSocketChannel server;
    private final Path socket;
    private final ShmNames names;
    private final int maxMessageLength;
    private final int queueLength;
    private final Queue<SocketChannel> accepted = new ConcurrentLinkedQueue<>();
    private final Thread acceptor;

    UnixControlServer(final ShmNames names, final String group, final int maxMessageLength, final int queueLength)
    {
        this.names = names;
        this.socket = names.controlSocket();
        this.maxMessageLength = maxMessageLength;
        this.queueLength = queueLength;
        removeStale(socket);
        try
        {
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            ShmFiles.restrict(socket, group);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new TransportException("cannot listen on " + socket + ": " + ex.getMessage(), ex);
        }
        acceptor = new Thread(this::acceptUntilClosed, "mdgate-shm-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptUntilClosed()
    {
        while (server.isOpen())
        {
            try
            {
                accepted.add(server.accept());
            }
            catch (final IOException ex)
            {
                if (!server.isOpen())
                {
                    return;
                }
            }
        }
    }

    private static void removeStale(final Path socket)
    {
        if (!Files.exists(socket))
        {
            return;
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            probe.connect(UnixDomainSocketAddress.of(socket));
        }
        catch (final IOException ex)
        {
            ShmFiles.delete(socket);
            return;
        }
        throw new TransportException("a publisher is already listening on " + socket +
            ": stop it or choose another shm instance name");
    }

    @Override
    public ControlChannel accept()
    {
        final SocketChannel channel = accepted.poll();
        if (null == channel)
        {
            return null;
        }
        try
        {
            return new UnixControlChannel(channel, names, maxMessageLength, queueLength);
        }
        catch (final IOException ex)
        {
            closeQuietly(channel);
            return null;
        }
    }

    @Override
    public String endpoint()
    {
        return "uds:" + socket;
    }

    @Override
    public boolean isClosed()
    {
        return !server.isOpen();
    }

    @Override
    public void close()
    {
        try
        {
            server.close();
        }
        catch (final IOException ignore)
        {
            // Nothing more to release.
        }
        ShmFiles.delete(socket);
        try
        {
            acceptor.join(1000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        SocketChannel left;
        while (null != (left = accepted.poll()))
        {
            closeQuietly(left);
        }
    }

    private static void closeQuietly(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // A connection never handed over; nothing more to release.
        }
    }
}
