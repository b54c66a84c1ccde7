package io.mdgate.core.mold;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

import static io.mdgate.core.mold.MoldUdp64Descriptor.BLOCK_LENGTH_FIELD_LENGTH;
import static io.mdgate.core.mold.MoldUdp64Descriptor.MESSAGE_COUNT_OFFSET;
import static io.mdgate.core.mold.MoldUdp64Descriptor.SEQUENCE_NUMBER_OFFSET;
import static io.mdgate.core.mold.MoldUdp64Descriptor.SESSION_OFFSET;

/**
 * Decodes one downstream MoldUDP64 packet (one UDP payload) and hands each of its messages, with its sequence
 * number, to a {@link MoldUdp64MessageHandler}.
 * <p>
 * The packet is checked as a whole before any message is dispatched: a header shorter than 20 bytes, a block
 * that runs past the end of the datagram, or bytes left over after the last declared block make the whole
 * packet malformed, so a handler never sees half of a damaged packet. Malformed packets are a negative return
 * code and a counter, never an exception. Allocation-free. After each call the header accessors describe the
 * packet just decoded (after {@link #BLOCK_OVERRUN} or {@link #TRAILING_BYTES}: what its header claimed; after
 * {@link #MALFORMED_HEADER}: zeros). Not thread-safe: one decoder per thread, counters read on that thread.
 */
public final class MoldUdp64PacketDecoder
{
    public static final int HEADER_LENGTH = MoldUdp64Descriptor.HEADER_LENGTH;
    public static final int SESSION_LENGTH = MoldUdp64Descriptor.SESSION_LENGTH;
    public static final int END_OF_SESSION_COUNT = MoldUdp64Descriptor.END_OF_SESSION_COUNT;

    /** The datagram is shorter than the 20-byte header, or does not lie inside the buffer. */
    public static final int MALFORMED_HEADER = -1;
    /** A block length points past the end of the datagram. */
    public static final int BLOCK_OVERRUN = -2;
    /** Bytes follow the last declared block (or a heartbeat or end-of-session header). */
    public static final int TRAILING_BYTES = -3;

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;
    private static final int WELL_FORMED = 0;

    private final byte[] session = new byte[SESSION_LENGTH];
    private long sequenceNumber;
    private int messageCount;
    private boolean heartbeat;
    private boolean endOfSession;

    private long packetCount;
    private long messagePacketCount;
    private long heartbeatCount;
    private long endOfSessionCount;
    private long messagesDispatched;
    private long malformedHeaderCount;
    private long blockOverrunCount;
    private long trailingBytesCount;

    /**
     * @param buffer  holding the datagram.
     * @param offset  of the datagram's first byte.
     * @param length  of the datagram.
     * @param handler to receive each message.
     * @return the number of messages dispatched (0 for a heartbeat or end of session), or
     * {@link #MALFORMED_HEADER}, {@link #BLOCK_OVERRUN} or {@link #TRAILING_BYTES}.
     */
    public int decode(final DirectBuffer buffer, final int offset, final int length, final MoldUdp64MessageHandler handler)
    {
        packetCount++;
        if (!readHeader(buffer, offset, length))
        {
            malformedHeaderCount++;
            return MALFORMED_HEADER;
        }

        final int framing = heartbeat || endOfSession ?
            checkNothingFollowsHeader(length) : checkBlocks(buffer, offset, offset + length, handler);
        if (framing != WELL_FORMED)
        {
            return framing;
        }

        if (heartbeat)
        {
            heartbeatCount++;
            return 0;
        }
        if (endOfSession)
        {
            endOfSessionCount++;
            return 0;
        }
        dispatch(buffer, offset, handler);
        messagePacketCount++;
        messagesDispatched += messageCount;
        return messageCount;
    }

    private boolean readHeader(final DirectBuffer buffer, final int offset, final int length)
    {
        heartbeat = false;
        endOfSession = false;
        if (length < HEADER_LENGTH || offset < 0 || length > buffer.capacity() - offset)
        {
            sequenceNumber = 0;
            messageCount = 0;
            Arrays.fill(session, (byte)0);
            return false;
        }
        buffer.getBytes(offset + SESSION_OFFSET, session);
        sequenceNumber = buffer.getLong(offset + SEQUENCE_NUMBER_OFFSET, BE);
        final int count = buffer.getShort(offset + MESSAGE_COUNT_OFFSET, BE) & 0xFFFF;
        heartbeat = count == MoldUdp64Descriptor.HEARTBEAT_COUNT;
        endOfSession = count == END_OF_SESSION_COUNT;
        messageCount = endOfSession ? 0 : count;
        return true;
    }

