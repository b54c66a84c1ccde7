package io.mdgate.core.feed;

import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64Session;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Merges the A and B lines of one MoldUDP64 session into one stream in which every sequence is delivered once, in
 * order.
 * <ul>
 *   <li>The first copy of a sequence wins; later copies are counted as duplicate messages (and a packet adding
 *   nothing new as a duplicate packet).</li>
 *   <li>A packet that arrives ahead of a missing sequence is held in a {@link ReorderWindow} so the other line can
 *   fill the hole. Only when the window is full, or at {@link #finish()}, is the hole declared a gap: the gap event
 *   and the missing messages are counted and the first {@link #MAX_GAP_RANGES} ranges kept.</li>
 *   <li>Heartbeats and end of session carry the next expected sequence, so a hole before them is found too.</li>
 *   <li>The first sequenced packet sets where the stream starts (a capture usually begins mid-session).</li>
 *   <li>Every packet is validated by the {@link MoldUdp64PacketDecoder} before it counts: a malformed packet is
 *   counted by reason and dropped, and its sequences stay missing unless the other line brings them.</li>
 *   <li>The first session id seen is the one arbitrated. Packets of other sessions are counted per session (the
 *   first {@link #MAX_OTHER_SESSIONS}) and dropped: sequences of different sessions cannot be merged.</li>
 *   <li>Packets with sequence number 0, which MoldUDP64 never assigns (sessions start at 1), are treated as
 *   unsequenced: their messages are delivered as they arrive, without arbitration, and counted.</li>
 * </ul>
 * Allocation-free after construction. Not thread-safe: one thread feeds both lines.
 */
public final class LineArbiter
{
    /** Index of the A line in {@link #onPacket}. */
    public static final int LINE_A = 0;
    /** Index of the B line in {@link #onPacket}. */
    public static final int LINE_B = 1;
    public static final int LINES = 2;

    /** The packet's new messages were delivered (it may also have repeated some already delivered). */
    public static final int IN_SEQUENCE = 0;
    /** The packet arrived ahead of a hole and is held in the reorder window. */
    public static final int HELD = 1;
    /** Every message of the packet was seen already. */
    public static final int DUPLICATE = 2;
    /** A heartbeat or end-of-session packet. */
    public static final int CONTROL = 3;
    /** A packet with sequence 0, delivered without arbitration. */
    public static final int UNSEQUENCED = 4;
    /** The packet failed validation and was dropped. */
    public static final int MALFORMED = -1;
    /** The packet belongs to another session and was dropped. */
    public static final int OTHER_SESSION = -2;

    public static final int DEFAULT_REORDER_WINDOW = 64;
    /** Largest UDP payload over IPv4: the largest packet the window must be able to hold. */
    public static final int MAX_PACKET_LENGTH = 65_507;
    public static final int MAX_GAP_RANGES = 16;
    public static final int MAX_OTHER_SESSIONS = 8;

    private static final int SEQUENCE_OFFSET = MoldUdp64PacketDecoder.SESSION_LENGTH;
    private static final int COUNT_OFFSET = SEQUENCE_OFFSET + 8;
    private static final MoldUdp64MessageHandler VALIDATE_ONLY = (buffer, offset, length, sequence) -> {};

    private final MoldUdp64PacketDecoder decoder = new MoldUdp64PacketDecoder();
    private final ReorderWindow window;
    private final MoldUdp64MessageHandler handler;
    private final MoldUdp64MessageHandler inSequence = this::onInSequenceMessage;
    private final MoldUdp64MessageHandler unsequenced = this::onUnsequencedMessage;

    private final byte[] session = new byte[MoldUdp64PacketDecoder.SESSION_LENGTH];
    private final byte[][] otherSessions = new byte[MAX_OTHER_SESSIONS][MoldUdp64PacketDecoder.SESSION_LENGTH];
    private final long[] otherSessionPackets = new long[MAX_OTHER_SESSIONS];
    private final long[] linePackets = new long[LINES];
    private final long[] gapFrom = new long[MAX_GAP_RANGES];
    private final long[] gapTo = new long[MAX_GAP_RANGES];

    private boolean hasSession;
    private boolean started;
    private long nextSequence;
    private int otherSessionCount;
    private long otherSessionOverflowPackets;

    private long messages;
    private long firstSequence;
    private long lastSequence;
    private long duplicatePackets;
    private long duplicateMessages;
    private long heldPackets;
    private long heartbeats;
    private boolean endOfSession;
    private long unsequencedPackets;
    private long malformedHeaderPackets;
    private long blockOverrunPackets;
    private long trailingBytesPackets;
    private long malformedOtherPackets;
    private long gaps;
    private long missingMessages;

    /**
     * @param reorderWindow packets that may be held waiting for a hole to fill; 0 makes every hole a gap at once.
     * @param handler       receives every message once, in sequence order.
     */
    public LineArbiter(final int reorderWindow, final MoldUdp64MessageHandler handler)
    {
        this(reorderWindow, MAX_PACKET_LENGTH, handler);
    }

    /**
     * @param reorderWindow   packets that may be held waiting for a hole to fill; 0 makes every hole a gap at once.
     * @param maxPacketLength largest packet that can be held; a longer packet ahead of a hole forces the gap.
     * @param handler         receives every message once, in sequence order.
     */
    public LineArbiter(final int reorderWindow, final int maxPacketLength, final MoldUdp64MessageHandler handler)
    {
        this.window = new ReorderWindow(reorderWindow, maxPacketLength);
        this.handler = handler;
    }

    /**
     * Takes one MoldUDP64 packet from a line.
     *
     * @param line   {@link #LINE_A} or {@link #LINE_B}.
     * @param buffer holding the packet (the UDP payload).
     * @param offset of the packet.
     * @param length of the packet.
     * @return {@link #IN_SEQUENCE}, {@link #HELD}, {@link #DUPLICATE}, {@link #CONTROL}, {@link #UNSEQUENCED},
     * {@link #MALFORMED} or {@link #OTHER_SESSION}.
     */
    public int onPacket(final int line, final DirectBuffer buffer, final int offset, final int length)
    {
        linePackets[line]++;
        if (length < MoldUdp64PacketDecoder.HEADER_LENGTH)
        {
            return malformed(decoder.decode(buffer, offset, length, VALIDATE_ONLY));
        }
        if (!isSession(buffer, offset))
        {
            return OTHER_SESSION;
        }
        final long sequence = buffer.getLong(offset + SEQUENCE_OFFSET, ByteOrder.BIG_ENDIAN);
        final int count = buffer.getShort(offset + COUNT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        if (sequence == 0)
        {
            return onUnsequenced(buffer, offset, length, count);
        }
        if (!started)
        {
            started = true;
            nextSequence = sequence;
        }
        if (isControl(count))
        {
            return onControl(buffer, offset, length, sequence, count);
        }
        if (sequence + count <= nextSequence)
        {
            return onDuplicate(buffer, offset, length, count);
        }
        if (sequence <= nextSequence)
        {
            return deliver(buffer, offset, length);
        }
        final int result = decoder.decode(buffer, offset, length, VALIDATE_ONLY);
        return result < 0 ? malformed(result) : hold(buffer, offset, length, sequence, count);
    }

    /**
     * Declares every hole still open a gap and delivers what the window holds. Call at the end of the input; the
     * arbiter may be fed again afterwards.
     */
    public void finish()
    {
        while (!window.isEmpty())
        {
            gapTo(window.sequence(window.lowestSlot()));
            drainWindow();
        }
    }

    private static boolean isControl(final int count)
    {
        return count == 0 || count == MoldUdp64PacketDecoder.END_OF_SESSION_COUNT;
    }

    private boolean isSession(final DirectBuffer buffer, final int offset)
    {
        if (!hasSession)
        {
            buffer.getBytes(offset, session);
            hasSession = true;
            return true;
        }
        if (sameSession(session, buffer, offset))
        {
            return true;
        }
        countOtherSession(buffer, offset);
        return false;
    }

    private static boolean sameSession(final byte[] known, final DirectBuffer buffer, final int offset)
    {
        for (int i = 0; i < known.length; i++)
        {
            if (known[i] != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    private void countOtherSession(final DirectBuffer buffer, final int offset)
    {
        for (int i = 0; i < otherSessionCount; i++)
        {
            if (sameSession(otherSessions[i], buffer, offset))
            {
                otherSessionPackets[i]++;
                return;
            }
        }
        if (otherSessionCount < MAX_OTHER_SESSIONS)
        {
            buffer.getBytes(offset, otherSessions[otherSessionCount]);
            otherSessionPackets[otherSessionCount++] = 1;
        }
        else
        {
            otherSessionOverflowPackets++;
        }
    }

    private int onUnsequenced(final DirectBuffer buffer, final int offset, final int length, final int count)
    {
        final int result = decoder.decode(buffer, offset, length, unsequenced);
        if (result < 0)
        {
            return malformed(result);
        }
        unsequencedPackets++;
        countControl(count);
        return UNSEQUENCED;
    }

    private int onControl(
        final DirectBuffer buffer, final int offset, final int length, final long sequence, final int count)
    {
        final int result = decoder.decode(buffer, offset, length, VALIDATE_ONLY);
        if (result < 0)
        {
            return malformed(result);
        }
        countControl(count);
        if (sequence > nextSequence && !window.contains(sequence, 0))
        {
            hold(buffer, offset, length, sequence, 0);
        }
        return CONTROL;
    }

    private void countControl(final int count)
    {
        if (count == 0)
        {
            heartbeats++;
        }
        else if (count == MoldUdp64PacketDecoder.END_OF_SESSION_COUNT)
        {
            endOfSession = true;
        }
    }

    private int onDuplicate(final DirectBuffer buffer, final int offset, final int length, final int count)
    {
        final int result = decoder.decode(buffer, offset, length, VALIDATE_ONLY);
        if (result < 0)
        {
            return malformed(result);
        }
        return duplicate(count);
    }

    private int duplicate(final int count)
    {
        duplicatePackets++;
        duplicateMessages += count;
        return DUPLICATE;
    }

    private int deliver(final DirectBuffer buffer, final int offset, final int length)
    {
        final int result = decoder.decode(buffer, offset, length, inSequence);
        if (result < 0)
        {
            return malformed(result);
        }
        drainWindow();
        return IN_SEQUENCE;
    }

    /**
     * Holds a validated packet that is ahead of the next expected sequence. While the window has no room, the hole
     * below the lowest packet (held or new) is declared a gap and whatever becomes contiguous is delivered.
     */
    private int hold(
        final DirectBuffer buffer, final int offset, final int length, final long sequence, final int count)
    {
        if (count > 0 && window.contains(sequence, count))
        {
            return duplicate(count);
        }
        while (window.isFull() || length > window.slotLength())
        {
            final int lowest = window.lowestSlot();
            gapTo(lowest < 0 ? sequence : Math.min(sequence, window.sequence(lowest)));
            drainWindow();
            if (sequence <= nextSequence)
            {
                if (count == 0)
                {
                    return CONTROL;
                }
                return sequence + count <= nextSequence ? duplicate(count) : deliver(buffer, offset, length);
            }
        }
        window.add(buffer, offset, length, sequence, count);
        heldPackets++;
        return HELD;
    }

    /** Delivers held packets for as long as the lowest one starts at or below the next expected sequence. */
    private void drainWindow()
    {
        int slot;
        while ((slot = window.lowestSlot()) >= 0 && window.sequence(slot) <= nextSequence)
        {
            final int count = window.count(slot);
            if (count > 0)
            {
                if (window.sequence(slot) + count <= nextSequence)
                {
                    duplicate(count);
                }
                else
                {
                    decoder.decode(window.buffer(), window.offset(slot), window.length(slot), inSequence);
                }
            }
            window.remove(slot);
        }
    }

    private void gapTo(final long sequence)
    {
        if (sequence > nextSequence)
        {
            if (gaps < MAX_GAP_RANGES)
            {
                gapFrom[(int)gaps] = nextSequence;
                gapTo[(int)gaps] = sequence;
            }
            gaps++;
            missingMessages += sequence - nextSequence;
            nextSequence = sequence;
        }
    }

    private void onInSequenceMessage(
        final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        if (sequence < nextSequence)
        {
            duplicateMessages++;
            return;
        }
        nextSequence = sequence + 1;
        delivered(sequence);
        handler.onMessage(buffer, offset, length, sequence);
    }

    private void onUnsequencedMessage(
        final DirectBuffer buffer, final int offset, final int length, final long sequence)
    {
        delivered(sequence);
        handler.onMessage(buffer, offset, length, sequence);
    }

    private void delivered(final long sequence)
    {
        if (messages++ == 0)
        {
            firstSequence = sequence;
        }
        lastSequence = sequence;
    }

    private int malformed(final int result)
    {
        if (result == MoldUdp64PacketDecoder.MALFORMED_HEADER)
        {
            malformedHeaderPackets++;
        }
        else if (result == MoldUdp64PacketDecoder.BLOCK_OVERRUN)
        {
            blockOverrunPackets++;
        }
        else if (result == MoldUdp64PacketDecoder.TRAILING_BYTES)
        {
            trailingBytesPackets++;
        }
        else
        {
            malformedOtherPackets++;
        }
        return MALFORMED;
    }

    /** @return messages delivered to the handler. */
    public long messages()
    {
        return messages;
    }

    /** @return sequence of the first message delivered, 0 before any. */
    public long firstSequence()
    {
        return firstSequence;
    }

    /** @return sequence of the last message delivered, 0 before any. */
    public long lastSequence()
    {
        return lastSequence;
    }

    /** @return the sequence the arbiter waits for next. */
    public long nextSequence()
    {
        return nextSequence;
    }

    /** @return packets received on a line, whatever became of them. */
    public long packets(final int line)
    {
        return linePackets[line];
    }

    public long packets()
    {
        long total = 0;
        for (final long count : linePackets)
        {
            total += count;
        }
        return total;
    }

    public long duplicatePackets()
    {
        return duplicatePackets;
    }

    /** @return copies of messages already delivered. */
    public long duplicateMessages()
    {
        return duplicateMessages;
    }

    /** @return packets that had to wait in the reorder window. */
    public long heldPackets()
    {
        return heldPackets;
    }

    /** @return packets in the reorder window now. */
    public int heldNow()
    {
        return window.size();
    }

    public long heartbeats()
    {
        return heartbeats;
    }

    public boolean endOfSession()
    {
        return endOfSession;
    }

    public long unsequencedPackets()
    {
        return unsequencedPackets;
    }

    /** @return packets too short for a MoldUDP64 header. */
    public long malformedHeaderPackets()
    {
        return malformedHeaderPackets;
    }

    /** @return packets whose message blocks overrun the datagram. */
    public long blockOverrunPackets()
    {
        return blockOverrunPackets;
    }

    /** @return packets with bytes after their last declared block (or after a heartbeat's header). */
    public long trailingBytesPackets()
    {
        return trailingBytesPackets;
    }

    /** @return packets refused by the decoder for any other reason. */
    public long malformedOtherPackets()
    {
        return malformedOtherPackets;
    }

    public long malformedPackets()
    {
        return malformedHeaderPackets + blockOverrunPackets + trailingBytesPackets + malformedOtherPackets;
    }

    /** @return holes declared: each is one gap event, however many messages it misses. */
    public long gaps()
    {
        return gaps;
    }

    public long missingMessages()
    {
        return missingMessages;
    }

    /** @return gap ranges kept, at most {@link #MAX_GAP_RANGES}. */
    public int gapRanges()
    {
        return (int)Math.min(gaps, MAX_GAP_RANGES);
    }

    /** @return first missing sequence of a kept gap. */
    public long gapFrom(final int index)
    {
        return gapFrom[index];
    }

    /** @return the sequence after the last missing one of a kept gap (exclusive end). */
    public long gapTo(final int index)
    {
        return gapTo[index];
    }

    /** @return true once a packet has set the session. */
    public boolean hasSession()
    {
        return hasSession;
    }

    /** @return the arbitrated session id as text without its padding. Allocates: for reports. */
    public String session()
    {
        return hasSession ? MoldUdp64Session.text(session) : "";
    }

    /** @return distinct other sessions counted, at most {@link #MAX_OTHER_SESSIONS}. */
    public int otherSessions()
    {
        return otherSessionCount;
    }

    /** @return an other session's id as text without its padding. Allocates: for reports. */
    public String otherSession(final int index)
    {
        return MoldUdp64Session.text(otherSessions[index]);
    }

    public long otherSessionPackets(final int index)
    {
        return otherSessionPackets[index];
    }

    /** @return packets of sessions beyond the first {@link #MAX_OTHER_SESSIONS} others. */
    public long otherSessionOverflowPackets()
    {
        return otherSessionOverflowPackets;
    }

    /** @return all packets dropped for belonging to another session. */
    public long otherSessionPacketsTotal()
    {
        long total = otherSessionOverflowPackets;
        for (int i = 0; i < otherSessionCount; i++)
        {
            total += otherSessionPackets[i];
        }
        return total;
    }
}
