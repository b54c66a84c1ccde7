package io.mdgate.bench;

import io.mdgate.core.feed.PacketHandler;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Makes a looped capture an endless session: each time a line's sequence numbers start over (the replay went
 * round), later packets of that line are shifted by the capture's span, so the feed session sees new messages
 * instead of duplicates. Rewrites the 8-byte sequence in the ingress's hand-over region, which the harness owns
 * for the length of the call. One thread.
 */
final class SequenceShifter implements PacketHandler
{
    private static final int SEQUENCE_OFFSET = 10;

    private final PacketHandler next;
    private final long span;
    private final long[] lastSequence = new long[3];
    private final long[] shift = new long[3];

    /**
     * @param next the session.
     * @param span sequences in one pass of the capture.
     */
    SequenceShifter(final PacketHandler next, final long span)
    {
        this.next = next;
        this.span = span;
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        final MutableDirectBuffer writable = (MutableDirectBuffer)buffer;
        final long sequence = writable.getLong(offset + SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN);
        if (sequence < lastSequence[line])
        {
            shift[line] += span;
        }
        lastSequence[line] = sequence;
        writable.putLong(offset + SEQUENCE_OFFSET, sequence + shift[line], ByteOrder.BIG_ENDIAN);
        next.onPacket(line, buffer, offset, length, receiveTimestampNanos);
    }
}
