package io.mdgate.egress.transport.verbs;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the verbs tests need from the machine they run on: an RDMA device (the Soft-RoCE guest's {@code rxe0}) and an
 * IPv4 address on its interface ({@code RXE_IPV4}, set by the guest's runner). Each test gets its own RDMA-CM port
 * and multicast group, so tests in one JVM or in parallel JVMs never meet.
 */
public final class SoftRoce
{
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private SoftRoce()
    {
    }

    /** Skips the test, saying why, when there is no usable RDMA device (the host; the tag keeps it off anyway). */
    public static void assumeDevice()
    {
        final String reason = VerbsTransport.unavailabilityReason(device());
        assumeTrue(null == reason, () -> "verbs test skipped: " + reason);
    }

    public static String device()
    {
        return System.getenv().getOrDefault("RXE_DEV", "rxe0");
    }

    public static String address()
    {
        return System.getenv().getOrDefault("RXE_IPV4", "10.77.0.1");
    }

    /** @return a fresh context: unique port and multicast group base per call in this JVM. */
    public static VerbsContext context()
    {
        final int n = COUNTER.incrementAndGet();
        final int port = 20000 + (int)(ProcessHandle.current().pid() % 2000) * 16 + n % 16;
        return context(address() + ":" + port, "239.77." + (1 + (int)(ProcessHandle.current().pid() % 200)) + "." +
            (n * 4 % 200));
    }

    public static VerbsContext context(final String controlAddress, final String group)
    {
        return new VerbsContext().device(device()).controlAddress(controlAddress).multicastGroup(group)
            .setupTimeoutMillis(10_000);
    }
}
