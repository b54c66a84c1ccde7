package io.mdgate.ingress;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DPDK ingress on a veth pair between two namespaces made for the test: {@code net_af_packet} and
 * {@code net_af_xdp} bind to the veth end in the receiving namespace, and a plain UDP sender in the other
 * namespace sends both lines. The ingress runs in a JVM of its own ({@link IngressProbe}, started with
 * {@code ip netns exec}) because a PMD binds to an interface of its process's namespace, and because EAL starts
 * once per process: each PMD gets a fresh process and EAL, and this test JVM starts none.
 */
@Tag("netns")
class DpdkNetnsIngressTest
{
    private static final int PACKETS = 2000;
    private static final long SEED = 42;
    /**
     * Slow enough that the receiver survives being descheduled for ~400 ms on a loaded 2-CPU host: af_xdp gives
     * the kernel 2048 buffers, and drops beyond them show in no port counter.
     */
    private static final int DATAGRAMS_PER_SECOND = 5_000;
    private static final Pattern RESULT = Pattern.compile(
        "RESULT a=(\\d+) b=(\\d+) aIntact=(\\d+) bIntact=(\\d+) duplicates=(\\d+) outOfOrder=(\\d+)");

    @TempDir
    Path dir;

    @BeforeEach
    void requireNamespaces()
    {
        NetnsVethPair.assumeNetns();
    }

    @Test
    void shouldReceiveEveryPacketOfBothLinesThroughAfPacketOnAVeth() throws Exception
    {
        receiveThrough("p", "net_af_packet0,iface=%s,framecnt=16384");
    }

    @Test
    void shouldReceiveEveryPacketOfBothLinesThroughAfXdpOnAVeth() throws Exception
    {
        receiveThrough("x", "net_af_xdp0,iface=%s,start_queue=0,queue_count=1,busy_budget=0");
    }

    @Test
    void shouldRemoveItsNamespacesAndVethsEvenWhenTheTestFails() throws Exception
    {
        final String[] names = new String[2];
        assertThrows(IllegalStateException.class, () ->
        {
            try (NetnsVethPair pair = NetnsVethPair.create("f"))
            {
                names[0] = pair.rxNamespace;
                names[1] = pair.txNamespace;
                assertTrue(NetnsVethPair.namespaceExists(pair.rxNamespace));
                throw new IllegalStateException("a failing test");
            }
        });

        assertFalse(NetnsVethPair.namespaceExists(names[0]), names[0]);
        assertFalse(NetnsVethPair.namespaceExists(names[1]), names[1]);
    }

    private void receiveThrough(final String tag, final String deviceFormat) throws Exception
    {
        try (NetnsVethPair pair = NetnsVethPair.create(tag))
        {
            final Path rxOut = dir.resolve("ingress.out");
            final Process ingress = pair.start(pair.rxNamespace, IngressProbe.class,
                List.of(String.format(deviceFormat, pair.rxInterface), "" + PACKETS, "" + SEED, "60000"), rxOut);
            awaitLine(rxOut, "READY", ingress);

            final Path txOut = dir.resolve("sender.out");
            final Process sender = pair.start(pair.txNamespace, UdpLineSender.class,
                List.of(pair.txInterface, "" + PACKETS, "" + SEED, "" + DATAGRAMS_PER_SECOND), txOut);
            assertTrue(sender.waitFor(60, TimeUnit.SECONDS), () -> "sender still running; " +
                NetnsVethPair.outputOf(txOut));
            assertEquals(0, sender.exitValue(), () -> NetnsVethPair.outputOf(txOut));
            assertTrue(ingress.waitFor(90, TimeUnit.SECONDS), () -> "ingress still running; " +
                NetnsVethPair.outputOf(rxOut));
            assertEquals(0, ingress.exitValue(), () -> NetnsVethPair.outputOf(rxOut));

            final String output = Files.readString(rxOut);
            output.lines().filter(l -> !l.startsWith("READY"))
                .forEach(l -> System.out.println(deviceFormat + ": " + l));
            final Matcher result = RESULT.matcher(output);
            assertTrue(result.find(), output);
            assertEquals(PACKETS, Integer.parseInt(result.group(3)), "line A intact; " + output);
            assertEquals(PACKETS, Integer.parseInt(result.group(4)), "line B intact; " + output);
            assertEquals(PACKETS, Integer.parseInt(result.group(1)), "line A handed over; " + output);
            assertEquals(PACKETS, Integer.parseInt(result.group(2)), "line B handed over; " + output);
            assertEquals(0, Integer.parseInt(result.group(5)), "duplicates; " + output);
            assertEquals(0, Integer.parseInt(result.group(6)), "out of order; " + output);
            assertTrue(counter(output, "otherDestination") >= PACKETS / 10, output);
            // The sender's kernel leaves UDP checksums to veth's offload: only the pseudo-header sum arrives.
            assertEquals(0, counter(output, "udpChecksum"), "sums a same-host sender leaves are accepted; " + output);
            assertEquals(0, counter(output, "ipChecksum"), output);
            // Nearly all: now and then a datagram's sum is complete (seen: 1 in 4000 through af_packet).
            assertTrue(counter(output, "udpChecksumPartial") >= PACKETS, output);
            assertTrue(counter(output, "ipackets") >= 2L * PACKETS + PACKETS / 10, output);
        }
    }

    private static long counter(final String output, final String name)
    {
        final Matcher matcher = Pattern.compile("\"" + name + "\":(\\d+)").matcher(output);
        assertTrue(matcher.find(), name + " in " + output);
        return Long.parseLong(matcher.group(1));
    }

    private static void awaitLine(final Path output, final String prefix, final Process process)
        throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline)
        {
            if (Files.exists(output) && Files.readString(output).lines().anyMatch(l -> l.startsWith(prefix)))
            {
                return;
            }
            if (!process.isAlive())
            {
                throw new AssertionError("the ingress exited with " + process.exitValue() + " before " + prefix +
                    "; " + NetnsVethPair.outputOf(output));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + prefix + " within 60 s; " + NetnsVethPair.outputOf(output));
    }
}
