package io.mdgate.egress.transport.shm;

import io.mdgate.egress.protocol.SharedLogDescriptor;
import io.mdgate.egress.protocol.SharedLogReader;
import io.mdgate.egress.protocol.SharedLogWriter;
import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.ControlServer;
import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.MulticastPublication;
import io.mdgate.egress.transport.MulticastSubscription;
import io.mdgate.egress.transport.RegionAccess;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.SharedLog;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

class ShmTransportTest
{
    private ShmContext context;
    private ShmTransport publisherSide;
    private ShmTransport consumerSide;

    @BeforeEach
    void setUp()
    {
        context = ShmInstance.context(ShmInstance.unique()).streamSlots(16).mtu(256);
        publisherSide = new ShmTransport(context);
        consumerSide = new ShmTransport(ShmInstance.context(context.instance()));
    }

    @AfterEach
    void tearDown()
    {
        consumerSide.close();
        publisherSide.close();
        ShmInstance.removeFiles(context);
    }

    @Test
    void shouldWriteIntoAPeersRegionThroughItsKeyOverTheControlConnection()
    {
        final ControlServer server = publisherSide.bindControl();
        final ControlChannel consumerChannel = consumerSide.connectControl(TimeUnit.SECONDS.toNanos(5));
        final ControlChannel publisherChannel = acceptGreeted(server, consumerChannel);

        final MemoryRegion target = consumerSide.registerRegion(1024, RegionAccess.REMOTE_WRITE);
        final MemoryRegion source = publisherSide.registerRegion(64, RegionAccess.LOCAL);
        source.buffer().putLong(8, 0x1122334455667788L);
        final RemoteRegion remote = publisherChannel.openRemoteRegion(target.remoteKey());

        assertEquals(TransportResult.OK, remote.write(512, source, 8, 8));
        assertEquals(TransportResult.OK, remote.writeLong(1016, 42));
        assertEquals(0x1122334455667788L, target.buffer().getLongVolatile(512));
        assertEquals(42, target.buffer().getLongVolatile(1016));
        assertEquals(TransportResult.OUT_OF_BOUNDS, remote.write(1020, source, 0, 8));
        assertEquals(TransportResult.OUT_OF_BOUNDS, remote.writeLong(1020, 1));
        assertTrue(consumerChannel.isConnected());
    }

    @Test
    void shouldRefuseARemoteRegionWithTheWrongKey()
    {
        final ControlServer server = publisherSide.bindControl();
        final ControlChannel publisherChannel =
            acceptGreeted(server, consumerSide.connectControl(TimeUnit.SECONDS.toNanos(5)));
        final MemoryRegion target = consumerSide.registerRegion(1024, RegionAccess.REMOTE_WRITE);
        final RemoteKey key = target.remoteKey();

        final TransportException wrongKey = assertThrows(TransportException.class,
            () -> publisherChannel.openRemoteRegion(new RemoteKey(key.address(), key.key() ^ 1, key.length())));
        assertTrue(wrongKey.getMessage().contains("refuses the key"), wrongKey.getMessage());
        assertThrows(TransportException.class,
            () -> publisherChannel.openRemoteRegion(new RemoteKey(key.address(), key.key(), key.length() + 4096)));
    }

    @Test
    void shouldCreateFilesReadableAndWritableByOwnerAndGroupOnly() throws Exception
    {
        final MemoryRegion region = publisherSide.registerRegion(100, RegionAccess.REMOTE_WRITE);
        publisherSide.bindControl();
        publisherSide.addPublication(7);
        final Path regionFile = new ShmNames(context.directory(), context.instance())
            .regionFile(region.remoteKey().address());
        final Set<PosixFilePermission> expected = PosixFilePermissions.fromString("rw-rw----");

        assertEquals(expected, Files.getPosixFilePermissions(regionFile));
        assertEquals(expected, Files.getPosixFilePermissions(
            new ShmNames(context.directory(), context.instance()).streamFile(7)));
        assertEquals(expected, Files.getPosixFilePermissions(
            new ShmNames(context.directory(), context.instance()).controlSocket()));
    }

