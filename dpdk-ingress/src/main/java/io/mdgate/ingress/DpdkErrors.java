package io.mdgate.ingress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Start-up error messages that say what is missing and what would fix it, quoting DPDK's own log where it said
 * more. Stateless; start-up only.
 */
final class DpdkErrors
{
    private static final int EPERM = 1;
    private static final int ENOENT = 2;
    private static final int EACCES = 13;
    private static final int EBUSY = 16;
    private static final int ENODEV = 19;
    private static final int EEXIST = 17;
    private static final int ENOMEM = 12;
    private static final int ENETDOWN = 100;
    private static final int EALREADY = 114;
    private static final int MAX_LOG_LINES = 12;

    private DpdkErrors()
    {
    }

    /**
     * @param what    what failed, e.g. {@code "DPDK EAL did not start"}.
     * @param result  the native -errno.
     * @param log     DPDK's log of the attempt (may be empty).
     * @param remedy  what would fix it, or null.
     * @return one message: {@code what (errno text, -n): remedy; DPDK said: ...}.
     */
    static String message(final String what, final int result, final String log, final String remedy)
    {
        final StringBuilder sb = new StringBuilder(what).append(" (").append(errorText(-result))
            .append(", ").append(result).append(')');
        if (remedy != null)
        {
            sb.append(": ").append(remedy);
        }
        final String quoted = lastLines(log);
        if (!quoted.isEmpty())
        {
            sb.append("; DPDK said: ").append(quoted);
        }
        return sb.toString();
    }

    /**
     * @param log DPDK's log of a failed EAL start.
     * @return whether EAL refused its command line (an option it does not know or a malformed value), which
     * EAL's argument parser says in these words before anything else is tried.
     */
    static boolean refusedArguments(final String log)
    {
        return null != log && log.contains("Invalid 'command line' arguments");
    }

    /** @return what would fix a failed EAL start, from the errno and the process's privileges. */
    static String ealRemedy(final int result, final DpdkIngress.Context context)
    {
        if (!isRoot())
        {
            return "run as root (DPDK needs to lock memory, use /dev/hugepages or /dev/vfio and open raw sockets)";
        }
        if (-result == EALREADY)
        {
            return "EAL was already started (or tried) by other code in this process; it starts once per process";
        }
        if (-result == ENOMEM && context.hugeDir() != null)
        {
            return "reserve hugepages (echo 512 > /proc/sys/vm/nr_hugepages) and mount hugetlbfs on " +
                context.hugeDir() + ", or use --no-huge";
        }
        if (-result == ENOMEM)
        {
            return "give EAL less memory (-m) or free some";
        }
        return "check the EAL options (lcores " + context.lcores() + ", memory " + context.memoryMegabytes() + " MB)";
    }

    /** @return what would fix a port that did not open or start. */
    static String portRemedy(final int result, final DpdkIngress.Context context, final String ports)
    {
        final String device = context.deviceName();
        switch (-result)
        {
            case ENODEV:
            case ENOENT:
                return "no port '" + device + "' after probing '" + context.device() + "' (ports now: " +
                    (ports.isEmpty() ? "none" : ports) + "); check the device name and its arguments" +
                    (isRoot() ? "" : ", and run as root");
            case EBUSY:
            case EEXIST:
                return "port '" + device + "' is already open in this process; close the other ingress first";
            case EPERM:
            case EACCES:
                return "permission denied: run as root (af_packet and af_xdp need CAP_NET_RAW and CAP_NET_ADMIN)";
            case ENETDOWN:
                return "the link of '" + device + "' stayed down for " + context.linkTimeoutMillis() +
                    " ms; bring the interface or cable up, or raise the link timeout";
            case ENOMEM:
                return "not enough memory for " + context.mbufs() + " mbufs; raise -m (now " +
                    context.memoryMegabytes() + " MB) or lower the mbuf count";
            default:
                return isRoot() ? "check the device arguments '" + context.device() + "'" :
                    "run as root (DPDK ports need raw network and memory access)";
        }
    }

    static String errorText(final int errnum)
    {
        return DpdkNative.isAvailable() ? DpdkNative.errorText(errnum) : "errno " + errnum;
    }

    /** @return true when this process runs as root (the owner of /proc/self is the effective user). */
    static boolean isRoot()
    {
        try
        {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        }
        catch (final IOException | UnsupportedOperationException | IllegalArgumentException ex)
        {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private static String lastLines(final String log)
    {
        if (log == null || log.isBlank())
        {
            return "";
        }
        final String[] lines = log.strip().split("\\R");
        final int from = Math.max(0, lines.length - MAX_LOG_LINES);
        final StringBuilder sb = new StringBuilder();
        for (int i = from; i < lines.length; i++)
        {
            sb.append(i == from ? "" : " | ").append(lines[i].strip());
        }
        return sb.toString();
    }
}
