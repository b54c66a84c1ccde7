package io.mdgate.egress.transport.verbs;

import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import io.mdgate.egress.transport.TransportException;

import java.io.IOException;

/**
 * Set-up helpers of the DiSNI path: loading DiSNI's native half with a message that says what to do, bounded
 * waits for RDMA-CM events, and teardown that never throws.
 */
final class DisniSupport
{
    private static final RdmaCmEvent.EventType[] EVENT_TYPES = RdmaCmEvent.EventType.values();

    private DisniSupport()
    {
    }

    /**
     * @return why DiSNI cannot be used in this JVM, or null when it can. DiSNI loads {@code libdisni.so} with
     *         {@code System.loadLibrary}, so it must be on {@code java.library.path}.
     */
    static String unavailabilityReason()
    {
        try
        {
            Class.forName("com.ibm.disni.verbs.impl.NativeDispatcher", true, DisniSupport.class.getClassLoader());
            return null;
        }
        catch (final ClassNotFoundException | LinkageError ex)
        {
            final Throwable cause = null != ex.getCause() ? ex.getCause() : ex;
            return "DiSNI's native library libdisni.so cannot be loaded (" + cause.getMessage() + "): put the " +
                "directory holding it on java.library.path (the installation's native/, rdma-egress/target/native " +
                "in a build), or choose the project's own RC library with rdma_rc = \"native\" (--rdma-rc native)";
        }
    }

    static RdmaEventChannel createEventChannel()
    {
        final String reason = unavailabilityReason();
        if (null != reason)
        {
            throw new TransportException(reason);
        }
        try
        {
            return RdmaEventChannel.createEventChannel();
        }
        catch (final IOException ex)
        {
            throw new TransportException("cannot create an RDMA-CM event channel through DiSNI: " + ex.getMessage(),
                ex);
        }
    }

    /** @return the type of an event, by DiSNI's numbering. */
    static RdmaCmEvent.EventType type(final RdmaCmEvent event)
    {
        final int type = event.getEvent();
        return type >= 0 && type < EVENT_TYPES.length ? EVENT_TYPES[type] : RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_ERROR;
    }

    /**
     * Waits at most {@code timeoutMillis} for the next event of {@code channel} and checks that it is
     * {@code wanted}.
     *
     * @return the event.
     * @throws DisniSetupException naming the step and what came instead (refused, unreachable, nothing).
     */
    static RdmaCmEvent await(final RdmaEventChannel channel, final RdmaCmEvent.EventType wanted,
        final int timeoutMillis, final String step) throws IOException
    {
        final RdmaCmEvent event = channel.getCmEvent(Math.max(1, timeoutMillis));
        if (null == event)
        {
            throw new DisniSetupException(step + ": no answer within " + timeoutMillis + " ms", true);
        }
        final RdmaCmEvent.EventType got = type(event);
        if (got != wanted)
        {
            final boolean retry = got == RdmaCmEvent.EventType.RDMA_CM_EVENT_REJECTED ||
                got == RdmaCmEvent.EventType.RDMA_CM_EVENT_UNREACHABLE ||
                got == RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_ERROR ||
                got == RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_ERROR ||
                got == RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_ERROR;
            throw new DisniSetupException(step + ": " + got + " (status " + event.getStatus() + ")", retry);
        }
        return event;
    }

    /** Destroys an id and then its channel, ignoring failures (teardown of what may be half made). */
    static void quietly(final RdmaCmId id, final RdmaEventChannel channel)
    {
        try
        {
            if (null != id)
            {
                id.destroyId();
            }
        }
        catch (final IOException | RuntimeException ignore)
        {
            // Best effort.
        }
        try
        {
            if (null != channel)
            {
                channel.destroyEventChannel();
            }
        }
        catch (final IOException | RuntimeException ignore)
        {
            // Best effort.
        }
    }

    /** A set-up step that failed; {@link #retryable()} when asking again later may succeed (nobody listening). */
    static final class DisniSetupException extends IOException
    {
        private static final long serialVersionUID = 1L;
        private final boolean retryable;

        DisniSetupException(final String message, final boolean retryable)
        {
            super(message);
            this.retryable = retryable;
        }

        boolean retryable()
        {
            return retryable;
        }
    }
}
