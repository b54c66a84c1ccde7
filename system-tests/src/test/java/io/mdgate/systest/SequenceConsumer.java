package io.mdgate.systest;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * A consumer process for the end-to-end test: connects to the gateway's shm egress, subscribes to everything and
 * appends the gateway sequence of every tick it delivers to a file (8 bytes each, little-endian), as a real consumer
 * persists its progress. Started again on the same file, it resumes after the last sequence recorded, so a consumer
 * killed at any moment and restarted must end with every sequence exactly once.
 * <p>
 * Arguments: SHM_DIR INSTANCE NAME TOKEN ring|stream FILE. Runs until killed.
 */
public final class SequenceConsumer
{
    private SequenceConsumer()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final Path file = Path.of(args[5]);
        final long last = lastRecorded(file);
        final ShmTransport transport = new ShmTransport(new ShmContext().directory(Path.of(args[0]))
            .instance(args[1]).conclude());
        final ByteBuffer batch = ByteBuffer.allocateDirect(8 * 4096).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND);
            EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name(args[2])
                .token(args[3]).path(DeliveryPath.valueOf(args[4].toUpperCase(java.util.Locale.ROOT)))
                .resumeFromSequence(last + 1)))
        {
            consumer.subscribeAll();
            System.out.println("connected " + args[2] + ", resuming from " + (last + 1));
            System.out.flush();
            while (true)
            {
                // A poll may deliver more than its limit (a recovered range comes whole): write out when full.
                final int delivered = consumer.poll((buffer, offset) ->
                {
                    if (!batch.hasRemaining())
                    {
                        write(batch, out);
                    }
                    batch.putLong(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
                }, 4096);
                if (batch.position() > 0)
                {
                    write(batch, out);
                }
                else if (delivered == 0)
                {
                    LockSupport.parkNanos(50_000);
                }
            }
        }
    }

    private static void write(final ByteBuffer batch, final FileChannel out)
    {
        batch.flip();
        try
        {
            while (batch.hasRemaining())
            {
                out.write(batch);
            }
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        batch.clear();
    }

    /** @return the last sequence in the file (0 for none), after cutting a partly written one. */
    static long lastRecorded(final Path file) throws IOException
    {
        if (!Files.exists(file))
        {
            return 0;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long whole = channel.size() / 8 * 8;
            channel.truncate(whole);
            if (whole == 0)
            {
                return 0;
            }
            final ByteBuffer last = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(last, whole - 8);
            return last.getLong(0);
        }
    }

    /** @return every sequence in the file, in order. */
    static long[] read(final Path file) throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        final long[] sequences = new long[bytes.remaining() / 8];
        for (int i = 0; i < sequences.length; i++)
        {
            sequences[i] = bytes.getLong();
        }
        return sequences;
    }
}
