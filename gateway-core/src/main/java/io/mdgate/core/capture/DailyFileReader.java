package io.mdgate.core.capture;

import io.mdgate.core.mold.MoldUdp64MessageHandler;

import java.io.IOException;
import java.nio.ByteOrder;

/**
 * Frames a Nasdaq daily file ({@code [u16 BE length][message]} repeated) and hands every record to a handler, in
 * place in the input's window. The sequence given with a message is its 1-based position in the file, which for a
 * complete day is its MoldUDP64 sequence number. The record is not checked here: the handler decodes it and
 * counts a bad type or length. A last record cut short by the end of the file is counted by
 * {@link #truncatedRecords()}, never thrown.
 * <p>
 * Not thread-safe: one reader thread.
 */
public final class DailyFileReader
{
    static final int PREFIX_LENGTH = 2;

    private long records;
    private long truncatedRecords;

    /**
     * Reads the input to its end.
     *
     * @param input   positioned at the first record.
     * @param handler receives each record with its position in the file as the sequence.
     * @return records delivered.
     * @throws IOException when the file cannot be read.
     */
    public long read(final CaptureInput input, final MoldUdp64MessageHandler handler) throws IOException
    {
        final long before = records;
        while (input.ensure(PREFIX_LENGTH))
        {
            final int length = input.buffer().getShort(input.position(), ByteOrder.BIG_ENDIAN) & 0xFFFF;
            if (!input.ensure(PREFIX_LENGTH + length))
            {
                break;
            }
            final int at = input.position();
            input.advance(PREFIX_LENGTH + length);
            handler.onMessage(input.buffer(), at + PREFIX_LENGTH, length, ++records);
        }
        countTruncatedTail(input);
        return records - before;
    }

    private void countTruncatedTail(final CaptureInput input)
    {
        if (input.remaining() > 0)
        {
            truncatedRecords++;
            input.advance(input.remaining());
        }
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
}
