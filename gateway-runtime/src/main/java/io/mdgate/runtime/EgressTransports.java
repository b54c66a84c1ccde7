package io.mdgate.runtime;

import io.mdgate.runtime.config.GatewayConfig;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import io.mdgate.egress.transport.verbs.VerbsContext;
import io.mdgate.egress.transport.verbs.VerbsTransport;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.function.Consumer;

/** Opens the egress transport the configuration names. Start-up only. */
final class EgressTransports
{
    private EgressTransports()
    {
    }

    /**
     * @return the open transport.
     * @throws IllegalStateException when it cannot be opened, saying why and what would work.
     */
    static EgressTransport open(final GatewayConfig.Egress egress, final AtomicCounter hugepageFallbacks,
        final Consumer<String> warnings)
    {
        if (egress.transport() == GatewayConfig.Transport.VERBS)
        {
            return openVerbs(egress, hugepageFallbacks, warnings);
        }
        final ShmContext context = new ShmContext().directory(egress.shmDir()).instance(egress.instance())
            .group(egress.shmGroup().isEmpty() ? null : egress.shmGroup()).mtu(egress.mtu())
            .hugepages(egress.hugepages()).hugepageDirectory(egress.hugepageDir())
            .hugepageFallbackCounter(hugepageFallbacks)
            .eventLog(message -> warnings.accept("mdgate run: egress: " + message));
        try
        {
            return new ShmTransport(context.conclude());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("[egress]: " + ex.getMessage(), ex);
        }
    }

    private static EgressTransport openVerbs(final GatewayConfig.Egress egress, final AtomicCounter hugepageFallbacks,
        final Consumer<String> warnings)
    {
        if (egress.rdmaAddress().isEmpty())
        {
            throw new IllegalStateException("[egress] transport = \"verbs\" needs rdma_address = \"IPV4:PORT\", the " +
                "address on the RDMA device's interface where consumers connect");
        }
        final VerbsContext context = new VerbsContext()
            .device(egress.rdmaDevice().isEmpty() ? null : egress.rdmaDevice())
            .controlAddress(egress.rdmaAddress())
            .mtu(egress.mtu())
            .rc(egress.rdmaRc())
            .hugepages(egress.hugepages())
            .hugepageFallbackCounter(hugepageFallbacks);
        try
        {
            return new VerbsTransport(context, message -> warnings.accept("mdgate run: egress: verbs: " + message));
        }
        catch (final IllegalArgumentException | TransportException ex)
        {
            throw new IllegalStateException("[egress] transport = \"verbs\": " + ex.getMessage(), ex);
        }
    }
}
