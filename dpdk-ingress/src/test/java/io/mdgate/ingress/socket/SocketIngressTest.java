package io.mdgate.ingress.socket;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel-socket ingress on loopback multicast: groups in 239.255.0.0/16 chosen per run, ephemeral ports,
 * bounded traffic sent by the test's own thread through {@code lo}. Skipped, with the reason printed, where this host
 * cannot loop multicast back on {@code lo}.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SAME_THREAD)
class SocketIngressTest
{
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final int WARM_UP_DATAGRAMS = 30_000;
    private static final int WINDOW_DATAGRAMS = 5_000;
    private static final int MAX_WINDOWS = 10;
    private static NetworkInterface lo;
    private static String groupPrefix;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void requireLoopbackMulticast() throws IOException
    {
        lo = NetworkInterface.getByName("lo");
        skipUnless(null != lo, "no loopback interface named lo");
        groupPrefix = "239.255." + (1 + ProcessHandle.current().pid() % 250) + ".";
        final String group = groupPrefix + (1 + ThreadLocalRandom.current().nextInt(200));
        final int port = freePort();
        try (DatagramChannel receiver = join(group, port); DatagramChannel sender = sender(group, port))
        {
            sender.write(ByteBuffer.wrap(new byte[] { 1 }));
            final ByteBuffer received = ByteBuffer.allocate(16);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (null == receiver.receive(received))
            {
                skipUnless(System.nanoTime() < deadline, "a probe datagram sent to " + group + " on lo never arrived");
                Thread.onSpinWait();
            }
        }
        catch (final IOException ex)
        {
            skipUnless(false, "multicast on lo is unavailable: " + ex);
        }
    }

    private static void skipUnless(final boolean condition, final String reason)
    {
        if (!condition)
        {
            System.out.println("SKIPPED SocketIngressTest: " + reason);
            Assumptions.abort(reason);
        }
    }

