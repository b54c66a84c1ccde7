package io.mdgate.core.capture;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Writes ITCH messages in Nasdaq's daily-file framing ("BinaryFILE"): each message preceded by its length as a
 * big-endian u16, nothing else. A path ending in {@code .gz} is gzip-compressed, as Nasdaq publishes them.
 * Messages are staged in one preallocated buffer and written when it fills: no allocation per message.
 * I/O failures are thrown as {@link UncheckedIOException}. Not thread-safe.
 */
public final class ItchFileWriter implements AutoCloseable
{
    /** A message's length must fit the u16 prefix. */
    public static final int MAX_MESSAGE_LENGTH = 0xFFFF;
    public static final int LENGTH_PREFIX = 2;

    private final StagedFileOutput output;
    private final UnsafeBuffer buffer;
    private long messages;
    private long bytes;

    /**
     * Creates or truncates the file.
     *
     * @param file to write; gzip-compressed when its name ends in {@code .gz}.
     * @throws UncheckedIOException when the file cannot be created.
     */
    public ItchFileWriter(final Path file)
    {
        output = new StagedFileOutput(file, "ITCH file");
        buffer = output.buffer();
    }

    /**
     * Writes to a stream already open, uncompressed: a pipe such as stdout. Closing the writer closes the stream.
     *
     * @param stream      to write.
     * @param description what the stream is, for error messages (e.g. "ITCH file on stdout").
     */
    public ItchFileWriter(final OutputStream stream, final String description)
    {
        output = new StagedFileOutput(stream, description);
        buffer = output.buffer();
    }

    /**
     * Appends one message with its length prefix.
     *
     * @param message holding the message from its type byte.
     * @param offset  of the message.
     * @param length  of the message, 1 to {@link #MAX_MESSAGE_LENGTH}.
     */
    public void write(final DirectBuffer message, final int offset, final int length)
    {
        if (length < 1 || length > MAX_MESSAGE_LENGTH)
        {
            throw new IllegalArgumentException(
                "a daily-file message is 1 to " + MAX_MESSAGE_LENGTH + " bytes, got " + length);
        }
        final int at = output.reserve(LENGTH_PREFIX + length);
        buffer.putShort(at, (short)length, ByteOrder.BIG_ENDIAN);
        buffer.putBytes(at + LENGTH_PREFIX, message, offset, length);
        output.commit(LENGTH_PREFIX + length);
        messages++;
        bytes += LENGTH_PREFIX + length;
    }

    /** @return messages written so far. */
    public long messagesWritten()
    {
        return messages;
    }

    /** @return bytes written so far, length prefixes included, before any compression. */
    public long bytesWritten()
    {
        return bytes;
    }

    /** Writes out what is staged; the file is complete up to here. */
    public void flush()
    {
        output.flush();
    }

    /** Writes out what is staged and closes the file. Idempotent. */
    @Override
    public void close()
    {
        output.close();
    }
}
