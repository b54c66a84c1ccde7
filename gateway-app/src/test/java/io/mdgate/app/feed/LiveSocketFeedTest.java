package io.mdgate.app.feed;

import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.UdpRetransmitRequester;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;
import io.mdgate.ingress.socket.SocketIngress;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole kernel-socket path on loopback: the simulator sends a bounded session live as multicast on {@code lo},
 * with independent loss on both lines, and serves re-requests on 127.0.0.1; the socket ingress receives both lines
 * and the feed session recovers what both lost through the UDP re-request client. Groups are in 239.255.0.0/16,
 * ports ephemeral. Skipped, with the reason printed, where multicast cannot loop back on {@code lo}.
 */
@Timeout(value = 120)
class LiveSocketFeedTest
{
    private static final int MESSAGES = 30_000;
    private static final long SEED = 21;

    @Test
    void shouldRecoverEveryMessageOfALossySessionSentAsMulticastOnLoopback() throws Exception
    {
        final NetworkInterface lo = NetworkInterface.getByName("lo");
        final String prefix = "239.255." + (1 + ProcessHandle.current().pid() % 250) + ".";
        final String problem = null == lo ? "no loopback interface named lo" : LoopbackMulticast.problem(lo, prefix + 240);
        if (null != problem)
        {
            System.out.println("SKIPPED LiveSocketFeedTest: " + problem);
        }
        Assumptions.assumeTrue(null == problem, problem);

        final String groupA = prefix + 241 + ":" + LoopbackMulticast.freePort();
        final String groupB = prefix + 242 + ":" + LoopbackMulticast.freePort();
        final int retransmitPort = LoopbackMulticast.freePort();
        final long[] next = { 1 };
        final long[] lost = { 0 };
        try (SocketIngress ingress = new SocketIngress(new SocketIngress.Context()
                .lines(IngressLines.parse("A=" + groupA + ",B=" + groupB)).interfaceName("lo"));
            UdpRetransmitRequester requester = new UdpRetransmitRequester(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), retransmitPort)))
        {
            final FeedSession session = new FeedSession(new FeedSession.Context()
                .firstSequence(1)
                .gapWaitNanos(TimeUnit.MILLISECONDS.toNanos(2))
                .retryIntervalNanos(TimeUnit.MILLISECONDS.toNanos(20))
                .maxRetries(20)
                .requester(requester)
                .messageHandler((buffer, offset, length, sequence) -> assertEquals(next[0]++, sequence))
                .gapHandler((first, count) -> lost[0] += count));
            ingress.start();

            final StringWriter out = new StringWriter();
            final CompletableFuture<Integer> sim = CompletableFuture.supplyAsync(() -> new CommandLine(new SimCommand())
                .setOut(new PrintWriter(out)).setErr(new PrintWriter(out)).execute(
                    "--messages", String.valueOf(MESSAGES), "--seed", String.valueOf(SEED), "--instruments", "20",
                    "--rate", "200000", "--send", "lo", "--group-a", groupA, "--group-b", groupB,
                    "--max-idle-ms", "5", "--loss-a", "0.05", "--loss-b", "0.05", "--loss-burst", "3",
                    "--serve-retransmits", String.valueOf(retransmitPort), "--linger-ms", "1000", "--json"));

            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            session.doWork(System.nanoTime());
            while (!session.isEndOfSession())
            {
                assertTrue(System.nanoTime() < deadline, "the session did not end; " + ingress.stats());
                assertTrue(ingress.poll(session) >= 0);
                session.doWork(System.nanoTime());
            }
            assertEquals(0, sim.get(60, TimeUnit.SECONDS), out.toString());

            final IngressStats stats = ingress.stats();
            System.out.printf("live: %d messages, %d from re-requests, lines A %d B %d packets, %d requests%n",
                next[0] - 1, session.messages(FeedLines.RECOVERY), stats.linePackets(FeedLines.A),
                stats.linePackets(FeedLines.B), requester.requestsSent());
            assertEquals(0, lost[0], "no gap declared");
            assertEquals(MESSAGES + 1, next[0], "every message once, in order");
            assertTrue(session.messages(FeedLines.RECOVERY) > 0, "some messages were lost on both lines");
            assertEquals(stats.linePackets(FeedLines.A), session.packets(FeedLines.A));
            assertEquals(stats.linePackets(FeedLines.B), session.packets(FeedLines.B));
            assertEquals(0, session.malformed(FeedLines.A) + session.malformed(FeedLines.B));
            assertTrue(out.toString().contains("\"requests\":"), out.toString());

            final ItchSessionGenerator generator = new ItchSessionGenerator(
                new SimulationConfig().seed(SEED).instruments(20).messages(MESSAGES));
            final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
            long generated = 0;
            while (generator.next(message, 0) > 0)
            {
                generated++;
            }
            assertEquals(generated, session.messagesDelivered());
            assertTrue(generator.count(ItchMessageType.ADD_ORDER) > 0);
        }
    }
}
