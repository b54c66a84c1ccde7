package io.mdgate.egress.transport.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A hugetlbfs mount of 2 MiB pages in a temporary directory for a test, with enough pages reserved: raises
 * {@code /proc/sys/vm/nr_hugepages} when it is too low and puts it back on close, then unmounts. Only root can do
 * this, so a test using it is tagged {@code hugepages} and skipped (said so) when not root; as root, anything that
 * does not work fails the test.
 */
public final class Hugetlbfs implements AutoCloseable
{
    private static final Path NR_HUGEPAGES = Path.of("/proc/sys/vm/nr_hugepages");
    private static final Path FREE = Path.of("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages");

    private final Path mountPoint;
    private final long previousPages;
    private boolean mounted;

    private Hugetlbfs(final Path mountPoint, final long previousPages)
    {
        this.mountPoint = mountPoint;
        this.previousPages = previousPages;
    }

    /**
     * @param pages   2 MiB pages that must be free.
     * @param options extra mount options (e.g. {@code size=4M}), or empty.
     */
    public static Hugetlbfs mount(final long pages, final String options) throws IOException, InterruptedException
    {
        assumeTrue(isRoot(), "reserving hugepages and mounting hugetlbfs need root");
        final long previous = readLong(NR_HUGEPAGES);
        final long free = readLong(FREE);
        if (free < pages)
        {
            Files.writeString(NR_HUGEPAGES, Long.toString(previous + pages - free));
        }
        final Hugetlbfs mount = new Hugetlbfs(Files.createTempDirectory("mdgate-huge"), previous);
        try
        {
            assertTrue(readLong(FREE) >= pages, "the kernel gave only " + readLong(FREE) + " free 2 MiB pages of " +
                pages + " asked for (memory too fragmented?)");
            final String all = "pagesize=2M" + (options.isEmpty() ? "" : "," + options);
            assertEquals(0, run("mount", "-t", "hugetlbfs", "-o", all, "none", mount.mountPoint.toString()),
                "mount -t hugetlbfs failed");
            mount.mounted = true;
        }
        catch (final RuntimeException | Error ex)
        {
            mount.close();
            throw ex;
        }
        return mount;
    }

    public Path directory()
    {
        return mountPoint;
    }

    /** @return free 2 MiB pages now. */
    public static long freePages() throws IOException
    {
        return readLong(FREE);
    }

    /** @return whether {@code file} is on a hugetlbfs mount, by the kernel's mount table. */
    public static boolean onHugetlbfs(final Path file) throws IOException
    {
        return "hugetlbfs".equals(Files.getFileStore(file).type());
    }

    /** Unmounts (the caller has unmapped every file first), then puts the reserved page count back. */
    @Override
    public void close()
    {
        int umount = 0;
        try
        {
            if (mounted)
            {
                mounted = false;
                umount = run("umount", mountPoint.toString());
            }
            if (0 == umount)
            {
                Files.deleteIfExists(mountPoint);
            }
        }
        catch (final IOException | InterruptedException ex)
        {
            throw new IllegalStateException("cannot unmount " + mountPoint, ex);
        }
        finally
        {
            restorePages();
        }
        assertEquals(0, umount, "umount " + mountPoint + " failed: a file on it is still mapped");
    }

    private void restorePages()
    {
        try
        {
            Files.writeString(NR_HUGEPAGES, Long.toString(previousPages));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot put " + NR_HUGEPAGES + " back to " + previousPages, ex);
        }
    }

    private static boolean isRoot()
    {
        try
        {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private static long readLong(final Path file) throws IOException
    {
        return Long.parseLong(Files.readString(file).trim());
    }

    private static int run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(List.of(command)).inheritIO().start();
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }
}
