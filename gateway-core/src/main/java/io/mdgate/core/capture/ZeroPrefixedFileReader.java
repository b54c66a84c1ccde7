package io.mdgate.core.capture;

import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.mold.MoldUdp64MessageHandler;

import java.io.IOException;

/**
 * Frames an ITCH file whose two-byte length prefixes carry no length (typically all zero): each record is two
 * prefix bytes, ignored, then a message framed by the fixed length of its type
 * ({@link ItchMessageType#lengthOf(byte)}). The sequence given with a message is its 1-based position in the file.
 * <p>
 * A type byte that is not ITCH 5.0 leaves nothing to frame by: it is counted by {@link #unknownTypeRecords()} and
 * the reader scans forward byte by byte to the next place where two records in a row frame cleanly, counting the
 * bytes it skipped. A last record cut short by the end of the file is counted by {@link #truncatedRecords()}.
 * <p>
 * Not thread-safe: one reader thread.
 */
public final class ZeroPrefixedFileReader
{
    private static final int PREFIX_LENGTH = DailyFileReader.PREFIX_LENGTH;
    private static final int MAX_RECORD_LENGTH = PREFIX_LENGTH + 255;

    private long records;
    private long truncatedRecords;
    private long unknownTypeRecords;
    private long skippedBytes;

    /**
     * Reads the input to its end.
     *
     * @param input   positioned at the first record.
     * @param handler receives each message with its position in the file as the sequence.
     * @return records delivered.
     * @throws IOException when the file cannot be read.
     */
    public long read(final CaptureInput input, final MoldUdp64MessageHandler handler) throws IOException
    {
        final long before = records;
        while (input.ensure(PREFIX_LENGTH + 1))
        {
            final int length = ItchMessageType.lengthOf(input.buffer().getByte(input.position() + PREFIX_LENGTH));
            if (length == 0)
            {
                unknownTypeRecords++;
                resynchronise(input);
                continue;
            }
            if (!input.ensure(PREFIX_LENGTH + length))
            {
                break;
            }
            final int at = input.position();
            input.advance(PREFIX_LENGTH + length);
            handler.onMessage(input.buffer(), at + PREFIX_LENGTH, length, ++records);
        }
        if (input.remaining() > 0)
        {
            truncatedRecords++;
            input.advance(input.remaining());
        }
        return records - before;
    }

    /**
     * Skips at least one byte, then up to the next offset where a record frames and the record after it does too
     * (or the data ends right after the first). Bytes left at the end that start no record are skipped too.
     */
    private void resynchronise(final CaptureInput input) throws IOException
    {
        do
        {
            input.advance(1);
            skippedBytes++;
        }
        while (input.ensure(PREFIX_LENGTH + 1) && !startsTwoRecords(input));
        if (input.remaining() < PREFIX_LENGTH + 1)
        {
            skippedBytes += input.remaining();
            input.advance(input.remaining());
        }
    }

    private static boolean startsTwoRecords(final CaptureInput input) throws IOException
    {
        input.ensure(2 * MAX_RECORD_LENGTH);
        final int first = ItchMessageType.lengthOf(input.buffer().getByte(input.position() + PREFIX_LENGTH));
        if (first == 0 || input.remaining() < PREFIX_LENGTH + first)
        {
            return false;
        }
        final int next = PREFIX_LENGTH + first;
        if (input.remaining() == next)
        {
            return true;
        }
        return input.remaining() > next + PREFIX_LENGTH &&
            ItchMessageType.lengthOf(input.buffer().getByte(input.position() + next + PREFIX_LENGTH)) != 0;
    }

    /** @return records framed and delivered. */
    public long records()
    {
        return records;
    }

    /** @return records cut short by the end of the data (at most one per file). */
    public long truncatedRecords()
    {
        return truncatedRecords;
    }

    /** @return places where the type byte was not ITCH 5.0, so framing was lost and had to be found again. */
    public long unknownTypeRecords()
    {
        return unknownTypeRecords;
    }

    /** @return bytes skipped while finding the framing again. */
    public long skippedBytes()
    {
        return skippedBytes;
    }
}
