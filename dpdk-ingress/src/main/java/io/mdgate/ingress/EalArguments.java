package io.mdgate.ingress;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The EAL command line a {@link DpdkIngress.Context} stands for, in the forms that work on Debian's DPDK 22.11:
 * <pre>
 *   mdgate -l LCORES -m MB --no-huge --no-shconf          --no-telemetry --no-pci        [extra...]
 *   mdgate -l LCORES -m MB --huge-dir DIR --in-memory     --no-telemetry -a PCI-ADDRESS  [extra...]
 * </pre>
 * ({@code --no-huge} cannot be combined with {@code --in-memory}; both forms keep no files shared with other DPDK
 * processes, so parallel runs never collide.) A virtual device is not on the EAL line: it is hot-plugged when its
 * port opens, so a mistyped device fails that port instead of EAL, which cannot start twice in a process.
 * A PCI device must be probed by EAL itself, so it goes on the allow-list ({@code -a}). Stateless.
 */
final class EalArguments
{
    /** A PCI address, with or without its domain: {@code 0000:03:00.0} or {@code 03:00.0}. */
    static final Pattern PCI_ADDRESS = Pattern.compile("([0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");

    private EalArguments()
    {
    }

    /**
     * The highest CPU the kernel has online, from {@code /sys/devices/system/cpu/online} (e.g. {@code 0-1}), not
     * from {@link Runtime#availableProcessors()}: that follows the calling thread's affinity, and every thread
     * started by a thread EAL pinned is pinned too.
     *
     * @return the last online CPU.
     */
    static int lastOnlineCpu()
    {
        try
        {
            final String online = new String(
                Files.readAllBytes(Path.of("/sys/devices/system/cpu/online")), StandardCharsets.US_ASCII).trim();
            final String last = online.substring(Math.max(online.lastIndexOf(','), online.lastIndexOf('-')) + 1);
            return Integer.parseInt(last);
        }
        catch (final IOException | RuntimeException ex)
        {
            return Runtime.getRuntime().availableProcessors() - 1;
        }
    }

    /** @return the arguments for {@code rte_eal_init}, program name first. */
    static String[] of(final DpdkIngress.Context context)
    {
        final List<String> args = new ArrayList<>();
        args.add("mdgate");
        args.add("-l");
        args.add(context.lcores());
        args.add("-m");
        args.add(Integer.toString(context.memoryMegabytes()));
        if (context.hugeDir() == null)
        {
            args.add("--no-huge");
            args.add("--no-shconf");
        }
        else
        {
            args.add("--huge-dir");
            args.add(context.hugeDir().toString());
            args.add("--in-memory");
        }
        args.add("--no-telemetry");
        if (isPci(context.deviceName()))
        {
            args.add("-a");
            args.add(context.device());
        }
        else
        {
            args.add("--no-pci");
        }
        args.addAll(context.extraEalArguments());
        return args.toArray(new String[0]);
    }

    /** @param deviceName a port's device name. @return true for a PCI address, false for a virtual device. */
    static boolean isPci(final String deviceName)
    {
        return PCI_ADDRESS.matcher(deviceName).matches();
    }

    /**
     * @param lcores an EAL core list: {@code 3}, {@code 1-3} or {@code 1,3}.
     * @return its first CPU, which EAL makes the main lcore, or -1 for other forms (such as {@code (0-1)@2}).
     */
    static int firstCpu(final String lcores)
    {
        int end = 0;
        while (end < lcores.length() && Character.isDigit(lcores.charAt(end)))
        {
            end++;
        }
        final boolean simple = end > 0 && end <= 4 &&
            (end == lcores.length() || lcores.charAt(end) == ',' || lcores.charAt(end) == '-');
        return simple ? Integer.parseInt(lcores.substring(0, end)) : -1;
    }
}
