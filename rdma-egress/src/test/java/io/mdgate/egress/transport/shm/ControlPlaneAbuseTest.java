package io.mdgate.egress.transport.shm;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerRejectedException;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.HelloFlyweight;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.RemoteKey;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The shm control plane under abuse, over the real transport: a publisher on its own thread, real Unix domain
 * sockets, and peers that connect and never say HELLO, or say it with hostile names.
 */
class ControlPlaneAbuseTest
{
    private static final SystemEpochNanoClock CLOCK = new SystemEpochNanoClock();
    private static final BufferPoolMXBean DIRECT = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
        .stream().filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<SocketChannel> idle = new ArrayList<>();
    private PublisherHarness harness;

    @AfterEach
    void tearDown() throws Exception
    {
        for (final SocketChannel channel : idle)
        {
            channel.close();
        }
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    @Test
    @Tag("slow")
    void shouldKeepTicksFlowingAndMemoryBoundedWhileAThousandConnectionsNeverSayHello() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("alpha", "beta"),
            context -> { });
        final EgressConsumer alpha = consumer("alpha");
        alpha.subscribeAll();
        Await.until("alpha's subscription", 10, () ->
        {
            alpha.poll((buffer, offset) -> { }, 100);
            return alpha.subscriptionsAwaitingAnswer() == 0;
        });

        final AtomicBoolean feeding = new AtomicBoolean(true);
        final AtomicLong published = new AtomicLong();
        final Thread feeder = new Thread(() -> feed(feeding, published), "test-feeder");
        final TickWatch watch = new TickWatch(alpha);
        final Thread poller = new Thread(watch, "test-poller");
        feeder.start();
        poller.start();
        try
        {
            Await.until("alpha's first ticks", 10, () -> watch.received.get() >= 200);
            final long baselineCount = DIRECT.getCount();
            final long baselineBytes = DIRECT.getMemoryUsed();
            final DirectPeak peak = new DirectPeak();
            final Thread sampler = new Thread(peak, "test-direct-sampler");
            sampler.start();

            final long attackStart = System.nanoTime();
            int refusedConnects = 0;
            for (int i = 0; i < 1000; i++)
            {
                try
                {
                    idle.add(connectRaw());
                }
                catch (final IOException ex)
                {
                    refusedConnects++;
                }
            }
            final long attackMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - attackStart);

