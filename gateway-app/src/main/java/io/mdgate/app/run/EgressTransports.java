package io.mdgate.app.run;

import io.mdgate.app.config.GatewayConfig;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;

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
    static EgressTransport open(final GatewayConfig.Egress egress)
    {
        if (egress.transport() != GatewayConfig.Transport.SHM)
        {
            throw new IllegalStateException("[egress] transport = \"" + egress.transport().label() + "\" is not " +
                "available to run in this build; use transport = \"shm\" for consumers on this host");
        }
        final ShmContext context = new ShmContext().directory(egress.shmDir()).instance(egress.instance())
            .group(egress.shmGroup().isEmpty() ? null : egress.shmGroup()).mtu(egress.mtu());
        try
        {
            return new ShmTransport(context.conclude());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("[egress]: " + ex.getMessage(), ex);
        }
    }
}
