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

    private CaptureDate()
    {
    }

    /** @return the New York date of the capture's first record, or empty when it has none or is not a pcap. */
    static Optional<LocalDate> of(final Path file)
    {
        final byte[] head = new byte[FIRST_RECORD_SECONDS + 4];
        try (InputStream in = open(file))
        {
            if (in.readNBytes(head, 0, head.length) < head.length)
            {
                return Optional.empty();
            }
        }
        catch (final IOException ex)
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

    private static InputStream open(final Path file) throws IOException
    {
        final InputStream raw = new BufferedInputStream(Files.newInputStream(file));
        raw.mark(2);
        final boolean gzip = raw.read() == 0x1F && raw.read() == 0x8B;
        raw.reset();
        return gzip ? new GZIPInputStream(raw) : raw;
    }
}
