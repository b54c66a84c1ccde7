package io.mdgate.core.capture;

import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.mold.MoldUdp64MessageHandler;
import org.agrona.DirectBuffer;

/**
 * The end of the decode pipeline: decodes each message with an {@link ItchMessageDecoder}, counts the well-formed
 * ones per type and the malformed ones per reason, and passes each well-formed message on to an optional
 * {@link ItchMessageHandler} (during the decode) and an optional next {@link MoldUdp64MessageHandler} (after it,
 * with its sequence; e.g. a book and tick stage).
 * <p>
 * Allocation-free. Not thread-safe: one reader thread.
 */
public final class MessageTally implements MoldUdp64MessageHandler
{
    private static final ItchMessageHandler NO_ITCH_HANDLER = new ItchMessageHandler()
    {
    };

    private final ItchMessageDecoder decoder = new ItchMessageDecoder();
    private final ItchMessageHandler itchHandler;
    private final MoldUdp64MessageHandler next;
    private final long[] counts = new long[256];
    private long records;
    private long messages;
    private long firstSequence;
    private long lastSequence;

    /** A tally that only counts. */
    public MessageTally()
    {
        this(null, null);
    }

    /**
     * @param itchHandler receives each well-formed message as a flyweight; may be null.
     * @param next        receives each well-formed message with its sequence after it was decoded; may be null.
     */
    public MessageTally(final ItchMessageHandler itchHandler, final MoldUdp64MessageHandler next)
    {
        this.itchHandler = itchHandler == null ? NO_ITCH_HANDLER : itchHandler;
        this.next = next;
    }

    @Override
    public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        if (records++ == 0)
        {
            firstSequence = sequence;
        }
        lastSequence = sequence;
        if (decoder.decode(buffer, offset, length, itchHandler) != ItchMessageDecoder.OK)
        {
            return;
        }
        counts[buffer.getByte(offset) & 0xFF]++;
        messages++;
        if (next != null)
        {
            next.onMessage(buffer, offset, length, sequence);
        }
    }

    /** @return records seen, well-formed or not. */
    public long records()
    {
        return records;
    }

    /** @return well-formed messages. */
    public long messages()
    {
        return messages;
    }

    /** @param type an ITCH type byte such as {@code 'A'}. @return well-formed messages of that type. */
    public long count(final byte type)
    {
        return counts[type & 0xFF];
    }

    /** @return messages whose type byte is not ITCH 5.0. */
    public long unknownType()
    {
        return decoder.unknownTypeCount();
    }

    /** @return messages whose length is not the one their type has. */
    public long lengthMismatch()
    {
        return decoder.lengthMismatchCount();
    }

    /** @return sequence of the first record seen, 0 before any. */
    public long firstSequence()
    {
        return firstSequence;
    }

    /** @return sequence of the last record seen, 0 before any. */
    public long lastSequence()
    {
        return lastSequence;
    }
}
