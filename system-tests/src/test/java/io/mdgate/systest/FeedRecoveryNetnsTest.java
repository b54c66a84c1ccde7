package io.mdgate.systest;

import io.mdgate.core.capture.ReadJson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole live path between two namespaces: {@code mdgate sim --send} in the exchange namespace sends both lines
 * of a bounded session (one message per packet, so packets and messages can be counted against each other) and
 * serves re-requests; {@code mdgate ingress} (the DPDK ingress on {@code net_af_packet}, then {@code net_af_xdp},
 * bound to the feed veth) runs the feed session in the gateway namespace and re-requests over the recovery veth.
 * Loss is injected per line on the exchange side ({@link LineLoss}): 5% random on each line independently, then
 * bursts on both lines at once. Every sequence must arrive exactly once and in order, nothing may be declared lost,
 * the packets both lines lost must come from re-requests, and the counters must match the packets the loss rules
 * passed and dropped. Each run is a process of its own per side ({@code ip netns exec}), killed by PID and its
 * namespaces removed even when the test fails.
 */
@Tag("netns")
class FeedRecoveryNetnsTest
{
    private static final int MESSAGES = 50_000;
    /** Messages (= packets per line) per second: 10k datagrams/s in all, modest enough for af_xdp on 2 loaded CPUs. */
    private static final int RATE = 5_000;
    private static final String GROUP_A = "233.54.12.111";
    private static final String GROUP_B = "233.49.196.111";
    private static final int PORT = 26477;
    private static final int RETRANSMIT_PORT = 26400;

    @TempDir
    Path dir;

    @BeforeEach
    void requireNamespacesAndLossRules()
    {
        FeedNamespaces.assumeNamespaces();
        final String nft = LineLoss.unavailable();
        if (nft != null)
        {
            FeedNamespaces.skip(nft);
        }
        if (!io.mdgate.ingress.DpdkNative.isAvailable())
        {
            FeedNamespaces.skip("DPDK library unavailable: " + io.mdgate.ingress.DpdkNative.unavailabilityCause());
        }
    }

    @Test
    @Timeout(value = 240)
    void shouldDeliverEverySequenceOnceThroughAfPacketWithRandomLossOnEachLine() throws Exception
    {
        run("pr", "net_af_packet0,iface=%s,framecnt=16384", 50, 0, 0);
    }

    @Test
    @Timeout(value = 240)
    void shouldRecoverBurstsLostOnBothLinesAtOnceThroughAfPacket() throws Exception
    {
        run("pb", "net_af_packet0,iface=%s,framecnt=16384", 0, 1000, 16);
    }

    @Test
    @Timeout(value = 240)
    void shouldDeliverEverySequenceOnceThroughAfXdpWithRandomLossOnEachLine() throws Exception
    {
        run("xr", "net_af_xdp0,iface=%s,start_queue=0,queue_count=1,busy_budget=0", 50, 0, 0);
    }

    @Test
    @Timeout(value = 240)
    void shouldRecoverBurstsLostOnBothLinesAtOnceThroughAfXdp() throws Exception
    {
        run("xb", "net_af_xdp0,iface=%s,start_queue=0,queue_count=1,busy_budget=0", 0, 1000, 16);
    }

    @Test
    void shouldRemoveItsNamespacesVethsAndProcessesEvenWhenTheTestFails() throws Exception
    {
        final String[] names = new String[2];
        final Process[] sleeper = new Process[1];
        assertThrows(IllegalStateException.class, () ->
        {
            try (FeedNamespaces net = FeedNamespaces.create("f"))
            {
                names[0] = net.exchange;
                names[1] = net.gateway;
                sleeper[0] = net.start(List.of("ip", "netns", "exec", net.gateway, "sleep", "600"),
                    dir.resolve("sleep.out"));
                assertTrue(FeedNamespaces.namespaceExists(net.gateway));
                throw new IllegalStateException("a failing test");
            }
        });

        assertFalse(FeedNamespaces.namespaceExists(names[0]), names[0]);
        assertFalse(FeedNamespaces.namespaceExists(names[1]), names[1]);
        assertFalse(sleeper[0].isAlive(), "the process started in the namespace was killed");
    }