    private static int freePort() throws IOException
    {
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET))
        {
            probe.bind(new InetSocketAddress(0));
            return ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
    }

    private static DatagramChannel join(final String group, final int port) throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.bind(new InetSocketAddress(InetAddress.getByName(group), port));
        channel.join(InetAddress.getByName(group), lo);
        channel.configureBlocking(false);
        return channel;
    }

    /** @return a socket sending to the group through lo, connected so that {@code write} needs no address. */
    private static DatagramChannel sender(final String group, final int port) throws IOException
    {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, lo);
        channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 0);
        channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
        channel.connect(new InetSocketAddress(InetAddress.getByName(group), port));
        return channel;
    }

    private <T extends AutoCloseable> T closeLater(final T resource)
    {
        toClose.add(resource);
        return resource;
    }

    @AfterEach
    void closeAll() throws Exception
    {
        for (final AutoCloseable resource : toClose)
        {
            resource.close();
        }
    }

    private static String group(final int index)
    {
        return groupPrefix + index;
    }

    private SocketIngress start(final String lines)
    {
        final SocketIngress ingress = closeLater(new SocketIngress(new SocketIngress.Context()
            .lines(IngressLines.parse(lines)).interfaceName("lo").receiveBufferBytes(1 << 20)));
        ingress.start();
        return ingress;
    }

    private static void pollUntil(final SocketIngress ingress, final PacketHandler handler, final BooleanSupplier done)
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (!done.getAsBoolean())
        {
            assertTrue(ingress.poll(handler) >= 0);
            assertTrue(System.nanoTime() < deadline, "datagrams did not all arrive on lo");
        }
    }

    @Test
    void shouldHandEachDatagramToItsLineInOrderWithAnEpochTimestamp() throws IOException
    {
        final int portA = freePort();
        final int portB = freePort();
        final SocketIngress ingress =
            start("A=" + group(201) + ":" + portA + ",B=" + group(202) + ":" + portB);
        final DatagramChannel toA = closeLater(sender(group(201), portA));
        final DatagramChannel toB = closeLater(sender(group(202), portB));
        final List<String> received = new ArrayList<>();
        final List<Long> stamps = new ArrayList<>();
        final PacketHandler handler = (line, buffer, offset, length, timestamp) ->
        {
            received.add(IngressLines.name(line) + ":" + buffer.getInt(offset, ByteOrder.BIG_ENDIAN) + "/" + length);
            stamps.add(timestamp);
        };
        final long before = Instant.now().toEpochMilli();

        for (int i = 0; i < 50; i++)
        {
            toA.write(ByteBuffer.allocate(100 + i).putInt(0, i));
            toB.write(ByteBuffer.allocate(300).putInt(0, 1_000 + i));
        }
        pollUntil(ingress, handler, () -> received.size() == 100);

        final List<String> a = received.stream().filter(s -> s.startsWith("A:")).toList();
        final List<String> b = received.stream().filter(s -> s.startsWith("B:")).toList();
        assertEquals(50, a.size());
        assertEquals("A:0/100", a.get(0));
        assertEquals("A:49/149", a.get(49));
        assertEquals("B:1049/300", b.get(49));
        final long after = Instant.now().toEpochMilli();
        for (final long stamp : stamps)
        {
            final long millis = TimeUnit.NANOSECONDS.toMillis(stamp);
            assertTrue(millis >= before - 50 && millis <= after + 50, "ns since the epoch: " + stamp);
        }
        final IngressStats stats = ingress.stats();
        assertEquals(50, stats.linePackets(FeedLines.A));
        assertEquals(50 * 100 + 49 * 50 / 2, stats.lineBytes(FeedLines.A));
        assertEquals(50 * 300, stats.lineBytes(FeedLines.B));
        assertEquals(0, stats.linePackets(FeedLines.RECOVERY));
        assertEquals(2, stats.port("sockets"));
        assertTrue(stats.port("soRcvbuf") > 0);
        assertTrue(stats.toJson().contains("\"source\":\"sockets on lo: A=" + group(201)), stats.toJson());
    }

    @Test
    void shouldReceiveOnlyItsOwnGroupWhenTheHostJoinedAnotherOnTheSamePort() throws IOException
    {
        final int port = freePort();
        final SocketIngress ingress = start("A=" + group(203) + ":" + port);
        final DatagramChannel otherMember = closeLater(join(group(204), port));
        final DatagramChannel toOther = closeLater(sender(group(204), port));
        final DatagramChannel toA = closeLater(sender(group(203), port));
        final List<Integer> received = new ArrayList<>();

        toOther.write(ByteBuffer.allocate(40).putInt(0, 7));
        final ByteBuffer seen = ByteBuffer.allocate(64);
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (null == otherMember.receive(seen))
        {
            assertTrue(System.nanoTime() < deadline, "the other group's datagram never arrived");
        }
        toA.write(ByteBuffer.allocate(40).putInt(0, 8));
        pollUntil(ingress, (line, buffer, offset, length, timestamp) -> received.add(buffer.getInt(offset, ByteOrder.BIG_ENDIAN)),
            () -> !received.isEmpty());
        ingress.poll((line, buffer, offset, length, timestamp) -> received.add(buffer.getInt(offset, ByteOrder.BIG_ENDIAN)));

        assertEquals(List.of(8), received);
    }

    @Test
    void shouldFeedASessionThatFillsOneLinesLossesFromTheOther() throws IOException
    {
        final int portA = freePort();
        final int portB = freePort();
        final SocketIngress ingress = start("A=" + group(205) + ":" + portA + ",B=" + group(206) + ":" + portB);
        final DatagramChannel toA = closeLater(sender(group(205), portA));
        final DatagramChannel toB = closeLater(sender(group(206), portB));
        final List<Long> sequences = new ArrayList<>();
        final FeedSession session = new FeedSession(new FeedSession.Context()
            .messageHandler((buffer, offset, length, sequence) -> sequences.add(sequence))
            .gapHandler((first, count) -> sequences.add(-first)));
        session.doWork(System.nanoTime());

        final ByteBuffer packet = ByteBuffer.allocateDirect(1_400);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        encoder.wrap(new UnsafeBuffer(packet), 0, 1_400).session(MoldUdp64Session.of("SOCKTEST01"));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[30]);
        for (int i = 0; i < 200; i++)
        {
            encoder.reset(1 + i * 3L);
            for (int m = 0; m < 3; m++)
            {
                encoder.tryAppend(message, 0, 30);
            }
            if (i % 7 != 3)
            {
                toA.write(packet.clear().limit(encoder.length()));
            }
            if (i % 7 != 5)
            {
                toB.write(packet.clear().limit(encoder.length()));
            }
        }
        toA.write(packet.clear().limit(encoder.endOfSession(601)));

        pollUntil(ingress, session, session::isEndOfSession);

        assertEquals(600, sequences.size());
        for (int i = 0; i < 600; i++)
        {
            assertEquals(i + 1, sequences.get(i));
        }
        assertTrue(session.messages(FeedLines.B) >= 29 * 3, "B filled every packet A lost");
    }

    /**
     * Sends datagrams one at a time and polls each in.
     *
     * @return bytes this thread allocated inside {@code poll}.
     */
    private static long pollEach(
        final SocketIngress ingress,
        final DatagramChannel sender,
        final ByteBuffer datagram,
        final PacketHandler handler,
        final com.sun.management.ThreadMXBean threads,
        final int datagrams) throws IOException
    {
        final long thread = Thread.currentThread().getId();
        long allocated = 0;
        for (int i = 0; i < datagrams; i++)
        {
            sender.write(datagram.clear());
            final long before = threads.getThreadAllocatedBytes(thread);
            final long deadline = System.nanoTime() + WAIT_NANOS;
            while (ingress.poll(handler) == 0)
            {
                assertTrue(System.nanoTime() < deadline, "datagram did not arrive");
            }
            allocated += threads.getThreadAllocatedBytes(thread) - before;
        }
        return allocated;
    }

    /**
     * Polling allocates nothing once compiled. C2's compilations and deoptimizations of the JDK's receive path
     * allocate a few hundred bytes now and then while the JIT settles (none with the interpreter or C1 alone), so
     * after a warm-up the test measures windows of polls until one allocates nothing, and fails if any window
     * allocated as much as a byte per datagram.
     */
    @Test
    void shouldNotAllocateWhilePolling() throws IOException
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        final int port = freePort();
        final SocketIngress ingress = start("A=" + group(207) + ":" + port);
        final DatagramChannel toA = closeLater(sender(group(207), port));
        final ByteBuffer datagram = ByteBuffer.allocateDirect(200);
        final long[] sum = new long[1];
        final PacketHandler handler = (line, buffer, offset, length, timestamp) -> sum[0] += length;

        pollEach(ingress, toA, datagram, handler, threads, WARM_UP_DATAGRAMS);
        final List<Long> windows = new ArrayList<>();
        while (windows.size() < MAX_WINDOWS && (windows.isEmpty() || windows.get(windows.size() - 1) != 0))
        {
            final long allocated = pollEach(ingress, toA, datagram, handler, threads, WINDOW_DATAGRAMS);
            assertTrue(allocated < WINDOW_DATAGRAMS, "poll allocates per datagram: " + allocated + " bytes for " +
                WINDOW_DATAGRAMS);
            windows.add(allocated);
        }

        assertEquals(0, windows.get(windows.size() - 1), "bytes allocated by poll in windows of " +
            WINDOW_DATAGRAMS + " datagrams: " + windows);
        assertEquals((WARM_UP_DATAGRAMS + (long)WINDOW_DATAGRAMS * windows.size()) * 200L, sum[0]);
    }

    @Test
    void shouldRefuseToStartOnAnInterfaceThatDoesNotExistNamingTheOnesThatDo()
    {
        final SocketIngress ingress = closeLater(new SocketIngress(new SocketIngress.Context()
            .lines(IngressLines.parse("A=239.255.9.9:30000")).interfaceName("mdg-none0")));
        final IllegalStateException refused = assertThrows(IllegalStateException.class, ingress::start);
        assertTrue(refused.getMessage().contains("network interface 'mdg-none0' does not exist"), refused.getMessage());
        assertTrue(refused.getMessage().contains("lo"), refused.getMessage());
        assertEquals(SocketIngress.NOT_OPEN, ingress.poll((line, buffer, offset, length, timestamp) -> { }));
    }

    @Test
    void shouldRefuseMissingOrOutOfRangeSettingsSayingWhatIsExpected()
    {
        final String missing = assertThrows(IllegalArgumentException.class,
            () -> new SocketIngress(new SocketIngress.Context())).getMessage();
        assertTrue(missing.contains("lines are required"), missing);
        assertTrue(missing.contains("interfaceName is required"), missing);
        final String range = assertThrows(IllegalArgumentException.class,
            () -> new SocketIngress(new SocketIngress.Context().lines(IngressLines.parse("A=239.255.9.9:30000"))
                .interfaceName("lo").burst(0).receiveBufferBytes(10))).getMessage();
        assertTrue(range.contains("burst must be 1 to 4096"), range);
        assertTrue(range.contains("receiveBufferBytes must be 4096"), range);
    }

    @Test
    void shouldStopReceivingOnCloseAndRefuseToStartAgain() throws IOException
    {
        final int port = freePort();
        final SocketIngress ingress = start("A=" + group(208) + ":" + port);
        assertTrue(ingress.isOpen());
        ingress.close();
        ingress.close();
        assertEquals(SocketIngress.NOT_OPEN, ingress.poll((line, buffer, offset, length, timestamp) -> { }));
        assertThrows(IllegalStateException.class, ingress::start);
    }
}
