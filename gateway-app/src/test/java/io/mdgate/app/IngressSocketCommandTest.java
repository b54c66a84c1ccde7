package io.mdgate.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.app.feed.LoopbackMulticast;
import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.capture.ReadJson;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.NetworkInterface;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mdgate ingress --ingress socket --interface lo --retransmit ...}: the simulator sends a bounded, lossy
 * session as multicast on {@code lo} and serves re-requests on 127.0.0.1; the command receives both lines through
 * kernel sockets, recovers what both lines lost from the server, and reports the same message counts as
 * {@code decode} of the same session written to a capture. Also the refusals of contradictory options.
 * Groups are in 239.255.0.0/16, ports ephemeral; skipped, with the reason printed, where multicast cannot loop
 * back on {@code lo}.
 */
class IngressSocketCommandTest
{
    private static final int MESSAGES = 20_000;

    @TempDir
    Path dir;

    private StringWriter err = new StringWriter();

    private String run(final CommandLine command, final StringWriter errors, final String... args)
    {
        final StringWriter out = new StringWriter();
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(errors, true));
        command.setParameterExceptionHandler(new UsageErrorHandler());
        final int exit = command.execute(args);
        return exit + "\n" + out;
    }

    private int ingress(final String... args)
    {
        err = new StringWriter();
        return Integer.parseInt(run(new CommandLine(new IngressCommand()), err, args).lines().findFirst().get());
    }

    @Test
    @Timeout(value = 120)
    void shouldRecoverALossySessionFromTheRetransmitServerThroughTheSocketIngressOnLoopback() throws Exception
    {
        final NetworkInterface lo = NetworkInterface.getByName("lo");
        final String prefix = "239.255." + (1 + (ProcessHandle.current().pid() + 97) % 250) + ".";
        final String problem = null == lo ? "no loopback interface named lo" : LoopbackMulticast.problem(lo, prefix + 230);
        if (null != problem)
        {
            System.out.println("SKIPPED IngressSocketCommandTest: " + problem);
        }
        Assumptions.assumeTrue(null == problem, problem);
        final String groupA = prefix + 231 + ":" + LoopbackMulticast.freePort();
        final String groupB = prefix + 232 + ":" + LoopbackMulticast.freePort();
        final int retransmitPort = LoopbackMulticast.freePort();
        final List<String> session = List.of("--messages=" + MESSAGES, "--seed=9", "--instruments=20",
            "--group-a=" + groupA, "--group-b=" + groupB);

        final StringWriter ingressErr = new StringWriter();
        final CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> run(
            new CommandLine(new IngressCommand()), ingressErr, "--ingress", "socket", "--interface", "lo",
            "--lines", "A=" + groupA + ",B=" + groupB, "--retransmit", "127.0.0.1:" + retransmitPort,
            "--first-sequence", "1", "--gap-wait-us", "2000", "--retry-interval-us", "20000", "--max-retries", "20",
            "--idle-ms", "2000", "--max-seconds", "90", "--json"));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ingressErr.toString().contains("mdgate ingress: receiving"))
        {
            assertTrue(System.nanoTime() < deadline && !received.isDone(), "the ingress did not start: " + ingressErr);
            Thread.sleep(10);
        }
        final StringWriter simErr = new StringWriter();
        final String[] live = concat(session, "--loss-a=0.05", "--loss-b=0.05", "--loss-burst=3", "--rate=100000", "--send=lo", "--max-idle-ms=5",
            "--serve-retransmits=" + retransmitPort, "--linger-ms=1500", "--json");
        assertTrue(run(new CommandLine(new SimCommand()), simErr, live).startsWith("0\n"), simErr::toString);

        final String result = received.get(100, TimeUnit.SECONDS);
        assertTrue(result.startsWith("0\n"), () -> result + ingressErr);
        final Map<String, Object> json = ReadJson.parseObject(result.substring(2).trim());

        final Path capture = dir.resolve("s.pcap");
        // The same session without faults, written to a capture: what decode reports is the whole session.
        assertTrue(run(new CommandLine(new SimCommand()), simErr, concat(session, "--pcap=" + capture))
            .startsWith("0\n"), simErr::toString);
        final String decodedText = run(new CommandLine(new DecodeCommand()), simErr, capture.toString(), "--json");
        final Map<String, Object> decoded = ReadJson.parseObject(decodedText.substring(2).trim());

        final Map<?, ?> feed = (Map<?, ?>)json.get("feed");
        final Map<?, ?> recovery = (Map<?, ?>)feed.get("RECOVERY");
        final Map<?, ?> lineA = (Map<?, ?>)feed.get("A");
        final Map<?, ?> lineB = (Map<?, ?>)feed.get("B");
        System.out.printf("socket ingress on lo: %s messages, %s from re-requests; gaps filled by re-request A %s " +
            "B %s; lost %s%n", json.get("messages"), recovery.get("messages"), lineA.get("gapsFilledByRerequest"),
            lineB.get("gapsFilledByRerequest"), feed.get("messagesLost"));
        assertEquals((long)MESSAGES, json.get("messages"), "every message once");
        assertEquals(decoded.get("counts"), json.get("counts"), "the same messages per type as decode");
        assertEquals(decoded.get("lastSequence"), json.get("lastSequence"));
        assertEquals(1L, json.get("firstSequence"));
        assertEquals(0L, feed.get("messagesLost"), "nothing declared lost");
        assertEquals(0L, json.get("missingMessages"));
        assertTrue((Long)recovery.get("messages") > 0, "both lines lost some packets, the server filled them");
        assertTrue((Long)lineA.get("gapsFilledByRerequest") + (Long)lineB.get("gapsFilledByRerequest") > 0);
        assertEquals(true, json.get("endOfSession"));
        final Map<?, ?> ingressCounters = (Map<?, ?>)json.get("ingress");
        assertTrue(String.valueOf(ingressCounters.get("source")).startsWith("sockets on lo"), ingressCounters::toString);
        final ObjectNode strict = JsonFields.oneObjectLine(result.substring(2));
        final List<String> keys = new ArrayList<>(JsonFields.names(JsonFields.oneObjectLine(decodedText.substring(2))));
        keys.addAll(List.of("feed", "ingress"));
        assertEquals(keys, JsonFields.names(strict), "decode's keys, then feed and ingress");
        assertEquals(IngressReportTest.FEED_KEYS, JsonFields.names(strict.get("feed")));
        assertEquals(IngressReportTest.FEED_LINE_KEYS, JsonFields.names(strict.get("feed").get("A")));
        assertEquals(IngressReportTest.INGRESS_KEYS, JsonFields.names(strict.get("ingress")));
        assertTrue(ingressErr.toString().contains("re-requests to /127.0.0.1:" + retransmitPort), ingressErr::toString);
    }

    @Test
    void shouldRefuseDpdkSettingsWithTheSocketIngress()
    {
        assertEquals(2, ingress("--ingress", "socket", "--interface", "lo", "--vdev", "net_ring0"));
        assertTrue(err.toString().contains("--vdev is a DPDK setting and --ingress socket uses none"), err::toString);

        assertEquals(2, ingress("--ingress", "socket", "--interface", "lo", "--mbufs", "100", "--no-huge"));
        assertTrue(err.toString().contains("--no-huge, --mbufs are DPDK settings"), err::toString);
    }

    @Test
    void shouldRefuseTheSocketIngressWithoutAnInterface()
    {
        assertEquals(2, ingress("--ingress", "socket"));
        assertTrue(err.toString().contains("--ingress socket needs --interface IFACE"), err::toString);
    }

    @Test
    void shouldRefuseAnInterfaceForTheDpdkIngress()
    {
        assertEquals(2, ingress("--vdev", "net_af_packet0,iface=eth0", "--interface", "eth0"));
        assertTrue(err.toString().contains("--interface is for --ingress socket"), err::toString);
    }

    @Test
    void shouldRefuseAnUnknownIngressKind()
    {
        assertEquals(2, ingress("--ingress", "kernel", "--interface", "lo"));
        assertTrue(err.toString().contains("--ingress"), err::toString);
        assertTrue(err.toString().contains("dpdk, socket"), err::toString);
    }

    @Test
    void shouldRefuseAMalformedRetransmitServer()
    {
        assertEquals(2, ingress("--ingress", "socket", "--interface", "lo", "--retransmit", "127.0.0.1"));
        assertTrue(err.toString().contains("--retransmit: '127.0.0.1' is not HOST:PORT"), err::toString);

        assertEquals(2, ingress("--ingress", "socket", "--interface", "lo", "--retransmit", "127.0.0.1:70000"));
        assertTrue(err.toString().contains("a port from 1 to 65535"), err::toString);
    }

    @Test
    void shouldRefuseFeedSessionSettingsOutOfRange()
    {
        assertEquals(2, ingress("--ingress", "socket", "--interface", "lo", "--max-retries", "5000"));
        assertTrue(err.toString().contains("maxRetries must be 0"), err::toString);
    }

    @Test
    void shouldRefuseASessionNameThatIsNotAMoldUdp64Session()
    {
        assertEquals(2, ingress("--ingress", "socket", "--interface", "lo", "--session", "ELEVENCHARS"));
        assertTrue(err.toString().contains("session: MoldUDP64 session 'ELEVENCHARS' has 11 characters"),
            err::toString);
    }

    private static String[] concat(final List<String> first, final String... more)
    {
        final List<String> all = new java.util.ArrayList<>(first);
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }
}
