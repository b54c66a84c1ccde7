package io.mdgate.core.capture;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;

/**
 * A sliding window over a file, read through one large direct buffer that is reused for the whole file, so readers
 * frame records in place with no allocation per record. Gzip-compressed files are recognised by their magic bytes
 * (not their name) and inflated transparently.
 * <p>
 * Readers call {@link #ensure(int)} for the bytes a record needs, read them at {@link #position()} in
 * {@link #buffer()}, then {@link #advance(int)}. A compressed stream that ends early is treated as the end of the
 * data and reported by {@link #compressedStreamTruncated()}, so the reader sees a truncated last record rather
 * than an exception.
 * <p>
 * A stream ({@link #open(InputStream, String, int)}, e.g. stdin) is read the same way, once, front to back; closing
 * the input leaves the stream open, it is the caller's.
 * <p>
 * Not thread-safe: one reader thread.
 */
public final class CaptureInput implements AutoCloseable
{
    /** Default window: large enough for any record a reader accepts, small enough to stay in the last-level cache's reach. */
    public static final int DEFAULT_CAPACITY = 4 * 1024 * 1024;
    /** The smallest window accepted: a pcap record can be a 256 KiB snapshot, plus its header. */
    public static final int MIN_CAPACITY = 512 * 1024;

    private static final int GZIP_MAGIC_0 = 0x1F;
    private static final int GZIP_MAGIC_1 = 0x8B;
    private static final int STAGING_LENGTH = 64 * 1024;

    private final Path file;
    private final String name;
    private final ReadableByteChannel channel;
    private final InputStream inflated;
    private final byte[] staging;
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;

    private int position;
    private int limit;
    private long windowStart;
    private boolean endOfData;
    private boolean compressedStreamTruncated;

    private CaptureInput(final Path file, final String name, final ReadableByteChannel channel,
        final InputStream compressed, final int capacity) throws IOException
    {
        this.file = file;
        this.name = name;
        this.channel = channel;
        this.inflated = compressed != null ? new GZIPInputStream(compressed, STAGING_LENGTH) : null;
        this.staging = compressed != null ? new byte[STAGING_LENGTH] : null;
        this.byteBuffer = ByteBuffer.allocateDirect(capacity);
        this.buffer = new UnsafeBuffer(byteBuffer);
    }

    /**
     * Opens a file with the {@link #DEFAULT_CAPACITY default window}.
     *
     * @param file to read; gzip-compressed or not.
     * @return the input, positioned at the first byte of the (decompressed) data.
     * @throws IOException when the file cannot be opened or its gzip header is broken.
     */
    public static CaptureInput open(final Path file) throws IOException
    {
        return open(file, DEFAULT_CAPACITY);
    }

    /**
     * @param file     to read; gzip-compressed or not.
     * @param capacity of the window in bytes, at least {@link #MIN_CAPACITY}.
     * @return the input, positioned at the first byte of the (decompressed) data.
     * @throws IOException when the file cannot be opened or its gzip header is broken.
     */
    public static CaptureInput open(final Path file, final int capacity) throws IOException
    {
        return open(file, file.toString(), capacity);
    }

