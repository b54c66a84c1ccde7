package io.mdgate.systest;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * A consumer process for the exactly-once system tests: connects to the gateway's shm egress, subscribes to
 * everything from sequence 1 and appends every tick it delivers, all 64 bytes, to a file. It is never restarted:
 * when the gateway dies the SDK reconnects by itself (every 500 ms) and recovers what it missed from the journal,
 * so the file must end with every gateway sequence exactly once, in order, whatever happened to the gateway.
 * <p>
 * Arguments: SHM_DIR INSTANCE NAME TOKEN ring|stream FILE. Runs until killed.
 */
public final class TickRecordingConsumer
{
    static final int TICK = 64;

    private TickRecordingConsumer()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final ShmTransport transport = new ShmTransport(new ShmContext().directory(Path.of(args[0]))
            .instance(args[1]).conclude());
        final ByteBuffer batch = ByteBuffer.allocateDirect(TICK * 4096).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel out = FileChannel.open(Path.of(args[5]), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name(args[2])
                .token(args[3]).path(DeliveryPath.valueOf(args[4].toUpperCase(Locale.ROOT)))
                .resumeFromSequence(1)))
        {
            consumer.subscribeAll();
            System.out.println("connected " + args[2]);
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
                    for (int i = 0; i < TICK; i += 8)
                    {
                        batch.putLong(buffer.getLong(offset + i, ByteOrder.LITTLE_ENDIAN));
                    }
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
            throw new UncheckedIOException(ex);
        }
        batch.clear();
    }
}
