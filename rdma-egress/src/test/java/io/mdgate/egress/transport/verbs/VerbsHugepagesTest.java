package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.support.Await;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import io.mdgate.egress.transport.shm.HugepageMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registered regions on 2 MiB pages (the guest, as root, reserves and gives back the pages itself): with
 * hugepages asked for, a large region takes whole hugepages of the host's free ones and an RDMA Write lands in it;
 * with none free, AUTO falls back to regular pages and counts it, REQUIRED refuses; small regions never take one.
 */
@Tag("softroce")
class VerbsHugepagesTest
{
    private static final Path RESERVED = Path.of("/proc/sys/vm/nr_hugepages");
    private static final Path FREE = Path.of("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages");
    private static final int RING = 4 << 20;

    private String reservedBefore;
    private VerbsTransport server;
    private VerbsTransport client;

    @BeforeEach
    void saveReservation() throws IOException
    {
        SoftRoce.assumeDevice();
        reservedBefore = Files.readString(RESERVED).trim();
    }

    @AfterEach
    void restore() throws IOException
    {
        if (null != client)
        {
            client.close();
        }
        if (null != server)
        {
            server.close();
        }
        if (null != reservedBefore)
        {
            Files.writeString(RESERVED, reservedBefore);
        }
    }

    private static void reserve(final int pages) throws IOException
    {
        Files.writeString(RESERVED, Integer.toString(pages));
        assertEquals(pages, free(), "the kernel reserved " + pages + " free 2 MiB pages");
    }

    private static int free() throws IOException
    {
        return Integer.parseInt(Files.readString(FREE).trim());
    }

    private void open(final HugepageMode mode)
    {
        final VerbsContext context = SoftRoce.context().hugepages(mode);
        server = new VerbsTransport(context);
        client = new VerbsTransport(SoftRoce.context(context.controlAddress(), context.multicastGroup())
            .hugepages(mode));
    }

    @Test
    void shouldPutALargeRegionOnHugepagesAndLandAWriteInIt() throws IOException
    {
        reserve(8);
        open(HugepageMode.REQUIRED);
        final ControlServer listener = server.bindControl();
        final CompletableFuture<ControlChannel> connecting =
            CompletableFuture.supplyAsync(() -> client.connectControl(TimeUnit.SECONDS.toNanos(20)));
        final ControlChannel[] accepted = new ControlChannel[1];
        Await.until("the connection request", 30, () -> null != (accepted[0] = listener.accept()));
        connecting.join();
        final int freeBefore = free();

        final MemoryRegion ring = client.registerRegion(RING, RegionAccess.REMOTE_WRITE);
        final MemoryRegion small = client.registerRegion(64, RegionAccess.REMOTE_WRITE);

        assertEquals(freeBefore - RING / RegionMemory.HUGEPAGE, free(), "the 4 MiB ring takes two 2 MiB pages");
        assertTrue(((DisniRegion)ring).isHuge());
        assertFalse(((DisniRegion)small).isHuge(), "a 64-byte region stays on a regular page");
        final MemoryRegion source = server.registerRegion(64, RegionAccess.LOCAL);
        source.buffer().putLong(0, 0x1234_5678_9ABC_DEF0L);
        final RemoteRegion remote = accepted[0].openRemoteRegion(ring.remoteKey());
        final int offset = 3 << 20;
        Await.until("the write posted", 10, () -> remote.write(offset, source, 0, 8) == TransportResult.OK);
        Await.until("the write landed on the second hugepage", 10, () ->
            ring.buffer().getLongVolatile(offset) == 0x1234_5678_9ABC_DEF0L);
        assertEquals(0, client.hugepageFallbacks());
        ring.close();
        assertEquals(freeBefore, free(), "closing the region gives its pages back");
    }

    @Test
    void shouldFallBackCountedWithoutFreeHugepagesOrRefuseWhenRequired() throws IOException
    {
        reserve(0);
        open(HugepageMode.AUTO);
        server.bindControl();

        final MemoryRegion ring = server.registerRegion(RING, RegionAccess.LOCAL);
        server.registerRegion(64, RegionAccess.LOCAL);

        assertFalse(((DisniRegion)ring).isHuge());
        assertEquals(1, server.hugepageFallbacks(), "the large region fell back, the small one never asked");
        client.close();
        client = new VerbsTransport(SoftRoce.context().hugepages(HugepageMode.REQUIRED));
        final TransportException refused = assertThrows(TransportException.class,
            () -> client.registerRegion(RING, RegionAccess.LOCAL));
        assertTrue(refused.getMessage().contains("nr_hugepages"), refused.getMessage());
    }
}
