package io.mdgate.app;

import io.mdgate.core.tick.ExchangeClock;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The trading date of a classic pcap capture (plain or gzip): the New York date of its first record's
 * timestamp. ITCH carries only the time since midnight, so {@code decode} takes the date from here when none is
 * given. Other formats (pcapng, daily files) and unreadable files have no date here. Stateless.
 */
final class CaptureDate
{
    private static final int FIRST_RECORD_SECONDS = 24;
    /** Bytes of a stream that reading its head may take: the first gzip blocks inflated to 28 bytes. */
    static final int PEEK_LIMIT = 64 * 1024;

    private CaptureDate()
    {
    }

    /** @return the New York date of the capture's first record, or empty when it has none or is not a pcap. */
    static Optional<LocalDate> of(final Path file)
    {
        try (InputStream in = open(new BufferedInputStream(Files.newInputStream(file))))
        {
            return read(in);
        }
        catch (final IOException ex)
        {
            return Optional.empty();
        }
    }

    /**
     * Reads the date from the head of a stream (stdin) and puts the stream back where it was, so the decoder reads
     * it whole afterwards.
     *
     * @param stream a stream that supports mark and reset; left open.
     * @return the New York date of the capture's first record, or empty when it has none or is not a pcap.
     */
    static Optional<LocalDate> peek(final BufferedInputStream stream)
    {
        stream.mark(PEEK_LIMIT);
        try
        {
            // Not closed: that would close the stream; the inflater is dropped with it.
            return read(open(stream));
        }
        catch (final IOException ex)
        {
            return Optional.empty();
        }
        finally
        {
            try
            {
                stream.reset();
            }
            catch (final IOException ex)
            {
                throw new java.io.UncheckedIOException("cannot go back to the start of the input", ex);
            }
        }
    }

    private static Optional<LocalDate> read(final InputStream in) throws IOException
    {
        final byte[] head = new byte[FIRST_RECORD_SECONDS + 4];
        if (in.readNBytes(head, 0, head.length) < head.length)
        {
            return Optional.empty();
        }
        final ByteBuffer bytes = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        if (!isPcapMagic(bytes.getInt(0)))
        {
            bytes.order(ByteOrder.BIG_ENDIAN);
            if (!isPcapMagic(bytes.getInt(0)))
            {
                return Optional.empty();
            }
        }
        final long seconds = bytes.getInt(FIRST_RECORD_SECONDS) & 0xFFFF_FFFFL;
        return Optional.of(LocalDate.ofInstant(Instant.ofEpochSecond(seconds), ExchangeClock.NEW_YORK));
    }

    private static boolean isPcapMagic(final int magic)
    {
        return magic == 0xA1B2_C3D4 || magic == 0xA1B2_3C4D;
    }

    private static InputStream open(final BufferedInputStream raw) throws IOException
    {
        raw.mark(PEEK_LIMIT);
        final boolean gzip = raw.read() == 0x1F && raw.read() == 0x8B;
        raw.reset();
        return gzip ? new GZIPInputStream(raw) : raw;
    }
}
