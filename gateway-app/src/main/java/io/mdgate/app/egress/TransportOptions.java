package io.mdgate.app.egress;

import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import io.mdgate.egress.transport.verbs.VerbsContext;
import io.mdgate.egress.transport.verbs.VerbsTransport;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The options that choose and set up the egress transport, shared by {@code publish} and {@code consume}.
 * Not thread-safe; used once per command.
 */
public final class TransportOptions
{
    @Option(names = "--transport", paramLabel = "NAME", defaultValue = "shm",
        description = "Egress transport: shm (this host; default) or verbs (RDMA: RC control and ring writes, UD " +
            "multicast stream).")
    String transport;

    @Option(names = "--rdma-device", paramLabel = "NAME",
        description = "verbs: RDMA device, e.g. rxe0 or mlx5_0 (default: the first one).")
    String rdmaDevice;

    @Option(names = "--rdma-address", paramLabel = "IPV4:PORT",
        description = "verbs: the publisher's RDMA-CM control address on the device's interface; publish listens " +
            "there, consume connects there.")
    String rdmaAddress;

    @Option(names = "--rdma-group", paramLabel = "IPV4", defaultValue = VerbsContext.DEFAULT_MULTICAST_GROUP,
        description = "verbs: base multicast group; stream N uses base + N (default ${DEFAULT-VALUE}).")
    String rdmaGroup;

    @Option(names = "--rdma-local", paramLabel = "IPV4",
        description = "verbs: local address that joins the group (default: the control address for publish, the " +
            "local end of the control connection for consume).")
    String rdmaLocal;

    @Option(names = "--rdma-rc", paramLabel = "LIBRARY", defaultValue = "disni",
        description = "verbs: the library of the RC path (control connection, ring and table writes): disni " +
            "(default) or native (the project's own); the multicast stream always uses the project's own.")
    String rdmaRc;

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
     * @throws io.mdgate.egress.transport.TransportException when the verbs transport cannot run here (no RDMA
     *         device, ...), saying what to do.
     */
    EgressTransport open(final CommandSpec spec)
    {
        if ("verbs".equals(transport))
        {
            return openVerbs(spec);
        }
        if (!"shm".equals(transport))
        {
            throw new ParameterException(spec.commandLine(), "--transport must be shm or verbs, was '" +
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

    private EgressTransport openVerbs(final CommandSpec spec)
    {
        try
        {
            final VerbsContext context = new VerbsContext().device(rdmaDevice).controlAddress(rdmaAddress)
                .multicastGroup(rdmaGroup).localAddress(rdmaLocal).mtu(mtu).rc(VerbsContext.Rc.of(rdmaRc));
            return new VerbsTransport(context);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    /**
     * Opens the transport, or says on the command's standard error why it cannot (no RDMA device, no permission,
     * ...), named after the command: {@code mdgate consume: no RDMA device: ...}.
     *
     * @return the transport, or null when it could not be opened (the reason printed; the command exits 1).
     * @throws ParameterException when the options are wrong, saying what would be right.
     */
    EgressTransport openOrSayWhy(final CommandSpec spec)
    {
        try
        {
            return open(spec);
        }
        catch (final TransportException ex)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("mdgate " + spec.name() + ": " + ex.getMessage());
            err.flush();
            return null;
        }
    }
}
