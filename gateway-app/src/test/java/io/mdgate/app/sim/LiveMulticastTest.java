package io.mdgate.app.sim;

import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sends a bounded session live as multicast on the loopback interface, to groups in 239.255.0.0/16 (never off
 * the host), and receives both lines.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LiveMulticastTest
{
    private static final String GROUP_A = "239.255.77.1";
    private static final String GROUP_B = "239.255.77.2";
    private static final int MESSAGES = 20_000;

    private static int freePort() throws IOException
    {
        try (DatagramChannel probe = DatagramChannel.open())
        {
            probe.bind(new InetSocketAddress(0));
            return ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
    }

    private static DatagramChannel join(final NetworkInterface lo, final String group, final int port)
        throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
        channel.bind(new InetSocketAddress(port));
        channel.join(InetAddress.getByName(group), lo);
        channel.configureBlocking(false);
        return channel;
    }

    /** @return why loopback multicast cannot be tested here, or null when a probe datagram came through. */
    private static String loopbackMulticastProblem(final NetworkInterface lo, final DatagramChannel receiver,
        final int port)
    {
        try (DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, lo);
            sender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            sender.send(ByteBuffer.wrap(new byte[] { 1 }), new InetSocketAddress(GROUP_A, port));
            final ByteBuffer received = ByteBuffer.allocate(16);
            for (int i = 0; i < 100; i++)
            {
                if (null != receiver.receive(received))
                {
                    return null;
                }
                Thread.sleep(10);
            }
            return "a probe datagram sent to " + GROUP_A + " on lo never arrived";
        }
        catch (final IOException | InterruptedException ex)
        {
            return "cannot send multicast on lo: " + ex;
        }
    }

    private static void drain(final DatagramChannel channel, final List<byte[]> into) throws IOException
    {
        final ByteBuffer received = ByteBuffer.allocate(65_536);
        while (null != channel.receive(received))
        {
            final byte[] datagram = new byte[received.position()];
            received.flip().get(datagram);
            if (datagram.length > 1)
            {
                into.add(datagram);
            }
            received.clear();
        }
    }

    private static boolean endedSession(final List<byte[]> line)
    {
        return !line.isEmpty() && RecordedPackets.decode(List.of(line.get(line.size() - 1))).endOfSession == 1;
    }

    @ParameterizedTest(name = "pacing {0}")
    @ValueSource(strings = { "spin", "sleep" })
    void shouldSendBothLinesAsMulticastThroughTheNamedInterfaceAndStop(final String pacing) throws Exception
    {
        final NetworkInterface lo = NetworkInterface.getByName("lo");
        Assumptions.assumeTrue(null != lo, "no loopback interface named lo");
        final int portA = freePort();
        final int portB = freePort();
        final DatagramChannel receiverA;
        final DatagramChannel receiverB;
        try
        {
            receiverA = join(lo, GROUP_A, portA);
            receiverB = join(lo, GROUP_B, portB);
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            System.out.println("SKIPPED LiveMulticastTest: cannot join a multicast group on lo: " + ex);
            Assumptions.abort("cannot join a multicast group on lo: " + ex);
            return;
        }
        try
        {
            final String problem = loopbackMulticastProblem(lo, receiverA, portA);
            if (null != problem)
            {
                System.out.println("SKIPPED LiveMulticastTest: " + problem);
            }
            Assumptions.assumeTrue(null == problem, problem);

            final CompletableFuture<SimCommandTest.Result> run = CompletableFuture.supplyAsync(() -> SimCommandTest.sim(
                "--messages", String.valueOf(MESSAGES), "--seed", "9", "--instruments", "20", "--send", "lo",
                "--group-a", GROUP_A + ":" + portA, "--group-b", GROUP_B + ":" + portB, "--max-idle-ms", "5",
                "--pacing", pacing, "--json"));
            final List<byte[]> lineA = new ArrayList<>();
            final List<byte[]> lineB = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(endedSession(lineA) && endedSession(lineB)) && System.nanoTime() < deadline)
            {
                drain(receiverA, lineA);
                drain(receiverB, lineB);
                Thread.sleep(1);
            }
            final SimCommandTest.Result result = run.get(60, TimeUnit.SECONDS);
            assertEquals(0, result.exitCode(), result.err());
            assertEquals(0, SimCommandTest.jsonNumber(result.out(), "sendFailures"));

            final ItchSessionGenerator generator = new ItchSessionGenerator(
                new SimulationConfig().seed(9).instruments(20).messages(MESSAGES));
            final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
            long generated = 0;
            while (generator.next(message, 0) > 0)
            {
                generated++;
            }
            assertEquals(MESSAGES, generated);
            for (final List<byte[]> line : List.of(lineA, lineB))
            {
                final RecordedPackets.Decoded decoded = RecordedPackets.decode(line);
                assertEquals(MESSAGES, decoded.messages.size());
                assertEquals(0, decoded.malformedPackets + decoded.malformedMessages);
                for (final byte type : ItchMessageType.ALL)
                {
                    assertEquals(generator.count(type), decoded.counts[type & 0xFF], "type " + (char)type);
                }
                assertTrue(decoded.heartbeats > 0);
                assertEquals(1, decoded.endOfSession);
            }
            assertEquals(lineA.size(), SimCommandTest.jsonNumber(SimCommandTest.jsonObject(result.out(), "packets"), "A"));
            assertTrue(result.out().contains("multicast on lo"), result.out());
        }
        finally
        {
            receiverA.close();
            receiverB.close();
        }
    }
}