    private void run(final String tag, final String deviceFormat, final int lossPermille, final int burstPeriod,
        final int burstLength) throws Exception
    {
        try (FeedNamespaces net = FeedNamespaces.create(tag))
        {
            final String netem = LineLoss.netemUnavailable(net.exchange, net.exchangeFeed);
            System.out.println(tag + ": loss by nftables netdev egress rules (exact counts)" +
                (netem == null ? "" : "; netem is unavailable here (" + netem + ")"));
            final LineLoss loss = LineLoss.install(net.exchange, net.exchangeFeed, GROUP_A, GROUP_B, lossPermille,
                burstPeriod, burstLength);
            final String device = String.format(deviceFormat, net.gatewayFeed);

            final Path ingressOut = dir.resolve("ingress.out");
            final Process ingress = net.startMdgate(net.gateway, List.of("ingress", "--vdev", device,
                "--lines", "A=" + GROUP_A + ":" + PORT + ",B=" + GROUP_B + ":" + PORT,
                "--retransmit", FeedNamespaces.EXCHANGE_RECOVERY_ADDRESS + ":" + RETRANSMIT_PORT,
                "--first-sequence", "1", "--gap-wait-us", "1000", "--retry-interval-us", "20000",
                "--max-retries", "50", "--idle-ms", "4000", "--start-wait-ms", "60000", "--max-seconds", "150",
                "--json"), ingressOut);
            awaitStarted(ingressOut, ingress);

            final Path simOut = dir.resolve("sim.out");
            final Process sim = net.startMdgate(net.exchange, List.of("sim", "--messages", "" + MESSAGES,
                "--seed", "17", "--instruments", "50", "--rate", "" + RATE, "--messages-per-packet", "1",
                "--send", net.exchangeFeed, "--group-a", GROUP_A + ":" + PORT, "--group-b", GROUP_B + ":" + PORT,
                "--max-idle-ms", "5", "--serve-retransmits", "" + RETRANSMIT_PORT,
                "--retransmit-address", FeedNamespaces.EXCHANGE_RECOVERY_ADDRESS, "--linger-ms", "3000", "--json"),
                simOut);
            assertTrue(sim.waitFor(150, TimeUnit.SECONDS), () -> "sim still running; " + FeedNamespaces.outputOf(simOut));
            assertEquals(0, sim.exitValue(), () -> FeedNamespaces.outputOf(simOut));
            assertTrue(ingress.waitFor(60, TimeUnit.SECONDS), () -> "ingress still running; " +
                FeedNamespaces.outputOf(ingressOut));
            assertEquals(0, ingress.exitValue(), () -> FeedNamespaces.outputOf(ingressOut));

            final LineLoss.Counters counters = loss.counters();
            final Map<String, Object> sent = ReadJson.parseObject(Files.readString(simOut).trim());
            final Map<String, Object> received = ReadJson.parseObject(Files.readString(ingressOut).trim());
            final String gaps = Files.readString(FeedNamespaces.errorFile(ingressOut)).lines()
                .filter(l -> l.contains("gap declared")).reduce("", (x, y) -> x + y + "\n");
            System.out.print(gaps);
            check(tag, device, counters, sent, received, burstPeriod > 0);
        }
    }

