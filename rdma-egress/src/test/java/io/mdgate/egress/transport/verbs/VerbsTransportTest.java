package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.support.Await;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verbs transport's primitives on a real RDMA device (Soft-RoCE in the guest): RDMA-CM control connections,
 * RDMA Writes into a peer's region, UD multicast to two subscriptions, and failures seen as NOT_CONNECTED.
 * Both ends run in this JVM, each with its own transport (device context, protection domain).
 */
@Tag("softroce")
class VerbsTransportTest
{
    private VerbsTransport server;
    private VerbsTransport client;

    /** @return the RC library both ends use: DiSNI, the default, here; the project's own in a subclass. */
    VerbsContext.Rc rc()
    {
        return VerbsContext.Rc.DISNI;
    }

    @BeforeEach
    void open()
    {
        SoftRoce.assumeDevice();
        final VerbsContext context = SoftRoce.context().rc(rc());
        server = new VerbsTransport(context);
        client = new VerbsTransport(SoftRoce.context(context.controlAddress(), context.multicastGroup()).rc(rc()));
    }

    @Test
    void shouldRunTheRcPathOnTheChosenLibrary()
    {
        final ControlChannel[] ends = connect();
        final MemoryRegion region = client.registerRegion(4096, RegionAccess.REMOTE_WRITE);
        final Class<?> channel = rc() == VerbsContext.Rc.DISNI ? DisniControlChannel.class : VerbsControlChannel.class;
        final Class<?> memory = rc() == VerbsContext.Rc.DISNI ? DisniRegion.class : VerbsRegion.class;
        assertEquals(rc(), server.rc());
        assertEquals(channel, ends[0].getClass(), "the publisher's end");
        assertEquals(channel, ends[1].getClass(), "the consumer's end");
        assertEquals(memory, region.getClass(), "registered regions come from the same library");
    }

    @AfterEach
    void close()
    {
        if (null != client)
        {
            client.close();
        }
        if (null != server)
        {
            server.close();
        }
    }

    /**
     * Connects the client to the server: [0] the server's end, [1] the client's. The client connects on another
     * thread, because connecting waits for the server to accept, as a consumer waits for the publisher's agent.
     */
    private ControlChannel[] connect()
    {
        final ControlServer listener = server.bindControl();
        final ControlChannel[] ends = new ControlChannel[2];
        final CompletableFuture<ControlChannel> connecting =
            CompletableFuture.supplyAsync(() -> client.connectControl(TimeUnit.SECONDS.toNanos(20)));
        Await.until("the connection request", 30, () -> null != (ends[0] = listener.accept()));
        ends[1] = connecting.join();
        return ends;
    }

