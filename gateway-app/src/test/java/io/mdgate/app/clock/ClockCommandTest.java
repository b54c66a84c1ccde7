package io.mdgate.app.clock;

import io.mdgate.app.JsonOutput;
import io.mdgate.app.Main;
import io.mdgate.core.time.MonotonicEpochClock;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code mdgate clock} on loopback: a peer whose clock runs a known amount ahead is measured within the bound, the
 * bound is tight on one host, the command line prints it as text and JSON, a peer nobody serves is said so, and a
 * server drops what is not a probe and goes on answering.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClockCommandTest
{
    private static final long AHEAD_NANOS = 5_000_123_456L;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private volatile boolean serving = true;

    @AfterEach
    void tearDown() throws InterruptedException
    {
        serving = false;
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void shouldMeasureAPeerClockThatRunsAheadWithinTheBoundItGives() throws Exception
    {
        final MonotonicEpochClock local = new MonotonicEpochClock();
        try (ClockServer server = new ClockServer(loopback(0), new MonotonicEpochClock(local.offsetNanos() +
            AHEAD_NANOS)))
        {
            final Future<?> serve = threads.submit(() -> serve(server));
            final ClockOffset offset = new ClockProbe(server.address(), local).measure(100, 0,
                TimeUnit.MILLISECONDS.toNanos(500));
            serving = false;
            serve.get(10, TimeUnit.SECONDS);

            assertEquals(100, offset.answered(), offset.toString());
            assertEquals(100, server.answered());
            assertTrue(Math.abs(offset.offsetNanos() - AHEAD_NANOS) <= offset.boundNanos(),
                "5.000123456 s ahead, measured " + offset);
            assertTrue(offset.boundNanos() < TimeUnit.MILLISECONDS.toNanos(5), "loopback bounds it tightly: " + offset);
            assertTrue(offset.bestRoundTripNanos() <= offset.medianRoundTripNanos(), offset.toString());
            assertEquals((offset.bestRoundTripNanos() + 1) / 2, offset.boundNanos(), offset.toString());
        }
    }

    @Test
    void shouldDropDatagramsThatAreNotProbesAndGoOnAnswering() throws Exception
    {
        final MonotonicEpochClock clock = new MonotonicEpochClock();
        try (ClockServer server = new ClockServer(loopback(0), clock);
            DatagramChannel stranger = DatagramChannel.open())
        {
            final Future<?> serve = threads.submit(() -> serve(server));
            stranger.connect(server.address());
            stranger.write(ByteBuffer.wrap(new byte[10]));
            final ByteBuffer wrongMagic = ByteBuffer.allocate(ClockExchange.PROBE_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            wrongMagic.putLong(ClockExchange.ANSWER).putLong(1).putLong(2).flip();
            stranger.write(wrongMagic);
            final ByteBuffer tooLong = ByteBuffer.allocate(200).order(ByteOrder.LITTLE_ENDIAN);
            tooLong.putLong(ClockExchange.PROBE).putLong(1).putLong(2).position(200).flip();
            stranger.write(tooLong);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.dropped() < 3 && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }

            final ClockOffset offset = new ClockProbe(server.address(), clock).measure(5, 0,
                TimeUnit.MILLISECONDS.toNanos(500));
            serving = false;
            serve.get(10, TimeUnit.SECONDS);
            assertEquals(3, server.dropped(), "a short datagram, a wrong magic, a long one");
            assertEquals(5, server.answered());
            assertEquals(5, offset.answered());
            assertTrue(Math.abs(offset.offsetNanos()) <= offset.boundNanos(), "one clock: " + offset);
        }
    }

    @Test
    void shouldPrintTheOffsetAsTextAndJsonThroughTheCommandLine() throws Exception
    {
        final int port = freePort();
        final Run server = new Run();
        final Future<Integer> served = threads.submit(() -> server.execute("clock", "--serve", "127.0.0.1:" + port,
            "--duration", "20"));
        final Run json = new Run();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (json.execute("clock", "--peer", "127.0.0.1:" + port, "--probes", "30", "--interval-ms", "0",
            "--timeout-ms", "200", "--json") != 0)
        {
            assertTrue(System.nanoTime() < deadline, "the server answers: " + json.err + server.err);
            json.reset();
        }
        final JsonNode result = JsonOutput.mapper().readTree(json.out.toString());
        assertEquals("127.0.0.1:" + port, result.get("peer").asText());
        assertEquals(30, result.get("probes").asInt());
        assertEquals(30, result.get("answered").asInt(), result.toString());
        final long offset = result.get("offset_ns").asLong();
        final long bound = result.get("bound_ns").asLong();
        assertTrue(Math.abs(offset) <= bound, "one host, one clock: " + result);
        assertTrue(bound > 0 && bound < TimeUnit.MILLISECONDS.toNanos(5), result.toString());

        final Run text = new Run();
        assertEquals(0, text.execute("clock", "--peer", "127.0.0.1:" + port, "--probes", "10"), text.err.toString());
        final String line = text.out.toString().strip();
        assertTrue(line.matches("clock of 127\\.0\\.0\\.1:" + port + ": [+-]\\d+\\.\\d us from this host's, within " +
            "\\+/- \\d+\\.\\d us \\(best of 10 answered round trips \\d+\\.\\d us, median \\d+\\.\\d us\\); time its " +
            "ticks here with mdgate consume --clock-offset-ns -?\\d+"), line);
        assertEquals(0, served.get(30, TimeUnit.SECONDS), server.err.toString());
        assertTrue(server.err.toString().startsWith("mdgate clock: answering clock probes on 127.0.0.1:" + port),
            server.err.toString());
        assertTrue(server.err.toString().contains("mdgate clock: answered "), server.err.toString());
    }

    @Test
    void shouldSayThatNobodyAnswersAndExitWith1() throws Exception
    {
        final int port = freePort();
        final Run probe = new Run();

        assertEquals(1, probe.execute("clock", "--peer", "127.0.0.1:" + port, "--probes", "3", "--timeout-ms", "50"));
        assertEquals("mdgate clock: no answer from 127.0.0.1:" + port + " to 3 probes (50 ms each): start mdgate " +
            "clock --serve 127.0.0.1:" + port + " on that host, or check the address",
            probe.err.toString().lines().findFirst().orElse(""));
        assertEquals("", probe.out.toString());
    }

    @Test
    void shouldRefuseOptionsThatDoNotGoTogetherOnTheFirstLine()
    {
        final List<List<String>> cases = List.of(
            List.of("clock"),
            List.of("clock", "--serve", "127.0.0.1:7480", "--peer", "127.0.0.1:7480"),
            List.of("clock", "--serve", "127.0.0.1:7480", "--json"),
            List.of("clock", "--peer", "127.0.0.1:7480", "--duration", "5"),
            List.of("clock", "--peer", "127.0.0.1:0"),
            List.of("clock", "--peer", "127.0.0.1:7480", "--timeout-ms", "0"));
        final List<String> firstLines = List.of(
            "mdgate clock: give one of --serve IP:PORT (answer probes here) or --peer IP:PORT (probe that host), " +
                "e.g. --peer 10.0.0.1:7480",
            "mdgate clock: give one of --serve IP:PORT (answer probes here) or --peer IP:PORT (probe that host), " +
                "e.g. --peer 10.0.0.1:7480",
            "mdgate clock: --json and --probes go with --peer, not --serve",
            "mdgate clock: --duration goes with --serve; --peer stops after --probes",
            "mdgate clock: --peer: '127.0.0.1:0' is not IP:PORT with a port from 1 to 65535, e.g. 10.0.0.1:7480",
            "mdgate clock: --interval-ms must be 0 to 10000 and --timeout-ms 1 to 60000, were 2 and 0");
        for (int i = 0; i < cases.size(); i++)
        {
            final Run run = new Run();
            assertEquals(2, run.execute(cases.get(i).toArray(String[]::new)), cases.get(i).toString());
            assertEquals(firstLines.get(i), run.err.toString().lines().findFirst().orElse(""), cases.get(i).toString());
        }
    }

    private void serve(final ClockServer server)
    {
        try
        {
            server.serve(() -> serving);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static InetSocketAddress loopback(final int port) throws IOException
    {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    private static int freePort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(loopback(0)))
        {
            return socket.getLocalPort();
        }
    }

    private static final class Run
    {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int execute(final String... args)
        {
            final CommandLine commandLine = Main.commandLine();
            commandLine.setOut(new PrintWriter(out, true));
            commandLine.setErr(new PrintWriter(err, true));
            return commandLine.execute(args);
        }

        void reset()
        {
            out = new StringWriter();
            err = new StringWriter();
        }
    }
}