    private static void check(final String tag, final String device, final LineLoss.Counters loss,
        final Map<String, Object> sent, final Map<String, Object> received, final boolean bursts)
    {
        final Map<?, ?> sentPackets = (Map<?, ?>)sent.get("packets");
        final Map<?, ?> framed = (Map<?, ?>)sent.get("framed");
        final Map<?, ?> feed = (Map<?, ?>)received.get("feed");
        final Map<?, ?> a = (Map<?, ?>)feed.get("A");
        final Map<?, ?> b = (Map<?, ?>)feed.get("B");
        final Map<?, ?> recovery = (Map<?, ?>)feed.get("RECOVERY");
        final long sentA = (Long)sentPackets.get("A");
        final long sentB = (Long)sentPackets.get("B");
        final long droppedA = sentA - loss.passA();
        final long droppedB = sentB - loss.passB();
        final Map<?, ?> retransmit = (Map<?, ?>)sent.get("retransmit");
        System.out.printf("%s %s: sent A %d B %d packets; dropped A %d B %d (random A %d B %d, bursts %d); " +
                "received A %s B %s; delivered %s messages (A %s, B %s, re-request %s), duplicates A %s B %s; " +
                "gaps opened A %s B %s, filled by the other line A %s B %s, by re-request A %s B %s, lost %s " +
                "(%s messages); server: %s requests, %s messages resent; port %s%n",
            tag, device, sentA, sentB, droppedA, droppedB, loss.dropA(), loss.dropB(), loss.burst(), a.get("packets"),
            b.get("packets"), feed.get("messagesDelivered"), a.get("messages"), b.get("messages"),
            recovery.get("messages"), a.get("duplicates"), b.get("duplicates"), a.get("gapsOpened"),
            b.get("gapsOpened"), a.get("gapsFilledByOtherLine"), b.get("gapsFilledByOtherLine"),
            a.get("gapsFilledByRerequest"), b.get("gapsFilledByRerequest"),
            (Long)a.get("gapsDeclaredLost") + (Long)b.get("gapsDeclaredLost"), feed.get("messagesLost"),
            retransmit.get("requests"), retransmit.get("messagesResent"),
            ((Map<?, ?>)received.get("ingress")).get("port"));

        // Every sequence exactly once, in order (the session's contract), none declared lost.
        assertEquals((long)MESSAGES, received.get("messages"), "messages delivered");
        assertEquals((long)MESSAGES, feed.get("messagesDelivered"));
        assertEquals(1L, received.get("firstSequence"));
        assertEquals((long)MESSAGES, received.get("lastSequence"), "one message per packet: sequence = message");
        assertEquals(0L, feed.get("messagesLost"), "nothing declared lost");
        assertEquals(0L, (Long)a.get("gapsDeclaredLost") + (Long)b.get("gapsDeclaredLost"), "no gap declared");
        assertEquals(true, received.get("endOfSession"));
        assertEquals(0L, received.get("missingMessages"));
        assertEquals((long)MESSAGES, (Long)a.get("messages") + (Long)b.get("messages") +
            (Long)recovery.get("messages"), "each message delivered from exactly one line");

        // What was injected: the rules dropped packets of both lines; the rest reached the session.
        assertTrue(droppedA > 0 && droppedB > 0, "the rules dropped packets on both lines");
        final long receivePathLossA = loss.passA() - (Long)a.get("packets");
        final long receivePathLossB = loss.passB() - (Long)b.get("packets");
        System.out.printf("%s: lost after the rules, in the receive path: A %d B %d packets%n", tag, receivePathLossA,
            receivePathLossB);
        if (device.startsWith("net_af_packet"))
        {
            assertEquals(0, receivePathLossA, "every packet the rules passed on A reached the session");
            assertEquals(0, receivePathLossB, "every packet the rules passed on B reached the session");
        }
        else
        {
            // af_xdp drops what arrives while the kernel holds none of its buffers (the receive thread descheduled
            // on a loaded host); no port counter shows it. The session recovers those packets like any other loss.
            assertTrue(receivePathLossA >= 0 && receivePathLossB >= 0, "no packet appeared from nowhere");
        }
        // One message per data packet: what a line brought is its packets less heartbeats and end-of-session marks.
        for (final Map<?, ?> line : List.of(a, b))
        {
            final long notMessages = (Long)line.get("packets") - (Long)line.get("heartbeats") -
                (Long)line.get("messages") - (Long)line.get("duplicates");
            assertTrue(notMessages >= 0 && notMessages <= (Long)framed.get("endOfSession"),
                "packets = heartbeats + messages + duplicates (+ end of session): " + line);
        }
        // Messages both lines lost can only come from the server, and every one did.
        assertTrue((Long)recovery.get("messages") > 0, "some sequences were lost on both lines");
        assertTrue((Long)a.get("gapsFilledByRerequest") + (Long)b.get("gapsFilledByRerequest") > 0,
            "gaps filled by re-request");
        assertTrue((Long)retransmit.get("messagesResent") >= (Long)recovery.get("messages"),
            "the server resent at least what the session took from it");
        if (bursts)
        {
            assertEquals(0L, loss.dropA() + loss.dropB());
            assertEquals(loss.burst(), droppedA + droppedB, "every packet the rules dropped was a burst's");
            // A burst of consecutive packets of A and B interleaved takes about half its length off both lines.
            assertTrue((Long)recovery.get("messages") >= loss.burst() / 4,
                "the sequences a burst took off both lines came from the server");
        }
        else
        {
            assertEquals(loss.dropA(), droppedA, "random drops on A");
            assertEquals(loss.dropB(), droppedB, "random drops on B");
        }
    }

    private static void awaitStarted(final Path output, final Process process) throws IOException, InterruptedException
    {
        final Path err = FeedNamespaces.errorFile(output);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline)
        {
            if (Files.exists(err) && Files.readString(err).contains("mdgate ingress: receiving"))
            {
                return;
            }
            if (!process.isAlive())
            {
                throw new AssertionError("the ingress exited with " + process.exitValue() + " before it started; " +
                    FeedNamespaces.outputOf(output));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the ingress did not start within 60 s; " + FeedNamespaces.outputOf(output));
    }
}
