package io.mdgate.egress.transport.shm;

import io.mdgate.egress.transport.MemoryRegion;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.RemoteRegion;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * A peer's region mapped into this process: one-sided writes are stores into the mapping. Each write is preceded
 * by a release fence, so the peer sees writes in posting order, as over an RC queue pair; the bytes of one write
 * are plain stores in no promised order, so a peer may see a write half done, as with RDMA.
 * <p>
 * Threading: one posting thread. {@link #write} and {@link #writeLong} are allocation- and syscall-free.
 */
final class ShmRemoteRegion implements RemoteRegion, ShmResource
{
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private boolean closed;

    private ShmRemoteRegion(final MappedByteBuffer mapped, final UnsafeBuffer buffer)
    {
        this.mapped = mapped;
        this.buffer = buffer;
    }

    /**
     * Maps the region the key names and checks the key, as an HCA checks an rkey.
     *
     * @throws TransportException when it is missing, not a region, or the key or length do not match.
     */
    static ShmRemoteRegion open(final Path file, final RemoteKey key)
    {
        if (key.length() <= 0 || key.length() > Integer.MAX_VALUE - ShmRegionDescriptor.HEADER_LENGTH)
        {
            throw new TransportException("remote region length " + key.length() + " is out of range");
        }
        final MappedByteBuffer mapped =
            ShmFiles.mapExisting(file, ShmRegionDescriptor.HEADER_LENGTH + key.length());
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, ShmRegionDescriptor.HEADER_LENGTH);
        final String problem;
        if (header.getLongVolatile(ShmRegionDescriptor.MAGIC_OFFSET) != ShmRegionDescriptor.MAGIC)
        {
            problem = "is not a registered region";
        }
        else if (header.getLong(ShmRegionDescriptor.ADDRESS_OFFSET) != key.address() ||
            header.getInt(ShmRegionDescriptor.KEY_OFFSET) != key.key())
        {
            problem = "refuses the key (remote access error)";
        }
        else if (header.getLong(ShmRegionDescriptor.LENGTH_OFFSET) < key.length())
        {
            problem = "is shorter than the key says";
        }
        else
        {
            problem = null;
        }
        if (null != problem)
        {
            ShmFiles.unmap(mapped);
            throw new TransportException(file + " " + problem + ": " + key);
        }
        return new ShmRemoteRegion(
            mapped, new UnsafeBuffer(mapped, ShmRegionDescriptor.HEADER_LENGTH, (int)key.length()));
    }

    @Override
    public int length()
    {
        return buffer.capacity();
    }

    @Override
    public int write(final int remoteOffset, final MemoryRegion source, final int sourceOffset, final int length)
    {
        if (closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (remoteOffset < 0 || length < 0 || remoteOffset > buffer.capacity() - length)
        {
            return TransportResult.OUT_OF_BOUNDS;
        }
        VarHandle.releaseFence();
        buffer.putBytes(remoteOffset, source.buffer(), sourceOffset, length);
        return TransportResult.OK;
    }

    @Override
    public int writeLong(final int remoteOffset, final long value)
    {
        if (closed)
        {
            return TransportResult.NOT_CONNECTED;
        }
        if (!RemoteRegion.longFits(remoteOffset, buffer.capacity()))
        {
            return TransportResult.OUT_OF_BOUNDS;
        }
        buffer.putLongRelease(remoteOffset, value);
        return TransportResult.OK;
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
            ShmFiles.unmap(mapped);
        }
    }
}
