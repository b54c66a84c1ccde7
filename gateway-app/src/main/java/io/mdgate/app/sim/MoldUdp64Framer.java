package io.mdgate.app.sim;

import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Packs a stream of timestamped messages into MoldUDP64 downstream packets, as an exchange's sender does: a
 * packet takes the messages that arrive within a short window after its first one, up to a message count and
 * the datagram size; when the feed is idle for a heartbeat interval of exchange time, a heartbeat goes out
 * (carrying the next sequence); {@link #finish(long)} sends what is left and the end-of-session packet.
 * Sequences start at 1. Allocation-free after construction. Not thread-safe.
 */
public final class MoldUdp64Framer
{
    /** Sequence of the session's first message. */
    public static final long FIRST_SEQUENCE = 1;

    private final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
    private final UnsafeBuffer packet;
    private final int maxMessagesPerPacket;
    private final long windowNanos;
    private final long heartbeatNanos;
    private final PacketListener listener;
    private long nextSequence = FIRST_SEQUENCE;
    private boolean open;
    private long packetFirstTimestamp;
    private long lastTimestamp;
    private long lastSentTimestamp = -1;
    private long dataPackets;
    private long heartbeats;
    private long endOfSessionPackets;

    /**
     * @param session              the 10-byte session, see {@link io.mdgate.core.mold.MoldUdp64Session#of(String)}.
     * @param maxPayload           largest datagram payload (MTU less IP and UDP headers), at least 72 bytes.
     * @param maxMessagesPerPacket most messages in one packet; 0 for as many as fit.
     * @param windowNanos          a packet closes when a message comes this long after its first one.
     * @param heartbeatNanos       idle exchange time between heartbeats.
     * @param listener             receives every packet.
     */
    public MoldUdp64Framer(
        final byte[] session,
        final int maxPayload,
        final int maxMessagesPerPacket,
        final long windowNanos,
        final long heartbeatNanos,
        final PacketListener listener)
    {
        if (maxPayload < 72 || maxMessagesPerPacket < 0 || windowNanos < 0 || heartbeatNanos < 1)
        {
            throw new IllegalArgumentException("framer needs maxPayload >= 72, maxMessagesPerPacket >= 0, " +
                "windowNanos >= 0 and heartbeatNanos >= 1");
        }
        packet = new UnsafeBuffer(new byte[maxPayload]);
        encoder.wrap(packet, 0, maxPayload).session(session);
        this.maxMessagesPerPacket = maxMessagesPerPacket == 0 ? Integer.MAX_VALUE : maxMessagesPerPacket;
        this.windowNanos = windowNanos;
        this.heartbeatNanos = heartbeatNanos;
        this.listener = listener;
    }

    /**
     * Adds the next message of the session; may first send the packet before it and heartbeats for the idle
     * time in between.
     *
     * @param timestamp exchange time of the message, nanoseconds since midnight, never decreasing.
     * @return the sequence number the message got.
     */
    public long onMessage(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        if (open && (timestamp - packetFirstTimestamp > windowNanos || encoder.messageCount() >= maxMessagesPerPacket ||
            encoder.remaining() < length))
        {
            flush();
        }
        if (!open)
        {
            heartbeatsUntil(timestamp);
            encoder.reset(nextSequence);
            open = true;
            packetFirstTimestamp = timestamp;
        }
        if (!encoder.tryAppend(buffer, offset, length))
        {
            throw new IllegalArgumentException("a " + length + "-byte message does not fit an empty packet");
        }
        lastTimestamp = timestamp;
        return nextSequence++;
    }

    /** Sends the open packet, the heartbeats due until the timestamp, and the end-of-session packet. */
    public void finish(final long timestamp)
    {
        if (open)
        {
            flush();
        }
        heartbeatsUntil(timestamp);
        final int length = encoder.endOfSession(nextSequence);
        endOfSessionPackets++;
        listener.onPacket(Math.max(timestamp, lastSentTimestamp), packet, 0, length);
    }

    /**
     * Sends the end-of-session packet once more, as a server does while it stays up after the session: a receiver
     * that lost the first one (and the last data packets with it) still learns where the session ended, and can
     * re-request the tail.
     *
     * @param timestamp exchange time of the repeat, not before the session's end.
     */
    public void repeatEndOfSession(final long timestamp)
    {
        final int length = encoder.endOfSession(nextSequence);
        endOfSessionPackets++;
        lastSentTimestamp = Math.max(timestamp, lastSentTimestamp);
        listener.onPacket(lastSentTimestamp, packet, 0, length);
    }

    private void heartbeatsUntil(final long timestamp)
    {
        if (lastSentTimestamp < 0)
        {
            lastSentTimestamp = timestamp;
            return;
        }
        while (timestamp - lastSentTimestamp >= heartbeatNanos)
        {
            lastSentTimestamp += heartbeatNanos;
            final int length = encoder.heartbeat(nextSequence);
            heartbeats++;
            listener.onPacket(lastSentTimestamp, packet, 0, length);
        }
    }

    private void flush()
    {
        open = false;
        dataPackets++;
        lastSentTimestamp = lastTimestamp;
        listener.onPacket(lastTimestamp, packet, 0, encoder.length());
    }

    /** @return the sequence the next message will get; after {@link #finish}, one past the last. */
    public long nextSequence()
    {
        return nextSequence;
    }

    public long dataPackets()
    {
        return dataPackets;
    }

    public long heartbeats()
    {
        return heartbeats;
    }

    public long endOfSessionPackets()
    {
        return endOfSessionPackets;
    }
}
