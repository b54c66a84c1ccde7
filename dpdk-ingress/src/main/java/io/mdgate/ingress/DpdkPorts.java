package io.mdgate.ingress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Lists the DPDK ports that EAL finds for given EAL arguments (PCI devices bound to a DPDK-capable driver and
 * allowed, and every {@code --vdev}), for {@code mdgate ports}. Starts EAL in the calling process if it does not
 * run yet; EAL starts once per process, so this is for a process that does nothing else with DPDK. Thread-safe.
 */
public final class DpdkPorts
{
    private static final int INFO_SLOTS = 6;

    /**
     * One port as DPDK sees it before it is configured.
     *
     * @param id          the DPDK port id.
     * @param name        the device name, e.g. {@code 0000:3b:00.0} or {@code net_af_packet0}.
     * @param driver      the poll-mode driver, e.g. {@code net_ice}.
     * @param numaNode    the NUMA node of the device, -1 when unknown.
     * @param mac         the MAC address, {@code aa:bb:cc:dd:ee:ff}.
     * @param linkUp      whether the link is up.
     * @param speedMbps   the link speed in Mb/s, 0 when none, -1 when unknown.
     * @param maxRxQueues the most receive queues the device offers.
     */
    public record PortInfo(
        int id, String name, String driver, int numaNode, String mac, boolean linkUp, long speedMbps, int maxRxQueues)
    {
    }

    private DpdkPorts()
    {
    }

    /**
     * The full EAL command line for a listing: the program name, one lcore (the last online CPU), no telemetry, and
     * unless the arguments choose memory themselves {@code --no-huge --no-shconf -m 256}; then the arguments.
     *
     * @param ealArguments EAL arguments, e.g. {@code --vdev net_af_packet0,iface=eth1} or {@code -a 0000:3b:00.0}.
     * @return the arguments for {@code rte_eal_init}.
     */
    public static String[] ealCommandLine(final List<String> ealArguments)
    {
        final List<String> args = new ArrayList<>();
        args.add("mdgate");
        if (!ealArguments.contains("-l") && !ealArguments.contains("--lcores"))
        {
            args.add("-l");
            args.add(Integer.toString(EalArguments.lastOnlineCpu()));
        }
        args.add("--no-telemetry");
        if (ealArguments.stream().noneMatch((a) -> a.startsWith("--no-huge") || a.startsWith("--huge-dir") ||
            a.startsWith("--in-memory")))
        {
            args.add("--no-huge");
            args.add("--no-shconf");
        }
        if (!ealArguments.contains("-m"))
        {
            args.add("-m");
            args.add("256");
        }
        args.addAll(ealArguments);
        return args.toArray(new String[0]);
    }

    /**
     * @param ealArguments EAL arguments (see {@link #ealCommandLine}); ignored when EAL already runs.
     * @return every port EAL found, by id.
     * @throws IllegalArgumentException when EAL refuses its arguments (an unknown or malformed option).
     * @throws IllegalStateException saying what is missing when the library is unavailable or EAL does not start.
     */
    public static synchronized List<PortInfo> list(final List<String> ealArguments)
    {
        if (!DpdkNative.isAvailable())
        {
            throw new IllegalStateException("DPDK ports cannot be listed: lib" + DpdkNative.LIBRARY_NAME +
                ".so is not available (" + DpdkNative.unavailabilityCause().getMessage() + "); run deploy/setup.sh " +
                "as root to install DPDK 22.11, then rebuild");
        }
        final int state = DpdkNative.ealState0();
        if (state < 0)
        {
            throw new IllegalStateException(DpdkErrors.message("DPDK EAL failed earlier in this process", state,
                DpdkNative.lastLog0(), "run the command again in a new process"));
        }
        if (0 == state)
        {
            final String[] args = ealCommandLine(ealArguments);
            final int result = DpdkNative.ealInit0(args);
            if (result < 0)
            {
                final String log = DpdkNative.lastLog0();
                final String started = "DPDK EAL did not start with '" + String.join(" ", args) + "'";
                if (DpdkErrors.refusedArguments(log))
                {
                    throw new IllegalArgumentException(DpdkErrors.message(started, result, log, "give EAL " +
                        "arguments it knows (DPDK's EAL parameters, e.g. -a 0000:3b:00.0 or --vdev net_null0)"));
                }
                throw new IllegalStateException(DpdkErrors.message(started, result, log, DpdkErrors.isRoot() ?
                    "check the EAL arguments and devices" : "run as root (DPDK needs to lock memory and open devices)"));
            }
        }
        final List<PortInfo> ports = new ArrayList<>();
        final long[] info = new long[INFO_SLOTS];
        int next = 0;
        while (true)
        {
            final String names = DpdkNative.portInfo0(next, info);
            if (null == names)
            {
                return ports;
            }
            final int tab = names.indexOf('\t');
            ports.add(new PortInfo((int)info[0], tab < 0 ? names : names.substring(0, tab),
                tab < 0 ? "" : names.substring(tab + 1), (int)info[1], mac(info[2]), 1 == info[3], info[4],
                (int)info[5]));
            next = (int)info[0] + 1;
        }
    }

    static String mac(final long value)
    {
        final StringBuilder text = new StringBuilder();
        for (int shift = 40; shift >= 0; shift -= 8)
        {
            text.append(String.format(Locale.ROOT, "%02x", (value >>> shift) & 0xFF));
            if (shift > 0)
            {
                text.append(':');
            }
        }
        return text.toString();
    }
}
