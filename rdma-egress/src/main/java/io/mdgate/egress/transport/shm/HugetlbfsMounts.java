package io.mdgate.egress.transport.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds a hugetlbfs mount of 2 MiB pages for the {@code shm} transport's files, or says why there is none: reads the
 * mount table ({@code /proc/mounts}) and the count of free 2 MiB pages
 * ({@code /sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages}). Both paths are parameters so that a test can
 * give a host without hugepages. Set-up code; immutable.
 */
final class HugetlbfsMounts
{
    static final Path PROC_MOUNTS = Path.of("/proc/mounts");
    static final Path FREE_PAGES = Path.of("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages");

    private final Path mounts;
    private final Path freePages;

    HugetlbfsMounts(final Path mounts, final Path freePages)
    {
        this.mounts = mounts;
        this.freePages = freePages;
    }

    /** What {@link #find} decided: a directory on 2 MiB pages, or null and why not. */
    record Choice(Path directory, String problem)
    {
    }

    /**
     * @param configured a directory to use, or null to take the first 2 MiB hugetlbfs mount of the table.
     * @return the directory, or why there is none (with what to do about it).
     */
    Choice find(final Path configured)
    {
        final Path directory;
        if (null != configured)
        {
            if (!isHugetlbfs(configured))
            {
                return new Choice(null, configured + " is not on a hugetlbfs mount of 2 MiB pages");
            }
            directory = configured;
        }
        else
        {
            directory = firstMount();
            if (null == directory)
            {
                return new Choice(null, "no hugetlbfs of 2 MiB pages is mounted (" + mounts + ")");
            }
        }
        if (!Files.isDirectory(directory) || !Files.isWritable(directory))
        {
            return new Choice(null, "the hugetlbfs mount " + directory + " is not a directory this user can write");
        }
        final long free = freePages();
        if (free < 1)
        {
            return new Choice(null, "no 2 MiB hugepages are free (" + freePages + ": " + free + ")");
        }
        return new Choice(directory, null);
    }

    /** @return whether {@code directory} is inside a hugetlbfs mount of 2 MiB pages, by the longest mount point. */
    boolean isHugetlbfs(final Path directory)
    {
        final Path real;
        try
        {
            real = directory.toRealPath();
        }
        catch (final IOException ex)
        {
            return false;
        }
        String bestType = null;
        String bestOptions = "";
        int bestLength = -1;
        for (final String line : lines())
        {
            final String[] fields = line.split(" ");
            if (fields.length >= 4)
            {
                final Path point = Path.of(unescape(fields[1]));
                if (real.startsWith(point) && point.getNameCount() > bestLength)
                {
                    bestLength = point.getNameCount();
                    bestType = fields[2];
                    bestOptions = fields[3];
                }
            }
        }
        return "hugetlbfs".equals(bestType) && twoMegabytePages(bestOptions);
    }

    private Path firstMount()
    {
        for (final String line : lines())
        {
            final String[] fields = line.split(" ");
            if (fields.length >= 4 && "hugetlbfs".equals(fields[2]) && twoMegabytePages(fields[3]))
            {
                return Path.of(unescape(fields[1]));
            }
        }
        return null;
    }

    private static boolean twoMegabytePages(final String options)
    {
        for (final String option : options.split(","))
        {
            if (option.startsWith("pagesize="))
            {
                return option.equals("pagesize=2M") || option.equals("pagesize=2048k");
            }
        }
        return true; // without the option a mount has the default size, 2 MiB on the hosts this runs on
    }

    private long freePages()
    {
        try
        {
            return Long.parseLong(Files.readString(freePages).trim());
        }
        catch (final IOException | NumberFormatException ex)
        {
            return 0;
        }
    }

    private List<String> lines()
    {
        try
        {
            return Files.readAllLines(mounts);
        }
        catch (final IOException ex)
        {
            return List.of();
        }
    }

    /** The mount table escapes space, tab, newline and backslash as octal. */
    private static String unescape(final String field)
    {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }
}
