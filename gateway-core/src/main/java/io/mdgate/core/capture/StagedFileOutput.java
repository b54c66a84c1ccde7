package io.mdgate.core.capture;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * The output half the file writers share: records are built in place in one preallocated staging buffer and
 * written out when it fills, so writing allocates nothing per record. A path ending in {@code .gz} is
 * gzip-compressed. I/O failures are thrown as {@link UncheckedIOException} naming the file. Not thread-safe.
 */
final class StagedFileOutput implements AutoCloseable
{
    static final int STAGING_CAPACITY = 1 << 20;

    private final String description;
    private final OutputStream out;
    private final byte[] staging = new byte[STAGING_CAPACITY];
    private final UnsafeBuffer buffer = new UnsafeBuffer(staging);
    private int position;
    private boolean closed;

    /**
     * Creates or truncates the file.
     *
     * @param file        to write; gzip-compressed when its name ends in {@code .gz}.
     * @param description what the file is, for error messages (e.g. "pcap file").
     */
    StagedFileOutput(final Path file, final String description)
    {
        this.description = description + " " + file;
        try
        {
            final OutputStream raw = Files.newOutputStream(file);
            out = file.getFileName().toString().endsWith(".gz") ? new GZIPOutputStream(raw, 1 << 16) : raw;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + this.description, ex);
        }
    }

    /**
     * Writes to a stream already open, such as stdout; closing this output closes the stream.
     *
     * @param stream      to write, uncompressed.
     * @param description what the stream is, for error messages (e.g. "pcap on stdout").
     */
    StagedFileOutput(final OutputStream stream, final String description)
    {
        this.description = description;
        out = stream;
    }

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @param length bytes the next record takes, at most {@link #STAGING_CAPACITY}.
     * @return where in {@link #buffer()} to build it; {@link #commit(int)} the same length when done.
     */
    int reserve(final int length)
    {
        if (closed)
        {
            throw new IllegalStateException(description + " is closed");
        }
        if (position + length > STAGING_CAPACITY)
        {
            drain();
        }
        return position;
    }

    void commit(final int length)
    {
        position += length;
    }

    /** Writes out what is staged; the file is complete up to here. */
    void flush()
    {
        drain();
        try
        {
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot flush " + description, ex);
        }
    }

    /** Writes out what is staged and closes the file. Idempotent. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try (OutputStream stream = out)
        {
            drain();
            stream.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot close " + description, ex);
        }
    }

    private void drain()
    {
        if (position == 0)
        {
            return;
        }
        try
        {
            out.write(staging, 0, position);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + description, ex);
        }
        position = 0;
    }
}
