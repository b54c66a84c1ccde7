package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.shm.HugepageMode;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The egress transport over RDMA verbs: registered regions are memory regions, one-sided writes are RDMA Writes on
 * the control connection's RC queue pair, the multicast stream is a UD queue pair sending to an IPv4 group joined
 * through RDMA-CM, and control is RC send/receive over connections RDMA-CM sets up. Same semantics as {@code shm}
 * (see {@link EgressTransport}).
 * <p>
 * Two libraries drive it. The RC path (regions, control connections, RDMA Writes) goes through DiSNI's Java verbs
 * API by default ({@link VerbsContext.Rc#DISNI}: {@code RdmaCmId}, {@code IbvPd}, {@code IbvMr}, {@code IbvQP} and
 * its pre-built {@code SVCPostSend} / {@code SVCPollCq} calls, over the project's {@code libdisni}), or through the
 * project's own JNI library {@code libmdgate-verbs} ({@link VerbsContext.Rc#NATIVE}). UD multicast is always the
 * own library's: DiSNI cannot express address handles, UD sends or group joins. Both open the same device context
 * (librdmacm's), which the DiSNI path checks.
 * <p>
 * Construction opens the device and fails at once, with a {@link TransportException} that says what to do, when
 * there is no RDMA device, the named one is missing, the locked-memory limit is too low or the port is down.
 * <p>
 * Threading: set-up calls on one thread; see the objects returned. Closing the transport closes everything it made
 * and then the device.
 */
public final class VerbsTransport implements EgressTransport
{
    private static final int ECONNREFUSED = 111;
    private static final int EHOSTUNREACH = 113;
    private static final int CONTROL_POLL_BATCH = 64;
    private static final int STREAM_POLL_BATCH = 64;
    private static final int PUBLICATION_SEND_DEPTH = 1024;

    private final VerbsContext context;
    private final VerbsDevice device;
    private final List<VerbsResource> opened = new ArrayList<>();
    private final Consumer<String> log;
    private final int mtu;
    private DisniDevice disni;
    private String lastLocalAddress;
    private long hugepageFallbacks;
    private boolean hugepageWarned;
    private boolean closed;

    /**
     * @param context settings; concluded here.
     * @throws TransportException when there is no usable RDMA device, saying why and what to do.
     * @throws IllegalArgumentException when the settings are wrong.
     */
    public VerbsTransport(final VerbsContext context)
    {
        this(context, message -> System.err.println("verbs: " + message));
    }

    /**
     * @param log receives set-up events that are not failures of a call (a refused connection request).
     */
    public VerbsTransport(final VerbsContext context, final Consumer<String> log)
    {
        // The device first: on a host without RDMA that is the one thing to say, whatever else is configured.
        this.device = VerbsDevice.open(context.device(), context.port(), context.minimumMemlockBytes());
        try
        {
            this.context = context.conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            device.close();
            throw ex;
        }
        this.log = log;
        this.mtu = Math.min(context.mtu(), device.activeMtu());
        if (this.context.rc() == VerbsContext.Rc.DISNI)
        {
            final String reason = DisniSupport.unavailabilityReason();
            if (null != reason)
            {
                device.close();
                throw new TransportException(reason);
            }
        }
    }

    /**
     * Checks that the verbs transport could run here, without opening anything for long.
     *
     * @return null when an RDMA device can be opened, else what is missing and what to do.
     */
    public static String unavailabilityReason(final String deviceName)
    {
        try (VerbsDevice ignored = VerbsDevice.open(deviceName, 1, 0))
        {
            return null;
        }
        catch (final TransportException ex)
        {
            return ex.getMessage();
        }
    }

    public VerbsContext context()
    {
        return context;
    }

    /** @return the RDMA device in use. */
    public String deviceName()
    {
        return device.name();
    }

    @Override
    public String name()
    {
        return "verbs";
    }

    /** @return the library of the RC path. */
    public VerbsContext.Rc rc()
    {
        return context.rc();
    }

    /** @return regions put on regular pages although hugepages were asked for (AUTO). */
    public long hugepageFallbacks()
    {
        return hugepageFallbacks;
    }

    /** The DiSNI view of the device, opened at the first use (a consumer's needs the publisher's route). */
    private DisniDevice disni()
    {
        if (null == disni)
        {
            disni = DisniDevice.open(context, device);
        }
        return disni;
    }

    /** @return the stream's MTU: the one asked for, capped by the port's active MTU (UD datagrams fit one packet). */
    @Override
    public int mtu()
    {
        return mtu;
    }

    @Override
    public MemoryRegion registerRegion(final int length, final RegionAccess access)
    {
        ensureOpen();
        if (length < 1)
        {
            throw new TransportException("a region needs at least 1 byte, asked for " + length);
        }
        final RegionMemory memory = memory(length);
        if (context.rc() == VerbsContext.Rc.DISNI)
        {
            return track(DisniRegion.register(disni(), memory, length, access));
        }
        return track(VerbsRegion.register(device, memory, length, access));
    }

    /** Regions of 1 MiB and more go on 2 MiB pages when asked for; smaller ones would waste most of a page. */
    private RegionMemory memory(final int length)
    {
        if (context.hugepages() == HugepageMode.OFF || length < RegionMemory.HUGEPAGE / 2)
        {
            return RegionMemory.regular(length);
        }
        final RegionMemory huge = RegionMemory.huge(length);
        if (null != huge)
        {
            return huge;
        }
        final String why = VerbsNative.lastError();
        if (context.hugepages() == HugepageMode.REQUIRED)
        {
            throw new TransportException("hugepages = \"required\" but a region of " + length + " bytes cannot go " +
                "on 2 MiB pages (" + why + "): reserve some (echo N > /proc/sys/vm/nr_hugepages) or set hugepages " +
                "= \"auto\"");
        }
        hugepageFallbacks++;
        if (null != context.hugepageFallbackCounter())
        {
            context.hugepageFallbackCounter().increment();
        }
        if (!hugepageWarned)
        {
            hugepageWarned = true;
            log.accept("registered regions go on regular pages: " + why + " (counted in egress.hugepage_fallbacks; " +
                "reserve 2 MiB pages with echo N > /proc/sys/vm/nr_hugepages)");
        }
        return RegionMemory.regular(length);
    }

    @Override
    public MulticastPublication addPublication(final int streamId)
    {
        ensureOpen();
        final String local = null != context.localAddress() ? context.localAddress() : context.controlHost();
        final String group = context.groupOf(streamId);
        final long handle = openMulticast(local, group, PUBLICATION_SEND_DEPTH, 0);
        return track(new VerbsMulticastPublication(handle, streamId, mtu, group));
    }

    @Override
    public MulticastSubscription addSubscription(final int streamId)
    {
        ensureOpen();
        final String local = null != context.localAddress() ? context.localAddress() :
            null != lastLocalAddress ? lastLocalAddress : context.controlHost();
        final long handle = openMulticast(local, context.groupOf(streamId), 64, context.streamReceiveBuffers());
        return track(new VerbsMulticastSubscription(handle, streamId, mtu, STREAM_POLL_BATCH));
    }

    private long openMulticast(final String local, final String group, final int sendDepth, final int receives)
    {
        final int[] params = {sendDepth, receives, mtu, (int)context.setupTimeoutMillis()};
        final long handle = VerbsNative.udOpen0(device.handle(), local, group, params);
        if (handle < 0)
        {
            throw new TransportException("cannot join multicast group " + group + " from " + local + " on " +
                device.name() + ": " + VerbsResults.describe(handle) + " (the local address must be on the RDMA " +
                "device's interface; set it with --rdma-local)");
        }
        return handle;
    }

    private int[] connectionParams()
    {
        return new int[] {context.sendQueueDepth(), context.controlReceiveBuffers(), context.controlMessageLength(),
            context.sendRingBytes()};
    }

    @Override
    public ControlServer bindControl()
    {
        ensureOpen();
        if ("0.0.0.0".equals(context.controlHost()))
        {
            throw new TransportException("the publisher needs the control address of its RDMA interface, not " +
                "0.0.0.0: the multicast stream joins from it");
        }
        if (context.rc() == VerbsContext.Rc.DISNI)
        {
            return track(DisniControlServer.listen(context, disni(), 64, this::track, log));
        }
        final long listener = VerbsNative.listen0(device.handle(), context.controlHost(), context.controlPort(), 64);
        if (listener < 0)
        {
            throw new TransportException("cannot listen on " + context.controlAddress() + " with " + device.name() +
                ": " + VerbsResults.describe(listener));
        }
        return track(new VerbsControlServer(listener, connectionParams(), context.controlMessageLength(),
            CONTROL_POLL_BATCH, this::track, log));
    }

    /**
     * {@inheritDoc}
     * <p>
     * Over verbs a connection takes RDMA-CM round trips (address, route, connect), each bounded by
     * {@code setupTimeoutMillis}; a refused attempt (nobody listening yet) is retried until the timeout. With a
     * timeout of 0 it makes exactly one attempt, which returns quickly when the publisher's host answers and may
     * take up to the set-up timeout when it does not.
     */
    @Override
    public ControlChannel connectControl(final long timeoutNanos)
    {
        ensureOpen();
        final long deadline = System.nanoTime() + timeoutNanos;
        String last = "no attempt";
        do
        {
            // A zero timeout (the SDK's reconnect) still needs one whole attempt: RDMA-CM has a round trip to make.
            final long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            final int stepMillis = (int)(remainingMillis <= 0 ? context.setupTimeoutMillis() :
                Math.min(remainingMillis, context.setupTimeoutMillis()));
            if (context.rc() == VerbsContext.Rc.DISNI)
            {
                try
                {
                    final DisniControlChannel channel = connectDisni(stepMillis);
                    final String localEnd = channel.localAddress();
                    lastLocalAddress = localEnd.substring(0, localEnd.lastIndexOf(':'));
                    return track(channel);
                }
                catch (final DisniSupport.DisniSetupException ex)
                {
                    last = ex.getMessage();
                    if (!ex.retryable())
                    {
                        break;
                    }
                }
                catch (final IOException | TransportException ex)
                {
                    // The route towards the publisher may come and go (a link that is down): asked again.
                    last = ex.getMessage();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                continue;
            }
            final long handle = VerbsNative.connect0(device.handle(), context.controlHost(), context.controlPort(),
                stepMillis, connectionParams());
            if (handle > 0)
            {
                final VerbsControlChannel channel = new VerbsControlChannel(handle, context.controlMessageLength(),
                    CONTROL_POLL_BATCH);
                final String localEnd = channel.localAddress();
                lastLocalAddress = localEnd.substring(0, localEnd.lastIndexOf(':'));
                return track(channel);
            }
            last = VerbsResults.describe(handle);
            final int errno = (int)-handle;
            if (errno != ECONNREFUSED && errno != VerbsNative.ETIMEDOUT && errno != EHOSTUNREACH)
            {
                break;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        while (System.nanoTime() - deadline < 0);
        throw new TransportException("no publisher answers at rdma-cm:" + context.controlAddress() + " on " +
            device.name() + " (" + last + "): start the publisher with the same --rdma-address, or check the address");
    }

    /** One attempt: address, route, queue pair and receives, connect; each RDMA-CM step bounded by stepMillis. */
    private DisniControlChannel connectDisni(final int stepMillis) throws IOException
    {
        final DisniDevice device = disni();
        final RdmaEventChannel events = DisniSupport.createEventChannel();
        RdmaCmId id = null;
        DisniControlChannel.Resources resources = null;
        try
        {
            id = events.createId(RdmaCm.RDMA_PS_TCP);
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(context.controlHost()),
                context.controlPort()), stepMillis);
            DisniSupport.await(events, RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED, stepMillis,
                "resolving the address");
            id.resolveRoute(stepMillis);
            DisniSupport.await(events, RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_RESOLVED, stepMillis,
                "resolving the route");
            resources = DisniControlChannel.Resources.create(id, device, context);
            id.connect(DisniControlChannel.connectionParameters());
            DisniSupport.await(events, RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED, stepMillis, "connecting");
            return DisniControlChannel.connected(id, events, resources, context.controlMessageLength());
        }
        catch (final IOException | RuntimeException ex)
        {
            if (null != resources)
            {
                resources.destroy(id);
            }
            DisniSupport.quietly(id, events);
            throw ex;
        }
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new TransportException("the verbs transport is closed");
        }
    }

    private <T extends VerbsResource> T track(final T resource)
    {
        opened.removeIf(VerbsResource::isClosed);
        opened.add(resource);
        return resource;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (int i = opened.size() - 1; i >= 0; i--)
        {
            try
            {
                opened.get(i).close();
            }
            catch (final RuntimeException ignore)
            {
                // Best effort per resource: one failure must not leave the others registered.
            }
        }
        opened.clear();
        if (null != disni)
        {
            disni.close();
        }
        device.close();
    }
}