    private int checkNothingFollowsHeader(final int length)
    {
        if (length != HEADER_LENGTH)
        {
            trailingBytesCount++;
            return TRAILING_BYTES;
        }
        return WELL_FORMED;
    }

    /**
     * Walks the declared blocks without dispatching, comparing remaining lengths so that no sum can overflow, and
     * offers each block that lies inside the datagram to the handler's {@link MoldUdp64MessageHandler#prefetch}.
     *
     * @return {@link #WELL_FORMED} when the blocks exactly fill the datagram, {@link #BLOCK_OVERRUN} or
     * {@link #TRAILING_BYTES}.
     */
    private int checkBlocks(
        final DirectBuffer buffer, final int offset, final int end, final MoldUdp64MessageHandler handler)
    {
        int position = offset + HEADER_LENGTH;
        for (int i = 0; i < messageCount; i++)
        {
            if (end - position < BLOCK_LENGTH_FIELD_LENGTH)
            {
                blockOverrunCount++;
                return BLOCK_OVERRUN;
            }
            final int blockLength = buffer.getShort(position, BE) & 0xFFFF;
            position += BLOCK_LENGTH_FIELD_LENGTH;
            if (blockLength > end - position)
            {
                blockOverrunCount++;
                return BLOCK_OVERRUN;
            }
            handler.prefetch(buffer, position, blockLength);
            position += blockLength;
        }
        if (position != end)
        {
            trailingBytesCount++;
            return TRAILING_BYTES;
        }
        return WELL_FORMED;
    }

    private void dispatch(final DirectBuffer buffer, final int offset, final MoldUdp64MessageHandler handler)
    {
        int position = offset + HEADER_LENGTH;
        final long first = sequenceNumber;
        for (int i = 0; i < messageCount; i++)
        {
            final int blockLength = buffer.getShort(position, BE) & 0xFFFF;
            position += BLOCK_LENGTH_FIELD_LENGTH;
            handler.onMessage(buffer, position, blockLength, first + i);
            position += blockLength;
        }
    }

    /**
     * @return the sequence number in the last packet's header: its first message's sequence, or for a heartbeat
     * and end of session the next sequence expected. 0 after {@link #MALFORMED_HEADER}.
     */
    public long sequenceNumber()
    {
        return sequenceNumber;
    }

    /** @return the number of messages the last packet declares; 0 for a heartbeat and end of session. */
    public int messageCount()
    {
        return messageCount;
    }

    /** @return the sequence that should follow the last packet. */
    public long nextSequenceNumber()
    {
        return sequenceNumber + messageCount;
    }

    public boolean isHeartbeat()
    {
        return heartbeat;
    }

    public boolean isEndOfSession()
    {
        return endOfSession;
    }

    /**
     * Copies the last packet's session into {@code dst}.
     *
     * @param dst at least {@link #SESSION_LENGTH} bytes.
     */
    public void session(final byte[] dst)
    {
        System.arraycopy(session, 0, dst, 0, SESSION_LENGTH);
    }

    /** @return true when the last packet's session equals these 10 bytes; allocation-free. */
    public boolean sessionEquals(final byte[] expected)
    {
        return Arrays.equals(session, expected);
    }

    /** @return the last packet's session as text, padding removed. Allocates: for reports, not the hot path. */
    public String sessionString()
    {
        return MoldUdp64Session.text(session);
    }

    /** @return datagrams given to {@link #decode}, well-formed or not. */
    public long packetCount()
    {
        return packetCount;
    }

    /** @return well-formed packets that carried messages. */
    public long messagePacketCount()
    {
        return messagePacketCount;
    }

    public long heartbeatCount()
    {
        return heartbeatCount;
    }

    public long endOfSessionCount()
    {
        return endOfSessionCount;
    }

    /** @return messages handed to handlers, over all packets. */
    public long messagesDispatched()
    {
        return messagesDispatched;
    }

    public long malformedHeaderCount()
    {
        return malformedHeaderCount;
    }

    public long blockOverrunCount()
    {
        return blockOverrunCount;
    }

    public long trailingBytesCount()
    {
        return trailingBytesCount;
    }

    /** @return packets refused for any reason. */
    public long malformedCount()
    {
        return malformedHeaderCount + blockOverrunCount + trailingBytesCount;
    }
}
