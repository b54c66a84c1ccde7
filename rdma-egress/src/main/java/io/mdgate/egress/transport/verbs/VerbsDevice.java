package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.TransportException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * An opened RDMA device: the verbs context librdmacm uses for it and one protection domain that every region,
 * queue pair and address handle of the transport belongs to. Opening checks, in this order, that the library
 * loads, that there is an RDMA device at all, that the named one exists, that the locked-memory limit allows
 * registering memory, and that its port is active; each failure is a {@link TransportException} saying which and
 * what to do. Threading: opened and closed on one thread.
 */
final class VerbsDevice implements AutoCloseable
{
    /** What to do without an RDMA device; also shown by the CLI. */
    static final String HOW_TO_GET_ONE = "get one with Soft-RoCE: as root on a kernel with rdma_rxe, " +
        "`modprobe rdma_rxe; rdma link add rxe0 type rxe netdev IFACE`; or run the verbs tests and benchmark in " +
        "the Soft-RoCE guest with `make test-softroce`";

    private static final int PORT_ACTIVE = 4;
    private static final int CAP_IPC_LOCK = 14;

    private final long handle;
    private final String name;
    private final int activeMtu;
    private boolean closed;

    private VerbsDevice(final long handle, final String name, final int activeMtu)
    {
        this.handle = handle;
        this.name = name;
        this.activeMtu = activeMtu;
    }

    static VerbsDevice open(final String wanted, final int port, final long minimumMemlockBytes)
    {
        if (!VerbsNative.isAvailable())
        {
            throw new TransportException("the verbs transport cannot run: " +
                VerbsNative.unavailabilityCause().getMessage(), VerbsNative.unavailabilityCause());
        }
        final String listed = VerbsNative.devices0();
        if (null == listed)
        {
            throw new TransportException("no RDMA device: this kernel offers no RDMA (" + VerbsNative.lastError() +
                "); " + HOW_TO_GET_ONE);
        }
        if (listed.isEmpty())
        {
            throw new TransportException("no RDMA device on this host (none under /sys/class/infiniband); " +
                HOW_TO_GET_ONE);
        }
        final List<String> devices = Arrays.asList(listed.split(","));
        final String name = null == wanted || wanted.isEmpty() ? devices.get(0) : wanted;
        if (!devices.contains(name))
        {
            throw new TransportException("no RDMA device named " + name + " (there are: " + listed +
                "); choose one with --rdma-device");
        }
        checkMemlock(minimumMemlockBytes);
        final int[] info = new int[4];
        final long handle = VerbsNative.deviceOpen0(name, port, info);
        if (handle < 0)
        {
            final int errno = (int)-handle;
            final String hint = errno == VerbsNative.EACCES || errno == VerbsNative.EPERM ?
                ": no permission to use the device; run as root or as a member of the group owning " +
                "/dev/infiniband/uverbs* (often 'rdma')" : "";
            throw new TransportException("cannot open RDMA device " + name + ": " + VerbsResults.describe(handle) +
                hint);
        }
        final VerbsDevice device = new VerbsDevice(handle, name, info[0]);
        if (info[1] != PORT_ACTIVE)
        {
            device.close();
            throw new TransportException("port " + port + " of RDMA device " + name + " is not active (state " +
                info[1] + "): check `rdma link` and that its network interface is up");
        }
        return device;
    }

    private static void checkMemlock(final long minimum)
    {
        final long limit = VerbsNative.memlockLimit0();
        if (limit >= 0 && limit < minimum && !mayLockMemory())
        {
            throw new TransportException("the locked-memory limit is " + (limit >> 10) + " KiB but the verbs " +
                "transport registers (locks) up to " + (minimum >> 20) + " MiB: raise it with `ulimit -l unlimited` " +
                "(or LimitMEMLOCK=infinity in the systemd unit, or memlock in /etc/security/limits.conf)");
        }
    }

    /** CAP_IPC_LOCK lets a process lock memory beyond RLIMIT_MEMLOCK (root has it). */
    private static boolean mayLockMemory()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("CapEff:"))
                {
                    final long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                    return (caps & (1L << CAP_IPC_LOCK)) != 0;
                }
            }
        }
        catch (final IOException | NumberFormatException ex)
        {
            return false;
        }
        return false;
    }

    long handle()
    {
        return handle;
    }

    String name()
    {
        return name;
    }

    /** @return the port's active MTU in bytes: the largest UD datagram. */
    int activeMtu()
    {
        return activeMtu;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            VerbsNative.deviceClose0(handle);
        }
    }
}
