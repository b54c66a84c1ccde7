package io.mdgate.bench.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The baseline: a bare Chronicle Queue appender writing each 64-byte tick as one document, copied eight longs at a
 * time exactly as the journal does, on the journal's hourly roll cycle; and a bare tailer reading them back. Not
 * thread-safe: one thread.
 */
final class BareQueue implements AutoCloseable
{
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;

    BareQueue(final Path directory)
    {
        queue = SingleChronicleQueueBuilder.binary(directory.toFile()).rollCycle(LargeRollCycles.LARGE_HOURLY).build();
        appender = queue.createAppender();
    }

    void append(final DirectBuffer tick)
    {
        try (DocumentContext document = appender.writingDocument())
        {
            final Bytes<?> bytes = document.wire().bytes();
            for (int i = 0; i < 64; i += 8)
            {
                bytes.writeLong(tick.getLong(i, ByteOrder.nativeOrder()));
            }
        }
    }

    /**
     * Reads every record, copying its 64 bytes out as the journal's replay does.
     *
     * @return the sum of the sequences read, so the reads cannot be optimised away.
     */
    long readAll()
    {
        final UnsafeBuffer copy = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
        long sum = 0;
        try (ExcerptTailer tailer = queue.createTailer())
        {
            while (true)
            {
                try (DocumentContext document = tailer.readingDocument())
                {
                    if (!document.isPresent())
                    {
                        return sum;
                    }
                    final Bytes<?> bytes = document.wire().bytes();
                    bytes.nativeRead(bytes.readPosition(), copy.addressOffset(), bytes.readRemaining());
                    sum += copy.getLong(0, ByteOrder.LITTLE_ENDIAN);
                }
            }
        }
    }

    @Override
    public void close()
    {
        appender.close();
        queue.close();
    }
}
