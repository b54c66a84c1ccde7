package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.SharedLog;
import io.mdgate.egress.transport.TransportException;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The host-local egress transport: registered regions are files under a directory ({@code /dev/shm} by default)
 * that peers map, one-sided writes are ordered stores into a peer's mapping, the multicast stream is a broadcast log
 * file, and control runs over a Unix domain socket. All files are owner/group read-write only, in a configurable
 * group, and named after the instance, so several publishers can share a host. It is the embedded default for demos
 * and for consumers on the gateway host, with the same semantics as verbs (see {@link EgressTransport}).
 * <p>
 * Threading: set-up calls on one thread; see the objects returned. Closing the transport closes everything it made.
 */
public final class ShmTransport implements EgressTransport
{
    private final ShmContext context;
    private final ShmNames names;
    private final ShmPlacement placement;
    private final SecureRandom random = new SecureRandom();
    private final List<ShmResource> opened = new ArrayList<>();
    private boolean orphansRemoved;

    /**
     * @param context settings; concluded here if it was not.
     */
    public ShmTransport(final ShmContext context)
    {
        this.context = context.conclude();
        this.names = new ShmNames(context.directory(), context.instance());
        this.placement = ShmPlacement.of(names, context);
    }

    public ShmContext context()
    {
        return context;
    }

    /** @return the hugetlbfs directory this transport creates its files in, or null when on regular pages. */
    public Path hugepageDirectory()
    {
        return placement.hugeDirectory();
    }

    /** @return times a file went on regular pages although hugepages were asked for (0 when they were not). */
    public long hugepageFallbacks()
    {
        return placement.fallbacks();
    }

    @Override
    public String name()
    {
        return "shm";
    }

    @Override
    public int mtu()
    {
        return context.mtu();
    }

    @Override
    public MemoryRegion registerRegion(final int length, final RegionAccess access)
    {
        if (length < 1)
        {
            throw new TransportException("a region needs at least 1 byte, asked for " + length);
        }
        final ShmRegion region;
        if (access == RegionAccess.LOCAL)
        {
            region = ShmRegion.local(length);
        }
        else
        {
            if (!orphansRemoved)
            {
                orphansRemoved = true;
                ShmOrphans.remove(names, names.directory());
                if (null != placement.hugeDirectory())
                {
                    ShmOrphans.remove(names, placement.hugeDirectory());
                }
            }
            final long address = random.nextLong() & Long.MAX_VALUE;
            final int key = random.nextInt() | 1;
            region = ShmRegion.shared(placement, names.regionFile(address), address, key, length, context.group());
        }
        track(region);
        return region;
    }

    @Override
    public MulticastPublication addPublication(final int streamId)
    {
        return track(new ShmMulticastPublication(
            placement, names.streamFile(streamId), streamId, context.mtu(), context.streamSlots(), context.group()));
    }

    @Override
    public MulticastSubscription addSubscription(final int streamId)
    {
        return track(new ShmMulticastSubscription(placement.find(names.streamFile(streamId)), streamId));
    }

    @Override
    public SharedLog createSharedLog(final int streamId, final int length)
    {
        return track(ShmSharedLog.create(placement, names.sharedLogFile(streamId), length, context.group()));
    }

    @Override
    public SharedLog openSharedLog(final int streamId)
    {
        return track(ShmSharedLog.open(placement.find(names.sharedLogFile(streamId))));
    }

    @Override
    public ControlServer bindControl()
    {
        return track(new UnixControlServer(placement, context));
    }

    @Override
    public ControlChannel connectControl(final long timeoutNanos)
    {
        final long deadline = System.nanoTime() + timeoutNanos;
        final UnixDomainSocketAddress address = UnixDomainSocketAddress.of(names.controlSocket());
        IOException last = null;
        do
        {
            SocketChannel channel = null;
            try
            {
                channel = SocketChannel.open(StandardProtocolFamily.UNIX);
                channel.connect(address);
                return track(UnixControlChannel.connected(
                    channel, placement, context.controlMessageLength(), context.controlQueueLength()));
            }
            catch (final IOException ex)
            {
                last = ex;
                closeQuietly(channel);
                if (System.nanoTime() - deadline >= 0)
                {
                    break;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
        while (true);
        throw new TransportException("no publisher answers on " + names.controlSocket() + " (" + last +
            "): start the publisher with the same shm directory and instance, or check the path", last);
    }

    private static void closeQuietly(final SocketChannel channel)
    {
        if (null != channel)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // Already failing to connect; nothing more to release.
            }
        }
    }

    private <T extends ShmResource> T track(final T resource)
    {
        opened.removeIf(ShmResource::isClosed);
        opened.add(resource);
        return resource;
    }

    @Override
    public void close()
    {
        for (int i = opened.size() - 1; i >= 0; i--)
        {
            try
            {
                opened.get(i).close();
            }
            catch (final Exception ignore)
            {
                // Closing is best effort per resource; one failure must not leave the others open.
            }
        }
        opened.clear();
    }
}
