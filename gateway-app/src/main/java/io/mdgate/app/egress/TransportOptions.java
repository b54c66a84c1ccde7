package io.mdgate.app.egress;

import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;

/**
 * The options that choose and set up the egress transport, shared by {@code publish} and {@code consume}.
 * Not thread-safe; used once per command.
 */
public final class TransportOptions
{
    @Option(names = "--transport", paramLabel = "NAME", defaultValue = "shm",
        description = "Egress transport: shm (this host; default). verbs arrives with the RDMA transport.")
    String transport;

    @Option(names = "--shm-dir", paramLabel = "DIR", defaultValue = "/dev/shm",
        description = "Directory of the shm files and control socket (default ${DEFAULT-VALUE}).")
    Path shmDirectory;

    @Option(names = "--shm-instance", paramLabel = "NAME", defaultValue = "mdgate",
        description = "Name of the publisher's shm instance; prefixes its files (default ${DEFAULT-VALUE}).")
    String shmInstance;

    @Option(names = "--shm-group", paramLabel = "GROUP",
        description = "Group given read-write access to the shm files (others never have any).")
    String shmGroup;

    @Option(names = "--mtu", paramLabel = "BYTES", defaultValue = "4096",
        description = "Largest multicast datagram, set by the publisher (default ${DEFAULT-VALUE}).")
    int mtu;

    /**
     * @return the transport, ready for use.
     * @throws ParameterException when the options are wrong, saying what would be right.
     */
    EgressTransport open(final CommandSpec spec)
    {
        if ("verbs".equals(transport))
        {
            throw new ParameterException(spec.commandLine(), "--transport verbs is not available in this build " +
                "(it arrives with the RDMA verbs transport); use --transport shm on this host");
        }
        if (!"shm".equals(transport))
        {
            throw new ParameterException(spec.commandLine(), "--transport must be shm (or, later, verbs), was '" +
                transport + "'");
        }
        final ShmContext context = new ShmContext().directory(shmDirectory).instance(shmInstance)
            .group(shmGroup).mtu(mtu);
        try
        {
            context.conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        return new ShmTransport(context);
    }
}