            final long connectStart = System.nanoTime();
            String betaOutcome = "connected";
            try
            {
                consumer("beta");
            }
            catch (final ConsumerRejectedException ex)
            {
                betaOutcome = "rejected: " + ex.getMessage();
            }
            final long betaConnectMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - connectStart);

            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1500)); // past the default HELLO timeout
            peak.stop();
            sampler.join();
            feeding.set(false);
            feeder.join();
            final long catchUpDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (watch.lastSequence.get() < published.get() && System.nanoTime() < catchUpDeadline)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            watch.stop();
            poller.join();

            final long stallMillis = TimeUnit.NANOSECONDS.toMillis(watch.longestGapNanos);
            final long extraBuffers = peak.count - baselineCount;
            final long extraMiB = (peak.bytes - baselineBytes) >> 20;
            System.out.printf("1000 idle connections in %d ms (%d refused at connect); beta %s in %d ms; " +
                "longest tick gap at alpha %d ms over %d ticks (last %d of %d); direct buffers +%d (+%d MiB) at peak%n",
                attackMillis, refusedConnects, betaOutcome, betaConnectMillis, stallMillis, watch.received.get(),
                watch.lastSequence.get(), published.get(), extraBuffers, extraMiB);

            assertEquals(published.get(), watch.lastSequence.get(), "alpha received every tick");
            assertEquals("connected", betaOutcome, "a configured consumer connects during the flood");
            assertTrue(betaConnectMillis < 1000, "beta connected in " + betaConnectMillis + " ms");
            assertTrue(stallMillis < 250, "alpha saw a " + stallMillis + " ms gap between ticks");
            assertTrue(extraBuffers <= 16, "the flood made " + extraBuffers + " direct buffers");
            assertTrue(extraMiB <= 8, "the flood took " + extraMiB + " MiB of direct memory");
            final var counters = harness.publisher().counters();
            System.out.printf("closed: %d over the limit, %d without HELLO in time; %d handed to the publisher%n",
                counters.connectionsOverLimit(), counters.helloTimeouts(), counters.connectionsAccepted());
            assertEquals(1000, counters.connectionsOverLimit() + counters.helloTimeouts(),
                "every idle connection closed and counted");
            assertEquals(2, counters.connectionsAccepted(), "only alpha and beta reached the publisher's thread");
            assertEquals(2, counters.consumersWelcomed());
        }
        finally
        {
            feeding.set(false);
            watch.stop();
            feeder.join();
            poller.join();
        }
    }

    @Test
    void shouldLetAConfiguredConsumerInWhateverNumberOfIdleConnectionsWait() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("alpha"), context -> { });
        for (int i = 0; i < 20; i++)
        {
            idle.add(connectRaw());
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // the publisher has taken them in

        final EgressConsumer alpha = consumer("alpha");

        assertTrue(alpha.isConnected());
        assertEquals(1, harness.publisher().activeConsumers());
        Await.until("the idle connections timed out", 5, () -> harness.publisher().counters().helloTimeouts() == 20);
    }

    @Test
    void shouldLogAHostileNameOnceOnOneLineWithItsControlCharactersEscaped() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("alpha"), context -> { });
        try (SocketChannel channel = connectRaw())
        {
            sendHello(channel, "x\nmdgate egress: forged\0line");
            Await.until("the refusal", 5, () -> harness.publisher().counters().authenticationFailures() == 1);
        }
        Await.until("the refusal logged", 5, () -> !refusals().isEmpty());

        final List<String> refusals = refusals();
        assertEquals(1, refusals.size(), refusals.toString());
        for (final String event : harness.events())
        {
            assertEquals(-1, event.indexOf('\n'), "a raw newline in: " + event);
            assertEquals(-1, event.indexOf('\0'), "a raw NUL in: " + event);
        }
        assertTrue(refusals.get(0).contains("x\\nmdgate egress: forged\\x00line"), refusals.get(0));
    }

    @Test
    void shouldBoundTheRefusalLogWhateverNumberOfDistinctNamesIsTried() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("alpha"), context -> { });
        for (int i = 0; i < 100; i++)
        {
            try (SocketChannel channel = connectRaw())
            {
                sendHello(channel, "stranger-" + i);
                final int expected = i + 1;
                Await.until("refusal " + expected, 5,
                    () -> harness.publisher().counters().authenticationFailures() == expected);
            }
        }

        final long lines = harness.events().size();
        System.out.println("100 distinct unknown names: " + lines + " log lines");
        assertTrue(lines <= 20, lines + " lines: " + harness.events());
        assertEquals(100, harness.publisher().counters().authenticationFailures());
        assertEquals(100 - lines + 1, harness.publisher().counters().refusalsNotLogged(), harness.events().toString());
    }

    private List<String> refusals()
    {
        return harness.events().stream().filter(event -> event.contains("refused")).toList();
    }

    private EgressConsumer consumer(final String name)
    {
        final ShmTransport transport = new ShmTransport(ShmInstance.context(harness.shm().instance()));
        closeables.add(transport);
        final EgressConsumer consumer = EgressConsumer.connect(transport,
            new ConsumerContext().name(name).token(name + PublisherHarness.TOKEN_SUFFIX).controlPollNanos(0));
        closeables.add(consumer);
        return consumer;
    }

    private SocketChannel connectRaw() throws IOException
    {
        final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try
        {
            channel.connect(UnixDomainSocketAddress.of(
                new ShmNames(harness.shm().directory(), harness.shm().instance()).controlSocket()));
        }
        catch (final IOException ex)
        {
            channel.close();
            throw ex;
        }
        return channel;
    }

    private static void sendHello(final SocketChannel channel, final String name) throws IOException
    {
        final ByteBuffer frame = ByteBuffer.allocate(4 + HelloFlyweight.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(0, HelloFlyweight.LENGTH);
        final HelloFlyweight hello = new HelloFlyweight();
        hello.wrapForEncode(new UnsafeBuffer(frame, 4, HelloFlyweight.LENGTH), 0, ControlMessageDescriptor.HELLO);
        hello.ringSlots(0).tableSlots(0).region(new RemoteKey(1, 1, 64)).name(name).token(new byte[] {1, 2, 3});
        while (frame.hasRemaining())
        {
            channel.write(frame);
        }
    }

    /** Publishes a tick every millisecond until told to stop. */
    private void feed(final AtomicBoolean feeding, final AtomicLong published)
    {
        long sequence = 0;
        long next = System.nanoTime();
        while (feeding.get())
        {
            sequence++;
            harness.publish(Ticks.add(sequence, (int)(sequence % 10) + 1, CLOCK.nanoTime()));
            published.set(sequence);
            next += TimeUnit.MILLISECONDS.toNanos(1);
            LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
        }
    }

    /**
     * Polls a consumer and keeps the longest time between two ticks it delivered, and from the last tick to the end
     * (a consumer that stopped receiving shows it).
     */
    private static final class TickWatch implements Runnable
    {
        private final EgressConsumer consumer;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong received = new AtomicLong();
        private final AtomicLong lastSequence = new AtomicLong();
        private volatile long longestGapNanos;
        private long lastArrivalNanos;

        TickWatch(final EgressConsumer consumer)
        {
            this.consumer = consumer;
        }

        @Override
        public void run()
        {
            while (running.get())
            {
                consumer.poll((buffer, offset) ->
                {
                    final long now = System.nanoTime();
                    if (lastArrivalNanos != 0 && now - lastArrivalNanos > longestGapNanos)
                    {
                        longestGapNanos = now - lastArrivalNanos;
                    }
                    lastArrivalNanos = now;
                    received.incrementAndGet();
                    lastSequence.set(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
                }, 256);
                LockSupport.parkNanos(50_000);
            }
            if (lastArrivalNanos != 0)
            {
                longestGapNanos = Math.max(longestGapNanos, System.nanoTime() - lastArrivalNanos);
            }
        }

        void stop()
        {
            running.set(false);
        }
    }

    /** Samples the JVM's direct buffers and keeps the highest count and size seen. */
    private static final class DirectPeak implements Runnable
    {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private volatile long count;
        private volatile long bytes;

        @Override
        public void run()
        {
            while (running.get())
            {
                count = Math.max(count, DIRECT.getCount());
                bytes = Math.max(bytes, DIRECT.getMemoryUsed());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }

        void stop()
        {
            running.set(false);
        }
    }
}
