package io.mdgate.runtime.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Reads the small text files of /sys and /proc under a root directory: {@code /} on a host, a directory laid out
 * the same way in tests. A file that is absent or unreadable reads as empty, since what the kernel exposes varies
 * (no NUMA, no nohz_full, containers). Immutable and thread-safe.
 */
public final class SysFs
{
    private final Path root;

    /**
     * @param root the directory standing for {@code /}.
     */
    public SysFs(final Path root)
    {
        this.root = root;
    }

    /**
     * @return the directory standing for {@code /}.
     */
    public Path root()
    {
        return root;
    }

    /**
     * @param absolute a path such as {@code /sys/devices/system/cpu/online}.
     * @return that path under the root.
     */
    public Path resolve(final String absolute)
    {
        return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
    }

    /**
     * @param absolute a path such as {@code /sys/devices/system/cpu/online}.
     * @return the file's content, trimmed, or empty when it cannot be read.
     */
    public Optional<String> read(final String absolute)
    {
        try
        {
            return Optional.of(Files.readString(resolve(absolute), StandardCharsets.US_ASCII).trim());
        }
        catch (final IOException | RuntimeException ex)
        {
            return Optional.empty();
        }
    }

    /**
     * @param absolute a file holding one whole number.
     * @return it, or empty when absent or not a number.
     */
    public OptionalLong readLong(final String absolute)
    {
        final Optional<String> text = read(absolute);
        if (text.isEmpty())
        {
            return OptionalLong.empty();
        }
        try
        {
            return OptionalLong.of(Long.parseLong(text.get()));
        }
        catch (final NumberFormatException ex)
        {
            return OptionalLong.empty();
        }
    }

    /**
     * @param absolute a file holding a CPU list such as {@code 0-3,8,10-11}.
     * @return the CPUs, empty when the file is absent, empty or says {@code (null)}.
     */
    public SortedSet<Integer> readCpuList(final String absolute)
    {
        return read(absolute).map(SysFs::parseCpuList).orElseGet(TreeSet::new);
    }

    /**
     * @param text a CPU list such as {@code 0-3,8,10-11}, as the kernel writes and {@code isolcpus=} takes.
     * @return the CPUs; flags such as {@code domain} or {@code managed_irq} and anything unreadable are skipped.
     */
    public static SortedSet<Integer> parseCpuList(final String text)
    {
        final SortedSet<Integer> cpus = new TreeSet<>();
        for (final String part : text.trim().split(","))
        {
            final String range = part.trim();
            if (range.isEmpty() || !Character.isDigit(range.charAt(0)))
            {
                continue;
            }
            try
            {
                final int dash = range.indexOf('-');
                final int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                final int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
                for (int cpu = first; cpu <= last && cpu < 65536; cpu++)
                {
                    cpus.add(cpu);
                }
            }
            catch (final NumberFormatException ex)
            {
                continue;
            }
        }
        return cpus;
    }

    /**
     * @param cpus a set of CPUs.
     * @return it as a CPU list with ranges, e.g. {@code 0-3,8}; empty for none.
     */
    public static String formatCpuList(final SortedSet<Integer> cpus)
    {
        final StringBuilder text = new StringBuilder();
        Integer first = null;
        Integer last = null;
        for (final Integer cpu : cpus)
        {
            if (null != last && cpu == last + 1)
            {
                last = cpu;
                continue;
            }
            appendRange(text, first, last);
            first = cpu;
            last = cpu;
        }
        appendRange(text, first, last);
        return text.toString();
    }

    private static void appendRange(final StringBuilder text, final Integer first, final Integer last)
    {
        if (null == first)
        {
            return;
        }
        if (text.length() > 0)
        {
            text.append(',');
        }
        text.append(first);
        if (!first.equals(last))
        {
            text.append('-').append(last);
        }
    }
}
