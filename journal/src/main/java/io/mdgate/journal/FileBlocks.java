package io.mdgate.journal;

import net.openhft.posix.PosixAPI;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Allocates the disk blocks of one file, so that writes through a memory mapping of that range never find the
 * filesystem out of space: {@code fallocate(2)} (which never changes data already there), or, where the filesystem
 * or the platform cannot, zeros written with {@code pwrite(2)} into the part of the range at or past the end of the
 * data, which must hold only zeros. Threading: one thread.
 */
interface FileBlocks extends AutoCloseable
{
    /** errno of a full filesystem. */
    int ENOSPC = 28;
    /** errno of a filesystem that cannot {@code fallocate}. */
    int EOPNOTSUPP = 95;

    /**
     * @param offset first byte.
     * @param length bytes from it.
     * @return 0 once every block of the range is allocated, else the errno ({@link #ENOSPC} for a full filesystem).
     */
    int allocate(long offset, long length);

    @Override
    void close();

    /**
     * @param file    an existing file.
     * @param dataEnd where its data ends: zeros are written only from here on, where no data is.
     * @return the file's allocator: {@code fallocate} when this platform has it, else zeros.
     * @throws IOException when the file cannot be opened for writing.
     */
    static FileBlocks open(final Path file, final long dataEnd) throws IOException
    {
        final PosixAPI posix = PosixAPI.posix();
        if (!posix.getClass().getSimpleName().startsWith("NoOp"))
        {
            final int fd = posix.open(file.toString(), 2 /* O_RDWR */, 0);
            if (fd >= 0)
            {
                return new Fallocate(posix, fd, file, dataEnd);
            }
        }
        return new Zeros(file, dataEnd);
    }

    /** {@code fallocate(fd, 0, offset, length)}, falling back to zeros when the filesystem does not support it. */
    final class Fallocate implements FileBlocks
    {
        private final PosixAPI posix;
        private final int fd;
        private final Path file;
        private final long dataEnd;
        private Zeros fallback;

        Fallocate(final PosixAPI posix, final int fd, final Path file, final long dataEnd)
        {
            this.posix = posix;
            this.fd = fd;
            this.file = file;
            this.dataEnd = dataEnd;
        }

        @Override
        public int allocate(final long offset, final long length)
        {
            if (null != fallback)
            {
                return fallback.allocate(offset, length);
            }
            if (posix.fallocate(fd, 0, offset, length) == 0)
            {
                return 0;
            }
            final int errno = posix.lastError();
            if (errno != EOPNOTSUPP)
            {
                return errno == 0 ? ENOSPC : errno;
            }
            try
            {
                fallback = new Zeros(file, dataEnd);
            }
            catch (final IOException ex)
            {
                return errno;
            }
            return fallback.allocate(offset, length);
        }

        @Override
        public void close()
        {
            posix.close(fd);
            if (null != fallback)
            {
                fallback.close();
            }
        }
    }

    /** Zeros written past the end of the data: the same blocks allocated, at the cost of writing them. */
    final class Zeros implements FileBlocks
    {
        private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 << 10);

        private final FileChannel channel;
        private final long dataEnd;

        Zeros(final Path file, final long dataEnd) throws IOException
        {
            this.channel = FileChannel.open(file, StandardOpenOption.WRITE);
            this.dataEnd = dataEnd;
        }

        @Override
        public int allocate(final long offset, final long length)
        {
            long position = Math.max(offset, dataEnd);
            final long end = offset + length;
            try
            {
                while (position < end)
                {
                    final ByteBuffer zeros = ZEROS.duplicate();
                    zeros.limit((int)Math.min(zeros.capacity(), end - position));
                    position += channel.write(zeros, position);
                }
                return 0;
            }
            catch (final IOException ex)
            {
                return ENOSPC;
            }
        }

        @Override
        public void close()
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // Nothing was written through the channel that a close could lose: the zeros are in the page cache.
            }
        }
    }
}
