package io.mdgate.core.mold;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static io.mdgate.core.mold.MoldUdp64Descriptor.BLOCK_LENGTH_FIELD_LENGTH;
import static io.mdgate.core.mold.MoldUdp64Descriptor.END_OF_SESSION_COUNT;
import static io.mdgate.core.mold.MoldUdp64Descriptor.HEADER_LENGTH;
import static io.mdgate.core.mold.MoldUdp64Descriptor.HEARTBEAT_COUNT;
import static io.mdgate.core.mold.MoldUdp64Descriptor.MAX_MESSAGE_COUNT;
import static io.mdgate.core.mold.MoldUdp64Descriptor.MAX_MESSAGE_LENGTH;
import static io.mdgate.core.mold.MoldUdp64Descriptor.MESSAGE_COUNT_OFFSET;
import static io.mdgate.core.mold.MoldUdp64Descriptor.SEQUENCE_NUMBER_OFFSET;
import static io.mdgate.core.mold.MoldUdp64Descriptor.SESSION_LENGTH;
import static io.mdgate.core.mold.MoldUdp64Descriptor.SESSION_OFFSET;

/**
 * Builds downstream MoldUDP64 packets in place: a header, then messages appended one block at a time until the
 * next one would not fit the capacity (the datagram size the sender allows). The buffer always holds a complete
 * packet of {@link #length()} bytes, ready to send. Also writes heartbeats and end-of-session packets.
 * <p>
 * Usage: {@code wrap}, {@code session}, {@code sequenceNumber}, {@code tryAppend} until it returns false, send
 * {@code length()} bytes, {@code reset(nextSequenceNumber())}. Allocation-free after construction. Not
 * thread-safe: one encoder per thread.
 */
public final class MoldUdp64PacketEncoder
{
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private final byte[] session = MoldUdp64Session.of("");
    private MutableDirectBuffer buffer;
    private int offset;
    private int capacity;
    private int length;
    private int messageCount;
    private long sequenceNumber;
    private boolean closed;

    /**
     * Starts a packet at {@code offset}, with the session last set (spaces until then) and sequence number 0.
     *
     * @param buffer   to build packets in.
     * @param offset   of the packet's first byte.
     * @param capacity the largest packet allowed, in bytes; at least the 20-byte header and inside the buffer.
     * @return this for a fluent API.
     * @throws IllegalArgumentException when the capacity cannot hold a header or exceeds the buffer.
     */
    public MoldUdp64PacketEncoder wrap(final MutableDirectBuffer buffer, final int offset, final int capacity)
    {
        if (capacity < HEADER_LENGTH || offset < 0 || capacity > buffer.capacity() - offset)
        {
            throw new IllegalArgumentException(
                "a MoldUDP64 packet needs " + HEADER_LENGTH + " to " + (buffer.capacity() - offset) +
                " bytes at offset " + offset + ", got capacity " + capacity);
        }
        this.buffer = buffer;
        this.offset = offset;
        this.capacity = capacity;
        return reset(0);
    }

    /**
     * Sets the session of this and every later packet.
     *
     * @param tenBytes the session as built by {@link MoldUdp64Session#of(String)}.
     * @return this for a fluent API.
     * @throws IllegalArgumentException when not exactly 10 bytes.
     */
    public MoldUdp64PacketEncoder session(final byte[] tenBytes)
    {
        MoldUdp64Session.checkLength(tenBytes);
        System.arraycopy(tenBytes, 0, session, 0, SESSION_LENGTH);
        if (buffer != null)
        {
            buffer.putBytes(offset + SESSION_OFFSET, session);
        }
        return this;
    }

    /**
     * @param firstSequence the sequence of the packet's first message.
     * @return this for a fluent API.
     */
    public MoldUdp64PacketEncoder sequenceNumber(final long firstSequence)
    {
        sequenceNumber = firstSequence;
        buffer.putLong(offset + SEQUENCE_NUMBER_OFFSET, firstSequence, BE);
        return this;
    }

    /** @return the sequence number in the header. */
    public long sequenceNumber()
    {
        return sequenceNumber;
    }

    /** @return the sequence of the message that would follow this packet. */
    public long nextSequenceNumber()
    {
        return sequenceNumber + messageCount;
    }

    /**
     * Appends one message as a block.
     *
     * @param src       holding the message.
     * @param srcOffset of its first byte.
     * @param length    of the message.
     * @return false, leaving the packet unchanged, when the block would exceed the capacity, the packet already
     * holds the most blocks a count can declare, or the packet is a heartbeat or end of session.
     */
    public boolean tryAppend(final DirectBuffer src, final int srcOffset, final int length)
    {
        if (closed || messageCount == MAX_MESSAGE_COUNT || length < 0 || length > MAX_MESSAGE_LENGTH ||
            length > capacity - this.length - BLOCK_LENGTH_FIELD_LENGTH)
        {
            return false;
        }
        final int at = offset + this.length;
        buffer.putShort(at, (short)length, BE);
        buffer.putBytes(at + BLOCK_LENGTH_FIELD_LENGTH, src, srcOffset, length);
        this.length += BLOCK_LENGTH_FIELD_LENGTH + length;
        messageCount(messageCount + 1);
        return true;
    }

    /** @return the number of messages in the packet so far. */
    public int messageCount()
    {
        return messageCount;
    }

    /** @return the packet's length in bytes so far, header included: what to send. */
    public int length()
    {
        return length;
    }

    /** @return the bytes a further message could take, after its block length field; negative when none fits. */
    public int remaining()
    {
        return capacity - length - BLOCK_LENGTH_FIELD_LENGTH;
    }

    /**
     * Replaces the packet with a heartbeat. Messages cannot be appended to it until {@link #reset(long)}.
     *
     * @param nextSequence the sequence of the next message the session will send.
     * @return the packet length, 20.
     */
    public int heartbeat(final long nextSequence)
    {
        return closedPacket(nextSequence, HEARTBEAT_COUNT);
    }

    /**
     * Replaces the packet with an end-of-session marker. Messages cannot be appended to it until
     * {@link #reset(long)}.
     *
     * @param nextSequence one past the last sequence of the session.
     * @return the packet length, 20.
     */
    public int endOfSession(final long nextSequence)
    {
        return closedPacket(nextSequence, END_OF_SESSION_COUNT);
    }

    /**
     * Starts a new, empty packet in the same place with the same session.
     *
     * @param firstSequence the sequence of its first message.
     * @return this for a fluent API.
     */
    public MoldUdp64PacketEncoder reset(final long firstSequence)
    {
        closed = false;
        length = HEADER_LENGTH;
        buffer.putBytes(offset + SESSION_OFFSET, session);
        sequenceNumber(firstSequence);
        messageCount(0);
        return this;
    }

    private int closedPacket(final long nextSequence, final int count)
    {
        reset(nextSequence);
        buffer.putShort(offset + MESSAGE_COUNT_OFFSET, (short)count, BE);
        closed = true;
        return length;
    }

    private void messageCount(final int count)
    {
        messageCount = count;
        buffer.putShort(offset + MESSAGE_COUNT_OFFSET, (short)count, BE);
    }
}