    private static void send(final ControlChannel channel, final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[bytes.length]);
        buffer.putBytes(0, bytes);
        Await.until("room to send", 10, () -> channel.offer(buffer, 0, bytes.length) == TransportResult.OK);
    }

    private static List<byte[]> receive(final ControlChannel channel, final int count)
    {
        final List<byte[]> messages = new ArrayList<>();
        Await.until(count + " control messages", 30, () ->
        {
            assertTrue(channel.poll((buffer, offset, length) ->
            {
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                messages.add(copy);
            }, 64) >= 0, "the connection broke");
            return messages.size() >= count;
        });
        return messages;
    }

    @Test
    void shouldCarryControlMessagesWholeAndInOrderBothWays()
    {
        final ControlChannel[] ends = connect();
        final int count = 600;
        for (int i = 0; i < count; i++)
        {
            final byte[] message = new byte[1 + (i * 37) % ends[1].maxMessageLength()];
            message[0] = (byte)i;
            message[message.length - 1] = (byte)(i * 7);
            send(ends[1], message);
            if (i % 100 == 99)
            {
                ends[1].poll((buffer, offset, length) -> { }, 1);
            }
        }
        final List<byte[]> got = receive(ends[0], count);
        for (int i = 0; i < count; i++)
        {
            assertEquals(1 + (i * 37) % ends[1].maxMessageLength(), got.get(i).length, "length of message " + i);
            assertEquals((byte)i, got.get(i)[0]);
            assertEquals((byte)(i * 7), got.get(i)[got.get(i).length - 1]);
        }
        send(ends[0], new byte[] {42, 43});
        assertArrayEquals(new byte[] {42, 43}, receive(ends[1], 1).get(0));
    }

    @Test
    void shouldPlaceRdmaWritesInThePeersRegionInPostingOrder()
    {
        final ControlChannel[] ends = connect();
        final MemoryRegion target = client.registerRegion(1 << 16, RegionAccess.REMOTE_WRITE);
        final RemoteKey key = target.remoteKey();
        assertNotNull(key);
        final MemoryRegion source = server.registerRegion(1 << 16, RegionAccess.LOCAL);
        final RemoteRegion remote = ends[0].openRemoteRegion(key);
        assertEquals(1 << 16, remote.length());

        for (int round = 1; round <= 200; round++)
        {
            final int offset = (round * 64) % (1 << 15);
            for (int word = 0; word < 8; word++)
            {
                source.buffer().putLong(offset + word * 8, round * 1000L + word);
            }
            assertEquals(TransportResult.OK, post(() -> remote.write(offset, source, offset, 64)));
            assertEquals(TransportResult.OK, post(() -> remote.writeLong(60_000, offset)));
        }
        // A large, zero-copy write too: 32 KiB at the end, then the marker that follows it.
        for (int i = 0; i < 4096; i++)
        {
            source.buffer().putLong(32_768 + i * 8, ~i);
        }
        assertEquals(TransportResult.OK, post(() -> remote.write(32_768, source, 32_768, 32_768 - 8192)));
        assertEquals(TransportResult.OK, post(() -> remote.writeLong(61_000, 77)));
        Await.until("the last marker", 20, () ->
        {
            ends[0].poll((buffer, offset, length) -> { }, 1);
            return target.buffer().getLongVolatile(61_000) == 77;
        });
        for (int round = 1; round <= 200; round++)
        {
            final int offset = (round * 64) % (1 << 15);
            final int last = lastRoundAt(offset);
            for (int word = 0; word < 8; word++)
            {
                assertEquals(last * 1000L + word, target.buffer().getLong(offset + word * 8), "word " + word +
                    " at " + offset);
            }
        }
        for (int i = 0; i < (32_768 - 8192) / 8; i++)
        {
            assertEquals(~i, target.buffer().getLong(32_768 + i * 8, ByteOrder.LITTLE_ENDIAN));
        }
        assertEquals(TransportResult.OUT_OF_BOUNDS, remote.write(65_000, source, 0, 1024));
        assertEquals(TransportResult.OUT_OF_BOUNDS, remote.writeLong(12, 1));
    }

    private static int lastRoundAt(final int offset)
    {
        int last = 0;
        for (int round = 1; round <= 200; round++)
        {
            if ((round * 64) % (1 << 15) == offset)
            {
                last = round;
            }
        }
        return last;
    }

    private interface Post
    {
        int post();
    }

    private static int post(final Post post)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int result;
        while ((result = post.post()) == TransportResult.BACK_PRESSURED && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        return result;
    }

    @Test
    void shouldBreakTheConnectionWhenAWriteCarriesAWrongKey()
    {
        final ControlChannel[] ends = connect();
        final MemoryRegion target = client.registerRegion(4096, RegionAccess.REMOTE_WRITE);
        final RemoteKey key = target.remoteKey();
        final RemoteRegion wrong = ends[0].openRemoteRegion(new RemoteKey(key.address(), key.key() ^ 0x5a5a00, 4096));
        final MemoryRegion source = server.registerRegion(4096, RegionAccess.LOCAL);
        source.buffer().putLong(0, 99);
        assertEquals(TransportResult.OK, wrong.write(0, source, 0, 64));
        Await.until("the refused write to break the connection", 30, () ->
        {
            ends[0].poll((buffer, offset, length) -> { }, 1);
            wrong.writeLong(0, 5);
            return !ends[0].isConnected();
        });
        assertEquals(0, target.buffer().getLong(0), "a write with a wrong key must not land");
    }

    @Test
    void shouldDropRequestsWhoseConsumerGaveUpAndTakeTheWaitingOneInTheSameAccept() throws Exception
    {
        final ControlServer listener = server.bindControl();
        // Nobody accepts within the consumer's time (a publisher starved of CPU, a link that was down): it gives up,
        // leaving its requests behind in the listener's queue.
        final long started = System.nanoTime();
        try
        {
            client.connectControl(TimeUnit.MILLISECONDS.toNanos(600));
            throw new AssertionError("connected although nobody accepted");
        }
        catch (final TransportException expected)
        {
            // the consumer gave up, as it should
        }
        final long gaveUpAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        final CompletableFuture<ControlChannel> connecting =
            CompletableFuture.supplyAsync(() -> client.connectControl(TimeUnit.SECONDS.toNanos(20)));
        Thread.sleep(1_000);

        final ControlChannel accepted = listener.accept();

        assertNotNull(accepted, "one accept takes the waiting request past the stale ones (the consumer gave up " +
            "after " + gaveUpAfterMillis + " ms; stale so far " + listener.connectionsStale() + ")");
        assertTrue(listener.connectionsStale() >= 1, "the stale requests are counted: " +
            listener.connectionsStale());
        final ControlChannel clientEnd = connecting.get(30, TimeUnit.SECONDS);
        send(accepted, new byte[] { 1, 2, 3 });
        assertArrayEquals(new byte[] { 1, 2, 3 }, receive(clientEnd, 1).get(0), "the connection taken works");
    }

    @Test
    void shouldSeeThePeerGoAwayAsNotConnected()
    {
        final ControlChannel[] ends = connect();
        ends[1].close();
        Await.until("the disconnect", 30, () -> ends[0].poll((buffer, offset, length) -> { }, 1) ==
            TransportResult.NOT_CONNECTED);
        assertFalse(ends[0].isConnected());
        assertEquals(TransportResult.NOT_CONNECTED, ends[0].offer(new UnsafeBuffer(new byte[8]), 0, 8));
    }

    @Test
    void shouldDeliverEveryMulticastDatagramToTwoSubscriptionsInOrder()
    {
        final int streamId = 3;
        final MulticastSubscription first = client.addSubscription(streamId);
        final MulticastSubscription second = server.addSubscription(streamId);
        final MulticastPublication publication = server.addPublication(streamId);
        final int mtu = publication.maxDatagramLength();
        assertTrue(mtu >= 256 && mtu <= 4096, "mtu " + mtu);
        final MemoryRegion source = server.registerRegion(mtu * 4, RegionAccess.LOCAL);
        final int count = 500;
        final List<Long> gotFirst = new ArrayList<>();
        final List<Long> gotSecond = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            final int offset = (i % 4) * mtu;
            final int length = 16 + (i * 13) % (mtu - 16);
            source.buffer().putLong(offset, i);
            source.buffer().putLong(offset + length - 8, -i);
            assertEquals(TransportResult.OK, post(() -> publication.offer(source, offset, length)));
            drain(first, gotFirst);
            drain(second, gotSecond);
        }
        Await.until("every datagram at both subscriptions", 30, () ->
        {
            drain(first, gotFirst);
            drain(second, gotSecond);
            return gotFirst.size() >= count && gotSecond.size() >= count;
        });
        for (int i = 0; i < count; i++)
        {
            assertEquals(i, gotFirst.get(i));
            assertEquals(i, gotSecond.get(i));
        }
        assertEquals(TransportResult.TOO_LONG, publication.offer(source, 0, mtu + 1));
    }

    private static void drain(final MulticastSubscription subscription, final List<Long> into)
    {
        subscription.poll((buffer, offset, length) ->
        {
            final long value = buffer.getLong(offset);
            assertEquals(-value, buffer.getLong(offset + length - 8), "datagram " + value + " damaged");
            into.add(value);
        }, 64);
    }
}
