package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Hugepages asked for on a host that has none (a mount table without hugetlbfs, or a configured directory that is
 * not one): AUTO puts the files on regular pages, counts it and warns once, saying how to fix it; REQUIRED refuses
 * in one line. Needs no root.
 */
class ShmHugepageFallbackTest
{
    @TempDir
    Path temp;
    private final List<String> warnings = new ArrayList<>();
    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[8 * 1024]));
    private final AtomicCounter fallbacks = counters.newCounter("egress.hugepage_fallbacks");
    private ShmContext context;
    private ShmTransport transport;

    @AfterEach
    void tearDown()
    {
        if (null != transport)
        {
            transport.close();
        }
        if (null != context)
        {
            ShmInstance.removeFiles(context);
        }
    }

    private ShmContext context(final HugepageMode mode, final String mounts) throws IOException
    {
        final Path table = temp.resolve("mounts");
        Files.writeString(table, mounts);
        context = ShmInstance.context(ShmInstance.unique()).hugepages(mode).mountsFile(table)
            .hugepageFallbackCounter(fallbacks).eventLog(warnings::add);
        return context;
    }

    @Test
    void shouldPutFilesOnRegularPagesCountedAndWarnedOnceWhenNoHugetlbfsIsMounted() throws IOException
    {
        transport = new ShmTransport(context(HugepageMode.AUTO,
            "tmpfs /dev/shm tmpfs rw 0 0\nhugetlbfs /mnt/huge1g hugetlbfs rw,pagesize=1024M 0 0\n"));
        final MemoryRegion first = transport.registerRegion(4096, RegionAccess.REMOTE_WRITE);
        transport.registerRegion(4096, RegionAccess.REMOTE_WRITE);
        transport.addPublication(3);

        assertNull(transport.hugepageDirectory());
        assertEquals(1, transport.hugepageFallbacks());
        assertEquals(1, fallbacks.get());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("no hugetlbfs of 2 MiB pages is mounted"), warnings.get(0));
        assertTrue(warnings.get(0).contains("deploy/tune-host.sh --hugepages N --apply"), warnings.get(0));
        assertFalse(warnings.get(0).contains("\n"), warnings.get(0));
        assertEquals(4096 + 4096, Files.size(((ShmRegion)first).file()), "regular pages: no rounding to 2 MiB");
        assertEquals(context.directory(), ((ShmRegion)first).file().getParent());
        assertTrue(Files.exists(new ShmNames(context.directory(), context.instance()).streamFile(3)));
    }

    @Test
    void shouldFallBackWhenTheConfiguredDirectoryIsNotOnHugetlbfs() throws IOException
    {
        final Path plain = Files.createDirectory(temp.resolve("plain"));
        transport = new ShmTransport(context(HugepageMode.AUTO, "tmpfs / tmpfs rw 0 0\n").hugepageDirectory(plain));

        assertEquals(1, fallbacks.get());
        assertTrue(warnings.get(0).contains(plain + " is not on a hugetlbfs mount of 2 MiB pages"), warnings.get(0));
    }

    @Test
    void shouldRefuseToStartInOneLineWhenHugepagesAreRequiredAndThereAreNone() throws IOException
    {
        final ShmContext required = context(HugepageMode.REQUIRED, "tmpfs /dev/shm tmpfs rw 0 0\n");

        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> transport = new ShmTransport(required));
        assertTrue(refused.getMessage().startsWith("hugepages = \"required\" but no hugetlbfs of 2 MiB pages is " +
            "mounted"), refused.getMessage());
        assertTrue(refused.getMessage().contains("deploy/tune-host.sh --hugepages N --apply"), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"));
        assertEquals(0, ShmInstance.countFiles(required), "nothing created");
    }

    @Test
    void shouldLeaveEverythingAsBeforeWhenHugepagesAreOff() throws IOException
    {
        transport = new ShmTransport(context(HugepageMode.OFF, ""));
        transport.addPublication(4);

        assertEquals(0, fallbacks.get());
        assertTrue(warnings.isEmpty(), warnings.toString());
        assertNull(transport.hugepageDirectory());
    }

    @Test
    void shouldChooseTheMountWithTheLongestPrefixAndOnlyTwoMegabytePages() throws IOException
    {
        final Path inner = Files.createDirectories(temp.resolve("outer/inner"));
        final Path table = temp.resolve("table");
        Files.writeString(table, "tmpfs / tmpfs rw 0 0\nhugetlbfs " + temp.resolve("outer") +
            " hugetlbfs rw,pagesize=2M 0 0\ntmpfs " + inner + " tmpfs rw 0 0\n");
        final HugetlbfsMounts mounts = new HugetlbfsMounts(table, HugetlbfsMounts.FREE_PAGES);

        assertTrue(mounts.isHugetlbfs(temp.resolve("outer")));
        assertFalse(mounts.isHugetlbfs(inner), "a tmpfs mounted inside the hugetlbfs");
        Files.writeString(table, "hugetlbfs " + temp.resolve("outer") + " hugetlbfs rw,pagesize=1024M 0 0\n");
        assertFalse(mounts.isHugetlbfs(temp.resolve("outer")), "1 GiB pages");
    }
}
