package io.mdgate.consumerc;

import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.protocol.SlotCheck;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmRegionDescriptor;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The ring read by the C library, slot by slot, against a publisher played by hand: the test speaks HELLO / WELCOME /
 * SUBSCRIPTION on the control socket, maps the consumer's region file, and writes its 16-slot ring itself. An intact
 * slot is delivered; a slot whose check does not match its bytes (a torn write), or whose stamp landed before its
 * bytes, is not, until the bytes agree; a slot still holding an older position is not; a slot holding a later
 * position makes the consumer ask RESYNC. The consumer reports its read position and delivered sequence into the
 * position region. Run with the sanitizer build.
 */
class RingWireTest
{
    private static final int RING = 16;
    private final String instance = ShmInstance.unique();
    private final Path directory = Path.of("/dev/shm");
    private final List<ByteBuffer> received = new CopyOnWriteArrayList<>();
    private NativeProcess consumer;
    private MappedByteBuffer regionMapping;
    private MappedByteBuffer positionMapping;

    @AfterEach
    void tearDown() throws IOException
    {
        if (null != consumer)
        {
            consumer.close();
        }
        IoUtil.unmap(regionMapping);
        IoUtil.unmap(positionMapping);
        ShmInstance.removeFiles(ShmInstance.context(instance));
        if (null != consumer)
        {
            assertNull(consumer.sanitizerReport());
        }
    }

    private static ByteBuffer message(final int type, final int length)
    {
        final ByteBuffer message = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        message.putShort(0, (short)type).putShort(2, ControlMessageDescriptor.PROTOCOL_VERSION);
        return message;
    }

    private static void send(final SocketChannel channel, final ByteBuffer message) throws IOException
    {
        final ByteBuffer frame = ByteBuffer.allocate(4 + message.capacity()).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(message.capacity()).put(message.array()).flip();
        while (frame.hasRemaining())
        {
            channel.write(frame);
        }
    }

