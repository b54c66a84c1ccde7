package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;

import java.util.function.Consumer;

/**
 * The publisher's RDMA-CM listener. {@link #accept()} reads the listener's non-blocking event channel: for a
 * connection request it creates the queue pair, posts receives and accepts, and returns the channel at once (the
 * passive side's queue pair is ready to send when RDMA-CM accepts). A request that cannot be set up is rejected,
 * counted and reported to the transport's event log.
 * <p>
 * Threading: one thread. {@link #accept()} makes one syscall when nobody is connecting and never blocks.
 */
final class VerbsControlServer implements ControlServer, VerbsResource
{
    private final long listener;
    private final int[] params;
    private final int maxMessageLength;
    private final int pollBatch;
    private final String endpoint;
    private final Consumer<VerbsControlChannel> track;
    private final Consumer<String> log;
    private long failures;
    /** Reports of dropped stale requests before they are only counted. */
    private static final int STALE_LOGS = 10;

    private boolean closed;
    private long staleAtClose;
    private int staleLogged;

    VerbsControlServer(final long listener, final int[] params, final int maxMessageLength, final int pollBatch,
        final Consumer<VerbsControlChannel> track, final Consumer<String> log)
    {
        this.listener = listener;
        this.params = params;
        this.maxMessageLength = maxMessageLength;
        this.pollBatch = pollBatch;
        this.track = track;
        this.log = log;
        this.endpoint = "rdma-cm:" + VerbsNative.listenerEndpoint0(listener);
    }

    @Override
    public ControlChannel accept()
    {
        if (closed)
        {
            return null;
        }
        final long staleBefore = VerbsNative.listenerStale0(listener);
        final long handle = VerbsNative.accept0(listener, params);
        final long stale = VerbsNative.listenerStale0(listener) - staleBefore;
        if (stale > 0 && staleLogged++ < STALE_LOGS)
        {
            // Said, not only counted: a set-up that fails for every request (a queue depth the device refuses)
            // looks like this too, and must not pass for consumers that merely gave up.
            log.accept("dropped " + stale + " control connection request(s) that could not be set up, most likely " +
                "because the consumer had given up waiting: " + VerbsNative.lastError() +
                (staleLogged == STALE_LOGS ? " (further ones only counted: egress.connections_stale)" : ""));
        }
        if (handle == 0)
        {
            return null;
        }
        if (handle < 0)
        {
            failures++;
            log.accept("refused a control connection that could not be set up: " + VerbsResults.describe(handle));
            return null;
        }
        final VerbsControlChannel channel = new VerbsControlChannel(handle, maxMessageLength, pollBatch);
        track.accept(channel);
        return channel;
    }

    @Override
    public long connectionsStale()
    {
        return closed ? staleAtClose : VerbsNative.listenerStale0(listener);
    }

    /** @return connection requests that failed set-up. */
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
        if (!closed)
        {
            staleAtClose = VerbsNative.listenerStale0(listener);
            closed = true;
            VerbsNative.listenerClose0(listener);
        }
    }
}
