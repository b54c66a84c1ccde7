package io.mdgate.egress.transport.verbs;

import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.impl.NatIbvContext;
import io.mdgate.egress.transport.TransportException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The transport's device as DiSNI sees it: an RDMA-CM id bound to the local address (or, for a consumer that
 * named none, resolved towards the publisher), its verbs context and one protection domain that every region and
 * RC queue pair of the DiSNI path shares. The id stays open as long as the transport so that the context does.
 * Opening checks that the context is the very one the transport's own library opened (librdmacm opens each
 * device once per process), so that both paths run over the same device and port.
 * <p>
 * Set-up code, one thread.
 */
final class DisniDevice implements AutoCloseable
{
    private final RdmaEventChannel channel;
    private final RdmaCmId anchor;
    private final IbvPd pd;
    private final IbvCompChannel completions;
    private boolean closed;

    private DisniDevice(final RdmaEventChannel channel, final RdmaCmId anchor, final IbvPd pd,
        final IbvCompChannel completions)
    {
        this.channel = channel;
        this.anchor = anchor;
        this.pd = pd;
        this.completions = completions;
    }

    /**
     * @throws TransportException when DiSNI's library cannot load or the address is on no RDMA device, or on
     *         another one than {@code device}.
     */
    static DisniDevice open(final VerbsContext context, final VerbsDevice device)
    {
        final RdmaEventChannel channel = DisniSupport.createEventChannel();
        RdmaCmId anchor = null;
        try
        {
            anchor = channel.createId(RdmaCm.RDMA_PS_TCP);
            final String local = null != context.localAddress() ? context.localAddress() : context.controlHost();
            if (!bind(anchor, local))
            {
                if (null != context.localAddress())
                {
                    throw new TransportException("local address " + local + " is on no RDMA device: assign it to " +
                        device.name() + "'s interface or set another with --rdma-local");
                }
                // A consumer: the control host is the publisher's; the route towards it picks the local device.
                anchor.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(context.controlHost()),
                    context.controlPort()), (int)context.setupTimeoutMillis());
                DisniSupport.await(channel, RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED,
                    (int)context.setupTimeoutMillis(), "resolving " + context.controlHost());
            }
            final IbvContext verbs = anchor.getVerbs();
            if (null == verbs)
            {
                throw new TransportException("no RDMA device serves " + local + " (DiSNI's RDMA-CM id has no verbs " +
                    "context)");
            }
            final long expected = VerbsNative.deviceContext0(device.handle());
            if (verbs instanceof NatIbvContext && ((NatIbvContext)verbs).getObjId() != expected)
            {
                throw new TransportException("the address " + local + " belongs to another RDMA device than " +
                    device.name() + ": name that device, or an address on " + device.name() + "'s interface");
            }
            // DiSNI creates a completion queue only with a completion channel; the path polls and never waits on it.
            return new DisniDevice(channel, anchor, verbs.allocPd(), verbs.createCompChannel());
        }
        catch (final IOException ex)
        {
            DisniSupport.quietly(anchor, channel);
            throw new TransportException("cannot open " + device.name() + " through DiSNI: " + ex.getMessage(), ex);
        }
        catch (final RuntimeException ex)
        {
            DisniSupport.quietly(anchor, channel);
            throw ex;
        }
    }

    private static boolean bind(final RdmaCmId id, final String local) throws IOException
    {
        try
        {
            id.bindAddr(new InetSocketAddress(InetAddress.getByName(local), 0));
            return null != id.getVerbs();
        }
        catch (final IOException ex)
        {
            // EADDRNOTAVAIL: not an address of this host (a consumer's control host is the publisher's).
            return false;
        }
    }

    IbvPd pd()
    {
        return pd;
    }

    IbvCompChannel completions()
    {
        return completions;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            completions.destroyCompChannel();
        }
        catch (final Exception ignore)
        {
            // Teardown: what is left goes with the process.
        }
        try
        {
            pd.deallocPd();
        }
        catch (final Exception ignore)
        {
            // Teardown: what is left goes with the process.
        }
        DisniSupport.quietly(anchor, channel);
    }
}