    private static ByteBuffer read(final SocketChannel channel) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        while (header.hasRemaining())
        {
            if (channel.read(header) < 0)
            {
                return null;
            }
        }
        final ByteBuffer body = ByteBuffer.allocate(header.getInt(0)).order(ByteOrder.LITTLE_ENDIAN);
        while (body.hasRemaining())
        {
            if (channel.read(body) < 0)
            {
                return null;
            }
        }
        return body;
    }

    private MappedByteBuffer map(final Path file, final long length) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
            StandardOpenOption.CREATE))
        {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        }
    }

    private static void writeSlot(final UnsafeBuffer region, final long position, final long sequence,
        final boolean bytes, final long stamp, final long check)
    {
        final int slot = ConsumerRegionDescriptor.slotOffset(position, RING);
        if (bytes)
        {
            Ticks.writeAdd(region, slot, sequence, 1, 0);
        }
        final int stampAt = ConsumerRegionDescriptor.stampOffset(position, RING);
        region.putLongRelease(stampAt + ConsumerRegionDescriptor.STAMP_CHECK_OFFSET, check);
        region.putLongRelease(stampAt, stamp);
    }

    private static long checkOf(final long position, final long sequence)
    {
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        Ticks.writeAdd(tick, 0, sequence, 1, 0);
        return SlotCheck.compute(position, tick, 0);
    }

    private void writeIntact(final UnsafeBuffer region, final long position)
    {
        writeSlot(region, position, position + 1, true, position + 1, checkOf(position, position + 1));
    }

    private int delivered()
    {
        return consumer.out().size();
    }

    private void awaitDelivered(final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (delivered() < count)
        {
            assertTrue(System.nanoTime() < deadline,
                "delivered " + delivered() + " of " + count + ": " + consumer.err());
            Thread.sleep(5);
        }
    }

    private void assertStillDelivered(final int count) throws InterruptedException
    {
        Thread.sleep(300); // the consumer polls all the while; nothing more may come
        assertEquals(count, delivered(), consumer.out().toString());
    }

    @Test
    void shouldDeliverIntactSlotsOnlyAndAskResyncWhenOvertaken() throws Exception
    {
        final Path socket = directory.resolve(instance + "-control.sock");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX))
        {
            server.bind(UnixDomainSocketAddress.of(socket));
            consumer = new NativeProcess("ring", NativeBuild.SANITIZE, List.of(
                NativeBuild.SANITIZE.tool("mdgate-consume-c").toString(), "--instance", instance, "--consumer", "ring",
                "--token", "t", "--instruments", "1", "--ring-slots", Integer.toString(RING), "--format", "seq"));
            try (SocketChannel channel = server.accept())
            {
                final ByteBuffer hello = read(channel);
                assertEquals(ControlMessageDescriptor.HELLO, hello.getShort(0));
                assertEquals(RING, hello.getInt(8));
                final long regionAddress = hello.getLong(16);
                final long regionLength = hello.getLong(32);
                regionMapping = map(directory.resolve(String.format("%s-region-%016x", instance, regionAddress)),
                    ShmRegionDescriptor.HEADER_LENGTH + regionLength);
                final UnsafeBuffer header = new UnsafeBuffer(regionMapping, 0, ShmRegionDescriptor.HEADER_LENGTH);
                assertEquals(ShmRegionDescriptor.MAGIC, header.getLongVolatile(ShmRegionDescriptor.MAGIC_OFFSET));
                assertEquals(hello.getInt(24), header.getInt(ShmRegionDescriptor.KEY_OFFSET));
                final UnsafeBuffer region = new UnsafeBuffer(regionMapping, ShmRegionDescriptor.HEADER_LENGTH,
                    (int)regionLength);
                assertEquals(ConsumerRegionDescriptor.MAGIC,
                    region.getLongVolatile(ConsumerRegionDescriptor.MAGIC_OFFSET));
                assertEquals(ConsumerRegionDescriptor.NOT_LAPPED,
                    region.getLongVolatile(ConsumerRegionDescriptor.LAP_POSITION_OFFSET));

                final long positionAddress = 0x5eed_0000L + ProcessHandle.current().pid();
                positionMapping = map(directory.resolve(String.format("%s-region-%016x", instance, positionAddress)),
                    ShmRegionDescriptor.HEADER_LENGTH + 4096);
                final UnsafeBuffer positionHeader = new UnsafeBuffer(positionMapping, 0, 4096);
                positionHeader.putLong(ShmRegionDescriptor.ADDRESS_OFFSET, positionAddress);
                positionHeader.putInt(ShmRegionDescriptor.KEY_OFFSET, 99);
                positionHeader.putInt(ShmRegionDescriptor.VERSION_OFFSET, ShmRegionDescriptor.VERSION);
                positionHeader.putLong(ShmRegionDescriptor.LENGTH_OFFSET, PositionRegionDescriptor.LENGTH);
                positionHeader.putLong(ShmRegionDescriptor.OWNER_PID_OFFSET, ProcessHandle.current().pid());
                positionHeader.putLongRelease(ShmRegionDescriptor.MAGIC_OFFSET, ShmRegionDescriptor.MAGIC);
                final UnsafeBuffer positions = new UnsafeBuffer(positionMapping, 4096, PositionRegionDescriptor.LENGTH);

                final ByteBuffer welcome = message(ControlMessageDescriptor.WELCOME, 80);
                welcome.putLong(8, 1).putLong(16, positionAddress).putInt(24, 99).putInt(28, 1)
                    .putLong(32, PositionRegionDescriptor.LENGTH).putLong(40, 1).putLong(48, 100_000_000L)
                    .putLong(56, 30_000_000_000L).putInt(64, 4096).putInt(68, 0).putInt(72, 0);
                send(channel, welcome);
                final ByteBuffer subscribe = read(channel);
                assertEquals(ControlMessageDescriptor.SUBSCRIBE, subscribe.getShort(0));
                assertEquals(1, subscribe.getInt(8));
                final ByteBuffer answer = message(ControlMessageDescriptor.SUBSCRIPTION, 48);
                answer.putInt(8, 1).putInt(12, -1).putInt(24, ControlMessageDescriptor.SUBSCRIBED);
                send(channel, answer);
                final Thread reader = new Thread(() ->
                {
                    try
                    {
                        for (ByteBuffer next; null != (next = read(channel));)
                        {
                            received.add(next);
                        }
                    }
                    catch (final IOException ignore)
                    {
                        // the consumer went away
                    }
                });
                reader.setDaemon(true);
                reader.start();
                consumer.awaitReady(30);

                writeIntact(region, 0);
                awaitDelivered(1);

                writeSlot(region, 1, 2, true, 2, checkOf(1, 2) ^ 1); // the check disagrees with the bytes: torn
                assertStillDelivered(1);
                writeSlot(region, 1, 2, false, 2, checkOf(1, 2));
                awaitDelivered(2);

                writeSlot(region, 2, 3, false, 3, checkOf(2, 3)); // stamp and check landed before the bytes
                assertStillDelivered(2);
                writeSlot(region, 2, 3, true, 3, checkOf(2, 3));
                awaitDelivered(3);

                for (long position = 3; position < 19; position++)
                {
                    writeIntact(region, position);
                }
                awaitDelivered(19); // positions 0..18
                assertStillDelivered(19); // position 19's slot still says position 3: older, not read
                assertEquals(19, positions.getLongVolatile(PositionRegionDescriptor.READ_POSITION_OFFSET));
                assertEquals(19, positions.getLongVolatile(PositionRegionDescriptor.DELIVERED_SEQUENCE_OFFSET));

                writeSlot(region, 19 + RING, 36, true, 19 + RING + 1, checkOf(19 + RING, 36)); // a later position
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (received.stream().noneMatch(m -> m.getShort(0) == ControlMessageDescriptor.RESYNC))
                {
                    assertTrue(System.nanoTime() < deadline, "no RESYNC after being overtaken: " + consumer.err());
                    Thread.sleep(5);
                }
                final ByteBuffer resync = received.stream()
                    .filter(m -> m.getShort(0) == ControlMessageDescriptor.RESYNC).findFirst().orElseThrow();
                assertEquals(20, resync.getLong(8), "RESYNC from the sequence after the last delivered");
                assertStillDelivered(19);
                assertEquals(List.of("1", "2", "3"), consumer.out().subList(0, 3));

                consumer.signal("TERM");
                assertEquals(0, consumer.awaitExit(30), consumer.err().toString());
                final String summary = consumer.err().stream().filter(l -> l.contains(": delivered ")).findFirst()
                    .orElseThrow();
                assertTrue(summary.contains("delivered 19 ticks") && summary.contains("duplicates 0"), summary);
                assertFalse(summary.contains("torn 0,"), "torn reads were counted: " + summary);
                assertFalse(summary.contains("malformed 0,"), "the overtaken slot was counted: " + summary);
            }
        }
        finally
        {
            Files.deleteIfExists(socket);
        }
    }
}