    @Test
    void shouldShareTheTickLogWithConsumersReadOnlyAndRemoveItWithThePublisher() throws Exception
    {
        final SharedLog written = publisherSide.createSharedLog(5, SharedLogDescriptor.length(16));
        final SharedLogWriter writer = new SharedLogWriter(written.buffer(), 16, 5, 99);
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        tick.putLong(0, 0x0102030405060708L);
        writer.append(tick, 0);
        final Path file = new ShmNames(context.directory(), context.instance()).sharedLogFile(5);
        assertEquals(PosixFilePermissions.fromString("rw-rw----"), Files.getPosixFilePermissions(file));

        final SharedLog read = consumerSide.openSharedLog(5);
        assertNull(SharedLogReader.check(read.buffer(), 5));
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[64]);
        assertEquals(SharedLogReader.READ, new SharedLogReader(read.buffer()).read(0, copy, 0));
        assertEquals(0x0102030405060708L, copy.getLong(0));
        read.close();
        assertTrue(Files.exists(file), "a consumer closing its mapping leaves the log to the publisher");
        written.close();
        assertFalse(Files.exists(file), "the publisher removes its log");
        assertThrows(TransportException.class, () -> consumerSide.openSharedLog(5));
    }

    @Test
    void shouldRemoveTheFilesItMadeWhenClosed()
    {
        publisherSide.registerRegion(100, RegionAccess.REMOTE_WRITE);
        publisherSide.bindControl();
        publisherSide.addPublication(7);
        assertEquals(3, ShmInstance.countFiles(context));

        publisherSide.close();

        assertEquals(0, ShmInstance.countFiles(context));
    }

    @Test
    void shouldRemoveTheRegionFileOfADeadOwnerAtTheNextRegistration() throws Exception
    {
        final MemoryRegion orphan = publisherSide.registerRegion(100, RegionAccess.REMOTE_WRITE);
        final Path file = new ShmNames(context.directory(), context.instance()).regionFile(orphan.remoteKey().address());
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final ByteBuffer pid = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, gone.pid());
            channel.write(pid, ShmRegionDescriptor.OWNER_PID_OFFSET);
        }
        final MemoryRegion live = publisherSide.registerRegion(100, RegionAccess.REMOTE_WRITE);

        try (ShmTransport another = new ShmTransport(ShmInstance.context(context.instance())))
        {
            another.registerRegion(100, RegionAccess.REMOTE_WRITE);
            assertFalse(Files.exists(file), "the dead owner's region was removed");
            assertTrue(Files.exists(new ShmNames(context.directory(), context.instance())
                .regionFile(live.remoteKey().address())), "a live owner's region stays");
        }
    }

    @Test
    void shouldDeliverDatagramsInOrderToEveryReaderThatKeepsUp()
    {
        final MulticastPublication publication = publisherSide.addPublication(3);
        final MulticastSubscription first = consumerSide.addSubscription(3);
        final MulticastSubscription second = consumerSide.addSubscription(3);
        final MemoryRegion source = publisherSide.registerRegion(256, RegionAccess.LOCAL);

        for (int i = 0; i < 10; i++)
        {
            source.buffer().putInt(0, i);
            assertEquals(TransportResult.OK, publication.offer(source, 0, 4 + i));
        }

        for (final MulticastSubscription subscription : List.of(first, second))
        {
            final List<Integer> received = new ArrayList<>();
            final int count = subscription.poll((buffer, offset, length) ->
            {
                assertEquals(4 + buffer.getInt(offset), length);
                received.add(buffer.getInt(offset));
            }, 100);
            assertEquals(10, count);
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), received);
            assertEquals(0, subscription.lossCount());
        }
    }

    @Test
    void shouldTellALappedReaderHowManyDatagramsItLostAndCarryOnFromNewerOnes()
    {
        final MulticastPublication publication = publisherSide.addPublication(3);
        final MulticastSubscription slow = consumerSide.addSubscription(3);
        final MemoryRegion source = publisherSide.registerRegion(256, RegionAccess.LOCAL);
        for (int i = 0; i < 40; i++)
        {
            source.buffer().putInt(0, i);
            publication.offer(source, 0, 4);
        }

        final List<Integer> received = new ArrayList<>();
        slow.poll((buffer, offset, length) -> received.add(buffer.getInt(offset)), 100);

        assertEquals(40 - 8, slow.lossCount());
        assertEquals(List.of(32, 33, 34, 35, 36, 37, 38, 39), received);
    }

    @Test
    void shouldRefuseADatagramLongerThanTheMtu()
    {
        final MulticastPublication publication = publisherSide.addPublication(3);
        final MemoryRegion source = publisherSide.registerRegion(512, RegionAccess.LOCAL);

        assertEquals(TransportResult.TOO_LONG, publication.offer(source, 0, 257));
        assertEquals(TransportResult.OK, publication.offer(source, 0, 256));
    }

    @Test
    void shouldCarryControlMessagesBothWaysWholeAndInOrder()
    {
        final ControlServer server = publisherSide.bindControl();
        final ControlChannel consumerChannel = consumerSide.connectControl(TimeUnit.SECONDS.toNanos(5));
        final ControlChannel publisherChannel = acceptGreeted(server, consumerChannel);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[4096]);

        for (int i = 0; i < 100; i++)
        {
            message.setMemory(0, 4096, (byte)i);
            assertEquals(TransportResult.OK, consumerChannel.offer(message, 0, 100 + i * 30));
        }
        final List<Integer> lengths = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lengths.size() < 100 && System.nanoTime() < deadline)
        {
            consumerChannel.poll((buffer, offset, length) -> { }, 10); // sends what the socket could not take yet
            publisherChannel.poll((buffer, offset, length) ->
            {
                assertEquals((byte)lengths.size(), buffer.getByte(offset + length - 1));
                lengths.add(length);
            }, 10);
        }
        assertEquals(100, lengths.size());
        for (int i = 0; i < 100; i++)
        {
            assertEquals(100 + i * 30, lengths.get(i));
        }
        assertEquals(TransportResult.TOO_LONG, publisherChannel.offer(message, 0, 4097));
    }

    @Test
    void shouldReportNotConnectedOnceThePeerHasGone()
    {
        final ControlServer server = publisherSide.bindControl();
        final ControlChannel consumerChannel = consumerSide.connectControl(TimeUnit.SECONDS.toNanos(5));
        final ControlChannel publisherChannel = acceptGreeted(server, consumerChannel);

        consumerChannel.close();

        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int result = 0;
        while (result != TransportResult.NOT_CONNECTED && System.nanoTime() < deadline)
        {
            result = publisherChannel.poll((buffer, offset, length) -> { }, 10);
        }
        assertEquals(TransportResult.NOT_CONNECTED, result);
        assertFalse(publisherChannel.isConnected());
    }

    @Test
    void shouldRefuseASecondPublisherOnTheSameInstanceButReplaceAStaleSocket()
    {
        publisherSide.bindControl();
        final ShmTransport second = new ShmTransport(ShmInstance.context(context.instance()));
        try
        {
            assertThrows(TransportException.class, second::bindControl);
            publisherSide.close();
            assertNotNull(second.bindControl());
        }
        finally
        {
            second.close();
        }
    }

    @Test
    void shouldSayWhenNoPublisherAnswers()
    {
        final TransportException ex = assertThrows(TransportException.class,
            () -> consumerSide.connectControl(TimeUnit.MILLISECONDS.toNanos(50)));
        assertTrue(ex.getMessage().contains("no publisher answers"), ex.getMessage());
    }

    /**
     * The publisher's server hands a connection over once its first message arrived: sends one, accepts, and takes
     * that message off the publisher's end.
     */
    private static ControlChannel acceptGreeted(final ControlServer server, final ControlChannel consumerChannel)
    {
        assertEquals(TransportResult.OK, consumerChannel.offer(new UnsafeBuffer(new byte[8]), 0, 8));
        final ControlChannel publisherChannel = acceptWithin(server);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int taken = 0;
        while (taken == 0 && System.nanoTime() < deadline)
        {
            taken = publisherChannel.poll((buffer, offset, length) -> assertEquals(8, length), 1);
        }
        assertEquals(1, taken, "the first message");
        return publisherChannel;
    }

    private static ControlChannel acceptWithin(final ControlServer server)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline)
        {
            final ControlChannel channel = server.accept();
            if (null != channel)
            {
                return channel;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no connection accepted");
    }
}
