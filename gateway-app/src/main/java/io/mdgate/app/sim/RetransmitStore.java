package io.mdgate.app.sim;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The messages of the session by sequence, for the re-request server: a byte ring holding each message with a
 * u16 length prefix, and the ring position of each retained sequence. Bounded twice: at most
 * {@code maxMessages} sequences and {@code logBytes} bytes; the oldest messages are dropped to make room.
 * Messages must be appended in sequence order. Allocation-free after construction. Not thread-safe: written
 * and read on the simulator's thread.
 */
public final class RetransmitStore
{
    private static final int PREFIX = 2;

    private final int maxMessages;
    private final long[] positions;
    private final UnsafeBuffer log;
    private final int logCapacity;
    private long writePosition;
    private long oldest;
    private long next;

    /**
     * @param firstSequence sequence of the first message to be appended.
     * @param maxMessages   most messages retained.
     * @param logBytes      bytes for messages and their 2-byte prefixes.
     */
    public RetransmitStore(final long firstSequence, final int maxMessages, final int logBytes)
    {
        if (maxMessages < 1 || logBytes < 64)
        {
            throw new IllegalArgumentException("retransmit store needs at least 1 message and 64 bytes");
        }
        this.maxMessages = maxMessages;
        this.positions = new long[maxMessages];
        this.logCapacity = logBytes;
        this.log = new UnsafeBuffer(new byte[logBytes]);
        this.oldest = firstSequence;
        this.next = firstSequence;
    }

    /**
     * @param sequence must be {@link #nextSequence()}.
     * @throws IllegalArgumentException when out of order, or the message is longer than the log.
     */
    public void append(final long sequence, final DirectBuffer buffer, final int offset, final int length)
    {
        if (sequence != next || length > logCapacity - PREFIX || length > 0xFFFF)
        {
            throw new IllegalArgumentException("append sequence " + sequence + " (expected " + next + "), length " +
                length);
        }
        final int at = (int)(writePosition % logCapacity);
        log.putByte(at, (byte)(length >>> 8));
        log.putByte((at + 1) % logCapacity, (byte)length);
        final int body = (at + PREFIX) % logCapacity;
        final int beforeEnd = Math.min(length, logCapacity - body);
        log.putBytes(body, buffer, offset, beforeEnd);
        log.putBytes(0, buffer, offset + beforeEnd, length - beforeEnd);
        positions[slot(sequence)] = writePosition;
        writePosition += PREFIX + length;
        next++;
        while (oldest < next && (next - oldest > maxMessages || positions[slot(oldest)] < writePosition - logCapacity))
        {
            oldest++;
        }
    }

    private int slot(final long sequence)
    {
        return (int)(sequence % maxMessages);
    }

    /** @return true when the message with this sequence is retained. */
    public boolean contains(final long sequence)
    {
        return sequence >= oldest && sequence < next;
    }

    /**
     * Copies a retained message out.
     *
     * @return its length, or -1 when it is not retained.
     */
    public int copy(final long sequence, final MutableDirectBuffer dst, final int dstOffset)
    {
        if (!contains(sequence))
        {
            return -1;
        }
        final int at = (int)(positions[slot(sequence)] % logCapacity);
        final int length = ((log.getByte(at) & 0xFF) << 8) | (log.getByte((at + 1) % logCapacity) & 0xFF);
        final int body = (at + PREFIX) % logCapacity;
        final int beforeEnd = Math.min(length, logCapacity - body);
        dst.putBytes(dstOffset, log, body, beforeEnd);
        dst.putBytes(dstOffset + beforeEnd, log, 0, length - beforeEnd);
        return length;
    }

    /** @return the oldest retained sequence (equal to {@link #nextSequence()} when empty). */
    public long oldestSequence()
    {
        return oldest;
    }

    /** @return the sequence the next appended message must have. */
    public long nextSequence()
    {
        return next;
    }
}
