package io.mdgate.consumerc;

import io.mdgate.egress.protocol.ConsumerRegionDescriptor;
import io.mdgate.egress.protocol.ControlMessageDescriptor;
import io.mdgate.egress.protocol.PositionRegionDescriptor;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmRegionDescriptor;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

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

/**
 * A publisher played by hand, for tests that must say exactly what the consumer is sent: it binds the instance's
 * control socket, takes one connection, reads its HELLO, maps the consumer's region file, creates a position
 * region of its own, and sends WELCOME; then the test sends what it likes and reads what the consumer sends (a
 * daemon thread collects it). Closing it removes every file of the instance.
 */
final class FakePublisher implements AutoCloseable
{
    private static final Path DIRECTORY = Path.of("/dev/shm");
    private final String instance = ShmInstance.unique();
    private final Path socket = DIRECTORY.resolve(instance + "-control.sock");
    private final ServerSocketChannel server;
    private final List<ByteBuffer> received = new CopyOnWriteArrayList<>();
    private SocketChannel channel;
    private ByteBuffer hello;
    private MappedByteBuffer regionMapping;
    private MappedByteBuffer positionMapping;
    private UnsafeBuffer region;
    private UnsafeBuffer positions;

    FakePublisher() throws IOException
    {
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
    }

    String instance()
    {
        return instance;
    }

    static ByteBuffer message(final int type, final int length)
    {
        final ByteBuffer message = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        if (length >= 4)
        {
            message.putShort(0, (short)type).putShort(2, ControlMessageDescriptor.PROTOCOL_VERSION);
        }
        return message;
    }

    /** Takes the consumer's (next) connection and returns its HELLO. */
    ByteBuffer acceptHello() throws IOException
    {
        final SocketChannel next = server.accept(); // a reconnecting consumer closed the last one itself
        if (null != channel)
        {
            channel.close();
        }
        IoUtil.unmap(positionMapping);
        positionMapping = null;
        channel = next;
        hello = read();
        return hello;
    }

    /** Maps the region the HELLO names (its bytes, after the file's header page), checking the key in its header. */
    UnsafeBuffer mapRegion() throws IOException
    {
        final long length = hello.getLong(32);
        regionMapping = map(String.format("%s-region-%016x", instance, hello.getLong(16)),
            ShmRegionDescriptor.HEADER_LENGTH + length);
        final UnsafeBuffer header = new UnsafeBuffer(regionMapping, 0, ShmRegionDescriptor.HEADER_LENGTH);
        if (header.getLongVolatile(ShmRegionDescriptor.MAGIC_OFFSET) != ShmRegionDescriptor.MAGIC ||
            header.getInt(ShmRegionDescriptor.KEY_OFFSET) != hello.getInt(24) ||
            header.getLong(ShmRegionDescriptor.ADDRESS_OFFSET) != hello.getLong(16))
        {
            throw new IllegalStateException("the consumer's region file does not match its HELLO");
        }
        region = new UnsafeBuffer(regionMapping, ShmRegionDescriptor.HEADER_LENGTH, (int)length);
        if (region.getLongVolatile(ConsumerRegionDescriptor.MAGIC_OFFSET) != ConsumerRegionDescriptor.MAGIC)
        {
            throw new IllegalStateException("the consumer's region has no header");
        }
        return region;
    }

    /** Creates a position region and sends WELCOME naming it (heartbeats every 100 ms, timeout 30 s, no log). */
    UnsafeBuffer welcome() throws IOException
    {
        return welcome(30_000_000_000L);
    }

