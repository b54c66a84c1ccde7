package io.mdgate.egress.transport.disni;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import com.ibm.disni.util.NativeAffinity;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.RdmaProvider;
import com.ibm.disni.verbs.impl.NatIbvRecvWR;
import com.ibm.disni.verbs.impl.NatIbvSendWR;
import com.ibm.disni.verbs.impl.NatIbvSge;
import com.ibm.disni.verbs.impl.SockAddrIn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * libdisni on a machine without RDMA (the development and CI hosts): DiSNI's own classes load the project's
 * library, agree with it on version and layouts, and fail cleanly where a device would be needed.
 */
class DisniNativeHostTest
{
    private static final Path RDMA_CM = Path.of("/dev/infiniband/rdma_cm");

    @Test
    void shouldLoadTheLibraryThroughDisniAndAgreeOnItsVersionAndLayouts() throws IOException
    {
        final RdmaProvider provider = RdmaProvider.provider();

        assertEquals(32, provider.getVersion(), "DiSNI 2.1 requires jverbs version 32");
        // DiSNI adopts the library's figure when one differs, so a disagreement shows up here.
        assertEquals(72, NatIbvSendWR.CSIZE, "send work request stride");
        assertEquals(40, NatIbvSendWR.REMOTEADDR_OFFSET, "remote address offset");
        assertEquals(48, NatIbvSendWR.RKEY_OFFSET, "rkey offset");
        assertEquals(32, NatIbvRecvWR.CSIZE, "receive work request stride");
        assertEquals(16, NatIbvSge.CSIZE, "scatter/gather entry stride");
        assertEquals(48, IbvWC.CSIZE, "work completion stride");
        assertEquals(28, SockAddrIn.CSIZE, "socket address buffer");
    }

    @Test
    void shouldRefuseAnEventChannelWithTheReasonAndTheFixWhenThereIsNoRdmaDevice()
    {
        assumeFalse(Files.exists(RDMA_CM), "this machine has " + RDMA_CM + ": the guest test covers it");

        final IOException error = assertThrows(IOException.class, RdmaEventChannel::createEventChannel);

        assertTrue(error.getMessage().startsWith("disni: rdma_create_event_channel: "), error.getMessage());
        assertTrue(error.getMessage().contains("Soft-RoCE"), error.getMessage());
    }

    @Test
    void shouldPinAThreadToOneCpuAndReadTheMaskBack() throws InterruptedException
    {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                final long all = NativeAffinity.getAffinity();
                assertNotEquals(0L, all);
                assertNotEquals(-1L, all);
                final long one = Long.highestOneBit(all);

                NativeAffinity.setAffinity(one);

                assertEquals(one, NativeAffinity.getAffinity());
                NativeAffinity.setAffinity(all);
                assertEquals(all, NativeAffinity.getAffinity());
            }
            catch (final Throwable t)
            {
                failure.set(t);
            }
        }, "affinity-test");
        thread.start();
        thread.join();

        assertNull(failure.get(), () -> "affinity: " + failure.get());
    }
}
