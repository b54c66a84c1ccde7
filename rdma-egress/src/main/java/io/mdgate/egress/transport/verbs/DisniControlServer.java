package io.mdgate.egress.transport.verbs;

import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.TransportException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The publisher's RDMA-CM listener on the DiSNI path: an {@link RdmaCmId} bound to the control address and
 * listening, on an event channel that {@link #accept()} reads without waiting. A connection request gets its
 * queue pair, completion queues and posted receives and is accepted at once (RDMA-CM moves the passive side's
 * queue pair to ready-to-send on accept); the channel is returned then. The accepted connections' later events
 * (disconnected, timed out) arrive on this same channel, so reading it ({@link #pump()}, from {@link #accept()}
 * and from each accepted connection's poll) also hands those to their connections, and keeps a request read
 * during a connection's poll for the next {@link #accept()}.
 * <p>
 * A request whose requester gave up before it was taken fails set-up (the CM moved its id on): it is dropped and
 * counted as stale, and the next one is taken in the same call. The channel is read at most every
 * {@link DisniControlChannel#EVENT_CHECK_NANOS} (DiSNI's event call costs a small allocation), which bounds how
 * long a request or a disconnect waits.
 * <p>
 * Threading: one thread, the one that polls the accepted connections.
 */
final class DisniControlServer implements ControlServer, VerbsResource
{
    private static final int STALE_LOGS = 10;
    private static final int EVENTS_PER_ACCEPT = 16;

    private final VerbsContext context;
    private final DisniDevice device;
    private final RdmaEventChannel events;
    private final RdmaCmId listener;
    private final String endpoint;
    private final Consumer<VerbsResource> track;
    private final Consumer<String> log;
    private final Map<RdmaCmId, DisniControlChannel> connections = new IdentityHashMap<>();
    private final ArrayDeque<DisniControlChannel> ready = new ArrayDeque<>();
    private long nextCheckNanos;
    private long stale;
    private long failures;
    private int staleLogged;
    private boolean closed;

    private DisniControlServer(final VerbsContext context, final DisniDevice device, final RdmaEventChannel events,
        final RdmaCmId listener, final Consumer<VerbsResource> track, final Consumer<String> log)
    {
        this.context = context;
        this.device = device;
        this.events = events;
        this.listener = listener;
        this.track = track;
        this.log = log;
        this.endpoint = "rdma-cm:" + context.controlHost() + ":" + context.controlPort();
    }

    static DisniControlServer listen(final VerbsContext context, final DisniDevice device, final int backlog,
        final Consumer<VerbsResource> track, final Consumer<String> log)
    {
        final RdmaEventChannel events = DisniSupport.createEventChannel();
        RdmaCmId listener = null;
        try
        {
            listener = events.createId(RdmaCm.RDMA_PS_TCP);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(context.controlHost()),
                context.controlPort()));
            listener.listen(backlog);
            return new DisniControlServer(context, device, events, listener, track, log);
        }
        catch (final IOException ex)
        {
            DisniSupport.quietly(listener, events);
            throw new TransportException("cannot listen on " + context.controlAddress() + " through DiSNI: " +
                ex.getMessage() + " (is the address assigned to the RDMA device's interface, and the port free?)", ex);
        }
    }

    @Override
    public ControlChannel accept()
    {
        if (closed)
        {
            return null;
        }
        if (ready.isEmpty())
        {
            pump();
        }
        return ready.poll();
    }

    /**
     * Reads the listener's events, at most every {@link DisniControlChannel#EVENT_CHECK_NANOS}: requests are set up
     * and kept for {@link #accept()}, the ends of accepted connections handed to them.
     */
    void pump()
    {
        final long now = System.nanoTime();
        if (closed || now - nextCheckNanos < 0)
        {
            return;
        }
        nextCheckNanos = now + DisniControlChannel.EVENT_CHECK_NANOS;
        for (int i = 0; i < EVENTS_PER_ACCEPT; i++)
        {
            final RdmaCmEvent event;
            try
            {
                event = events.getCmEvent(0);
            }
            catch (final IOException ex)
            {
                log.accept("cannot read the listener's RDMA-CM events: " + ex.getMessage());
                return;
            }
            if (null == event)
            {
                return;
            }
            final RdmaCmEvent.EventType type = DisniSupport.type(event);
            if (type == RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST)
            {
                final DisniControlChannel channel = setUp(event.getConnIdPriv());
                if (null != channel)
                {
                    ready.add(channel);
                }
            }
            else if (DisniControlChannel.ends(type))
            {
                final DisniControlChannel channel = connections.get(event.getConnIdPriv());
                if (null != channel)
                {
                    channel.markDisconnected();
                }
            }
        }
        // More may be queued behind these: read again at the next call, with no wait.
        nextCheckNanos = now;
    }

    private DisniControlChannel setUp(final RdmaCmId id)
    {
        DisniControlChannel.Resources resources = null;
        try
        {
            resources = DisniControlChannel.Resources.create(id, device, context);
            id.accept(DisniControlChannel.connectionParameters());
            final DisniControlChannel channel = DisniControlChannel.accepted(id, resources,
                context.controlMessageLength(), this, () -> connections.remove(id));
            connections.put(id, channel);
            track.accept(channel);
            return channel;
        }
        catch (final IOException | RuntimeException ex)
        {
            if (null != resources)
            {
                resources.destroy(id);
            }
            DisniControlChannel.quietly(id::destroyId);
            final String text = String.valueOf(ex.getMessage());
            // A requester that gave up: the CM moved its id out of the request state (EINVAL, ETIMEDOUT, refused).
            if (text.contains("Invalid argument") || text.contains("timed out") || text.contains("refused"))
            {
                stale++;
                if (staleLogged++ < STALE_LOGS)
                {
                    log.accept("dropped a control connection request that could not be set up, most likely because " +
                        "the consumer had given up waiting: " + text +
                        (staleLogged == STALE_LOGS ? " (further ones only counted: egress.connections_stale)" : ""));
                }
            }
            else
            {
                failures++;
                log.accept("refused a control connection that could not be set up: " + text);
            }
            return null;
        }
    }

    @Override
    public long connectionsStale()
    {
        return stale;
    }

    /** @return connection requests that failed set-up for another reason than a requester that gave up. */
    long failures()
    {
        return failures;
    }

    @Override
    public String endpoint()
    {
        return endpoint;
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        // Set up but never taken: closed here, as nobody else holds them.
        DisniControlChannel channel;
        while (null != (channel = ready.poll()))
        {
            channel.close();
        }
        try
        {
            RdmaCmEvent event;
            while (null != (event = events.getCmEvent(0)))
            {
                if (DisniSupport.type(event) == RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST)
                {
                    DisniControlChannel.quietly(event.getConnIdPriv()::destroyId);
                }
            }
        }
        catch (final IOException ignore)
        {
            // Teardown.
        }
        // Accepted connections share this channel: they are closed first (the transport closes in reverse order).
        DisniSupport.quietly(listener, events);
    }
}
