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

/**
 * The publisher's control endpoint: a non-blocking Unix domain socket, owner/group read-write. A socket file left by
 * a crashed publisher is replaced; one a live publisher answers on is refused. Removed on close.
 * <p>
 * Threading: one thread; {@link #accept()} never blocks.
 */
final class UnixControlServer implements ControlServer, ShmResource
{
    private final ServerSocketChannel server;
    private final Path socket;
    private final ShmNames names;
    private final int maxMessageLength;
    private final int queueLength;

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
            server.configureBlocking(false);
            ShmFiles.restrict(socket, group);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new TransportException("cannot listen on " + socket + ": " + ex.getMessage(), ex);
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
        try
        {
            final SocketChannel accepted = server.accept();
            return null == accepted ? null : new UnixControlChannel(accepted, names, maxMessageLength, queueLength);
        }
        catch (final IOException ex)
        {
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
    }
}
