package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.SharedLog;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * The shared tick log as a file ({@code <instance>-ticks-<stream id>}), {@code rw-rw----} in the configured group:
 * created, pre-faulted and removed on close by the publisher; mapped read-only by consumers, which only unmap it.
 * <p>
 * Threading: open and close on one thread; the buffer follows {@link io.mdgate.egress.protocol.SharedLogDescriptor}.
 */
final class ShmSharedLog implements SharedLog, ShmResource
{
    private final Path file;
    private final boolean owner;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private boolean closed;

    private ShmSharedLog(final Path file, final boolean owner, final MappedByteBuffer mapped)
    {
        this.file = file;
        this.owner = owner;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
    }

    static ShmSharedLog create(final ShmPlacement placement, final Path file, final int length, final String group)
    {
        placement.deleteEverywhere(file);
        final ShmPlacement.Created created = placement.create(file, length, group);
        return new ShmSharedLog(created.file(), true, created.mapped());
    }

    static ShmSharedLog open(final Path file)
    {
        return new ShmSharedLog(file, false, ShmFiles.mapReadOnly(file, 1));
    }

    @Override
    public AtomicBuffer buffer()
    {
        return buffer;
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            if (owner)
            {
                ShmFiles.delete(file);
            }
            ShmFiles.unmap(mapped);
        }
    }
}
