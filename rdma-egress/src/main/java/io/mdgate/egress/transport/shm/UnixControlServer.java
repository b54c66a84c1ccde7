package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.TransportException;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The publisher's control endpoint: a Unix domain socket, owner/group read-write. A socket file left by a crashed
 * publisher is replaced; one a live publisher answers on is refused. Removed on close.
 * <p>
 * Connections are screened by a daemon thread of their own, never by the publisher's duty cycle: it accepts them,
 * gives each a heap buffer of one frame, and hands a connection over only once its first message (the HELLO) has
 * arrived whole. A connection whose first message does not arrive within the HELLO timeout, or breaks the framing,
 * is closed and counted; at most {@code maxPending} connections wait (screened or handed over and not yet taken):
 * one more closes the oldest still screened at once, counted, so a consumer that says HELLO as soon as it connects
 * gets in however many idle connections are held open. So idle connections cost the publisher neither time nor direct
 * memory; the full-size queues come from the {@link ControlQueuePool} the publisher reserved at start.
 * <p>
 * Threading: {@link #accept()}, {@link #reserve(int)} and the channels it returns on one thread (the publisher's);
 * it never blocks. The counters may be read from any thread.
 */
final class UnixControlServer implements ControlServer, ShmResource
{
    private static final long SWEEP_MILLIS = 20;

    private final ServerSocketChannel server;
    private final Selector selector;
    private final Path socket;
    private final ShmPlacement placement;
    private final int maxMessageLength;
    private final int maxPending;
    private final long helloTimeoutNanos;
    private final ControlQueuePool pool;
    private final Queue<UnixControlChannel> ready = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong timedOut = new AtomicLong();
    private final AtomicLong overLimit = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final ArrayDeque<SelectionKey> arrivals = new ArrayDeque<>();
    private final Thread screener;

    /** A connection waiting for its first message. */
    private static final class Pending
    {
        final SocketChannel channel;
        final ByteBuffer received;
        final long deadlineNanos;

        Pending(final SocketChannel channel, final int frameLength, final long deadlineNanos)
        {
            this.channel = channel;
            this.received = ByteBuffer.allocate(frameLength).order(ByteOrder.LITTLE_ENDIAN);
            this.deadlineNanos = deadlineNanos;
        }
    }

    UnixControlServer(final ShmPlacement placement, final ShmContext context)
    {
        this.placement = placement;
        this.socket = placement.names().controlSocket();
        this.maxMessageLength = context.controlMessageLength();
        this.maxPending = context.maxPendingConnections();
        this.helloTimeoutNanos = context.helloTimeoutNanos();
        this.pool = new ControlQueuePool(context.controlQueueLength());
        removeStale(socket);
        placement.announce(context.group());
        ServerSocketChannel opened = null;
        try
        {
            opened = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            opened.bind(UnixDomainSocketAddress.of(socket), maxPending);
            ShmFiles.restrict(socket, context.group());
            opened.configureBlocking(false);
            selector = Selector.open();
            opened.register(selector, SelectionKey.OP_ACCEPT);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            closeQuietly(opened);
            throw new TransportException("cannot listen on " + socket + ": " + ex.getMessage(), ex);
        }
        server = opened;
        screener = new Thread(this::screenUntilClosed, "mdgate-shm-accept");
        screener.setDaemon(true);
        screener.start();
    }

    private void screenUntilClosed()
    {
        try
        {
            while (server.isOpen())
            {
                selector.select(SWEEP_MILLIS);
                final long now = System.nanoTime();
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext())
                {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid())
                    {
                        continue;
                    }
                    if (key.isAcceptable())
                    {
                        acceptAll(now);
                    }
                    else if (key.isReadable())
                    {
                        readFirstMessage(key);
                    }
                }
                expire(now);
            }
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            // The server is closing; what is still waiting is closed below.
        }
        finally
        {
            closeWaiting();
        }
    }

    private void acceptAll(final long now) throws IOException
    {
        SocketChannel channel;
        while (null != (channel = server.accept()))
        {
            if (waiting.get() >= maxPending && !dropOldest())
            {
                overLimit.incrementAndGet();
                closeQuietly(channel);
                continue;
            }
            try
            {
                channel.configureBlocking(false);
                arrivals.addLast(channel.register(selector, SelectionKey.OP_READ,
                    new Pending(channel, UnixControlChannel.frameLength(maxMessageLength), now + helloTimeoutNanos)));
                waiting.incrementAndGet();
            }
            catch (final IOException ex)
            {
                closeQuietly(channel);
            }
        }
    }

    /** @return true when a screened connection was closed to make room. */
    private boolean dropOldest()
    {
        SelectionKey oldest;
        while (null != (oldest = arrivals.pollFirst()))
        {
            if (oldest.isValid())
            {
                overLimit.incrementAndGet();
                drop(oldest);
                return true;
            }
        }
        return false;
    }

    private void readFirstMessage(final SelectionKey key)
    {
        final Pending pending = (Pending)key.attachment();
        final ByteBuffer received = pending.received;
        try
        {
            if (pending.channel.read(received) < 0)
            {
                drop(key);
                return;
            }
        }
        catch (final IOException ex)
        {
            drop(key);
            return;
        }
        if (received.position() < UnixControlChannel.FRAME_HEADER_LENGTH)
        {
            return;
        }
        final int length = received.getInt(0);
        if (length < 0 || length > maxMessageLength)
        {
            malformed.incrementAndGet();
            drop(key);
        }
        else if (received.position() >= UnixControlChannel.FRAME_HEADER_LENGTH + length)
        {
            key.cancel();
            ready.add(UnixControlChannel.screened(pending.channel, placement, maxMessageLength, received, pool));
        }
    }

    private void expire(final long now)
    {
        SelectionKey oldest;
        while (null != (oldest = arrivals.peekFirst()))
        {
            if (oldest.isValid() && now - ((Pending)oldest.attachment()).deadlineNanos <= 0)
            {
                return;
            }
            arrivals.pollFirst();
            if (oldest.isValid())
            {
                timedOut.incrementAndGet();
                drop(oldest);
            }
        }
    }

    private void drop(final SelectionKey key)
    {
        key.cancel();
        closeQuietly(((Pending)key.attachment()).channel);
        waiting.decrementAndGet();
    }

    private void closeWaiting()
    {
        try
        {
            for (final SelectionKey key : selector.keys())
            {
                if (key.attachment() instanceof Pending)
                {
                    closeQuietly(((Pending)key.attachment()).channel);
                }
            }
            selector.close();
        }
        catch (final IOException | ClosedSelectorException ignore)
        {
            // Closing: nothing more to release.
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
        final UnixControlChannel channel = ready.poll();
        if (null != channel)
        {
            waiting.decrementAndGet();
        }
        return channel;
    }

    @Override
    public void reserve(final int sessions)
    {
        pool.reserve(sessions);
    }

    /** @return full-size queue pairs allocated (two direct buffers each). */
    int queuesReserved()
    {
        return pool.reserved();
    }

    @Override
    public long connectionsTimedOut()
    {
        return timedOut.get();
    }

    @Override
    public long connectionsOverLimit()
    {
        return overLimit.get();
    }

    @Override
    public long connectionsMalformed()
    {
        return malformed.get();
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
        closeQuietly(server);
        selector.wakeup();
        ShmFiles.delete(socket);
        placement.withdraw();
        try
        {
            screener.join(1000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        UnixControlChannel left;
        while (null != (left = ready.poll()))
        {
            left.close();
        }
    }

    private static void closeQuietly(final java.nio.channels.Channel channel)
    {
        if (null == channel)
        {
            return;
        }
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