    /** As {@link #welcome()}, with the heartbeat timeout the consumer is told to apply to this publisher. */
    UnsafeBuffer welcome(final long heartbeatTimeoutNanos) throws IOException
    {
        final long address = 0x5eed_0000L + ProcessHandle.current().pid();
        positionMapping =
            map(String.format("%s-region-%016x", instance, address), ShmRegionDescriptor.HEADER_LENGTH + 4096);
        final UnsafeBuffer header = new UnsafeBuffer(positionMapping, 0, ShmRegionDescriptor.HEADER_LENGTH);
        header.putLong(ShmRegionDescriptor.ADDRESS_OFFSET, address);
        header.putInt(ShmRegionDescriptor.KEY_OFFSET, 99);
        header.putInt(ShmRegionDescriptor.VERSION_OFFSET, ShmRegionDescriptor.VERSION);
        header.putLong(ShmRegionDescriptor.LENGTH_OFFSET, PositionRegionDescriptor.LENGTH);
        header.putLong(ShmRegionDescriptor.OWNER_PID_OFFSET, ProcessHandle.current().pid());
        header.putLongRelease(ShmRegionDescriptor.MAGIC_OFFSET, ShmRegionDescriptor.MAGIC);
        positions =
            new UnsafeBuffer(positionMapping, ShmRegionDescriptor.HEADER_LENGTH, PositionRegionDescriptor.LENGTH);
        final ByteBuffer welcome = message(ControlMessageDescriptor.WELCOME, 80);
        welcome.putLong(8, 1).putLong(16, address).putInt(24, 99).putInt(28, 1)
            .putLong(32, PositionRegionDescriptor.LENGTH).putLong(40, 1).putLong(48, 100_000_000L)
            .putLong(56, heartbeatTimeoutNanos).putInt(64, 4096).putInt(68, 0).putInt(72, 0);
        send(welcome);
        return positions;
    }

    /** Reads the consumer's SUBSCRIBE and grants it (no table slot). */
    void grantSubscription() throws IOException
    {
        final ByteBuffer subscribe = read();
        if (subscribe.getShort(0) != ControlMessageDescriptor.SUBSCRIBE)
        {
            throw new IllegalStateException("expected SUBSCRIBE, got type " + subscribe.getShort(0));
        }
        final ByteBuffer answer = message(ControlMessageDescriptor.SUBSCRIPTION, 48);
        answer.putInt(8, subscribe.getInt(8)).putInt(12, -1).putLong(16, subscribe.getLong(16))
            .putInt(24, ControlMessageDescriptor.SUBSCRIBED).put(40, subscribe.get(40));
        send(answer);
    }

    /** From now on a daemon thread collects what the consumer sends ({@link #received()}). */
    void collect()
    {
        final SocketChannel from = channel;
        final Thread reader = new Thread(() ->
        {
            try
            {
                for (ByteBuffer next; null != (next = read(from));)
                {
                    received.add(next);
                }
            }
            catch (final IOException ignore)
            {
                // the consumer went away
            }
        }, "fake-publisher-" + instance);
        reader.setDaemon(true);
        reader.start();
    }

    List<ByteBuffer> received()
    {
        return received;
    }

    void send(final ByteBuffer message) throws IOException
    {
        sendRaw(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, message.capacity()).array());
        sendRaw(message.array());
    }

    void sendRaw(final byte[] bytes) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining())
        {
            channel.write(buffer);
        }
    }

    /** @return the consumer's next message (before {@link #collect()}), null when it went away. */
    ByteBuffer read() throws IOException
    {
        return read(channel);
    }

    private static ByteBuffer read(final SocketChannel from) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        if (!fill(from, header))
        {
            return null;
        }
        final ByteBuffer body = ByteBuffer.allocate(header.getInt(0)).order(ByteOrder.LITTLE_ENDIAN);
        return fill(from, body) ? body : null;
    }

    private static boolean fill(final SocketChannel from, final ByteBuffer buffer) throws IOException
    {
        while (buffer.hasRemaining())
        {
            if (from.read(buffer) < 0)
            {
                return false;
            }
        }
        return true;
    }

    private MappedByteBuffer map(final String name, final long length) throws IOException
    {
        try (FileChannel file = FileChannel.open(DIRECTORY.resolve(name), StandardOpenOption.READ,
            StandardOpenOption.WRITE, StandardOpenOption.CREATE))
        {
            return file.map(FileChannel.MapMode.READ_WRITE, 0, length);
        }
    }

    @Override
    public void close() throws IOException
    {
        if (null != channel)
        {
            channel.close();
        }
        server.close();
        IoUtil.unmap(regionMapping);
        IoUtil.unmap(positionMapping);
        Files.deleteIfExists(socket);
        ShmInstance.removeFiles(ShmInstance.context(instance));
    }
}