    /**
     * @param file     to read; gzip-compressed or not.
     * @param name     what messages call it (e.g. "stdin" for a copy of it).
     * @param capacity of the window in bytes, at least {@link #MIN_CAPACITY}.
     * @return the input, positioned at the first byte of the (decompressed) data.
     * @throws IOException when the file cannot be opened or its gzip header is broken.
     */
    public static CaptureInput open(final Path file, final String name, final int capacity) throws IOException
    {
        checkCapacity(capacity);
        final FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try
        {
            final boolean compressed = startsWithGzipMagic(channel);
            channel.position(0);
            return new CaptureInput(
                file, name, channel, compressed ? Channels.newInputStream(channel) : null, capacity);
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * Reads a stream once, front to back; gzip is recognised by its first two bytes, as for a file.
     *
     * @param stream   to read, e.g. stdin; left open by {@link #close()}.
     * @param name     what messages call it, e.g. "stdin".
     * @param capacity of the window in bytes, at least {@link #MIN_CAPACITY}.
     * @return the input, positioned at the first byte of the (decompressed) data; {@link #file()} is null.
     * @throws IOException when the stream cannot be read or its gzip header is broken.
     */
    public static CaptureInput open(final InputStream stream, final String name, final int capacity)
        throws IOException
    {
        checkCapacity(capacity);
        final InputStream kept = new FilterInputStream(stream)
        {
            @Override
            public void close()
            {
                // the stream is the caller's (stdin): closing the input ends the inflater, not the stream
            }
        };
        final PushbackInputStream pushback = new PushbackInputStream(kept, 2);
        final byte[] magic = pushback.readNBytes(2);
        pushback.unread(magic);
        final boolean compressed = magic.length == 2 &&
            (magic[0] & 0xFF) == GZIP_MAGIC_0 && (magic[1] & 0xFF) == GZIP_MAGIC_1;
        return new CaptureInput(
            null, name, Channels.newChannel(pushback), compressed ? pushback : null, capacity);
    }

    private static void checkCapacity(final int capacity)
    {
        if (capacity < MIN_CAPACITY)
        {
            throw new IllegalArgumentException("window of " + capacity + " bytes is below the minimum " + MIN_CAPACITY);
        }
    }

    private static boolean startsWithGzipMagic(final FileChannel channel) throws IOException
    {
        final ByteBuffer magic = ByteBuffer.allocate(2);
        while (magic.hasRemaining() && channel.read(magic) >= 0)
        {
            // keep reading: a channel may return fewer bytes than asked for
        }
        return magic.position() == 2 && (magic.get(0) & 0xFF) == GZIP_MAGIC_0 && (magic.get(1) & 0xFF) == GZIP_MAGIC_1;
    }

    /** @return the file read, or null for a stream. */
    public Path file()
    {
        return file;
    }

    /** @return what messages call the input: the file's path, or the name given with a stream. */
    public String name()
    {
        return name;
    }

    /** @return true when the file is gzip-compressed and is being inflated. */
    public boolean isCompressed()
    {
        return inflated != null;
    }

    /** @return the buffer holding the window; valid between {@link #position()} and {@link #limit()}. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    public int capacity()
    {
        return buffer.capacity();
    }

    /** @return the index in {@link #buffer()} of the next unread byte. */
    public int position()
    {
        return position;
    }

    /** @return the index in {@link #buffer()} one past the last byte read from the file. */
    public int limit()
    {
        return limit;
    }

    /** @return bytes in the window not yet consumed. */
    public int remaining()
    {
        return limit - position;
    }

    /** @return the offset of {@link #position()} in the (decompressed) data: bytes consumed so far. */
    public long offset()
    {
        return windowStart + position;
    }

    /** @return true when the file has no more data and every byte of the window is consumed. */
    public boolean isExhausted()
    {
        return endOfData && position == limit;
    }

    /** @return true when the gzip stream ended before its trailer: the data is cut short. */
    public boolean compressedStreamTruncated()
    {
        return compressedStreamTruncated;
    }

    /**
     * Makes at least {@code length} unread bytes available in the window, reading more of the file if needed.
     *
     * @param length bytes wanted, at most {@link #capacity()}.
     * @return true when they are available; false when the data ends before that many bytes.
     * @throws IOException when the file cannot be read or the compressed data is corrupt.
     */
    public boolean ensure(final int length) throws IOException
    {
        if (limit - position >= length)
        {
            return true;
        }
        if (length > capacity())
        {
            throw new IllegalArgumentException(length + " bytes do not fit a window of " + capacity());
        }
        compact();
        while (limit - position < length && !endOfData)
        {
            fill();
        }
        return limit - position >= length;
    }

    /**
     * @param length bytes to consume, at most {@link #remaining()}.
     */
    public void advance(final int length)
    {
        position += length;
    }

    /**
     * Consumes bytes that may reach beyond the window, e.g. a record too large to frame.
     *
     * @param length bytes to consume.
     * @return bytes actually consumed: fewer than asked when the data ends first.
     * @throws IOException when the file cannot be read.
     */
    public long skip(final long length) throws IOException
    {
        long left = length;
        while (left > 0)
        {
            if (position == limit && !ensure(1))
            {
                break;
            }
            final int step = (int)Math.min(left, limit - position);
            position += step;
            left -= step;
        }
        return length - left;
    }

    private void compact()
    {
        if (position > 0)
        {
            byteBuffer.limit(limit).position(position);
            byteBuffer.compact();
            windowStart += position;
            limit -= position;
            position = 0;
        }
    }

    private void fill() throws IOException
    {
        final int free = capacity() - limit;
        final int read;
        if (inflated == null)
        {
            byteBuffer.limit(capacity()).position(limit);
            read = channel.read(byteBuffer);
        }
        else
        {
            read = inflate(Math.min(free, STAGING_LENGTH));
        }
        if (read < 0)
        {
            endOfData = true;
        }
        else
        {
            limit += read;
        }
    }

    private int inflate(final int length) throws IOException
    {
        try
        {
            final int read = inflated.read(staging, 0, length);
            if (read > 0)
            {
                buffer.putBytes(limit, staging, 0, read);
            }
            return read;
        }
        catch (final EOFException ex)
        {
            compressedStreamTruncated = true;
            return -1;
        }
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            if (inflated != null)
            {
                inflated.close();
            }
        }
        finally
        {
            channel.close();
        }
    }
}
