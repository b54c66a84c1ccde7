package io.mdgate.runtime;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.ByteOrder;

/**
 * The pipeline's hand-over from an ingress thread to the session thread: copies each packet, with its line and
 * receive time, into the packet ring ({@link PacketRingDescriptor}). Never waits: a packet that finds the ring full
 * is dropped and counted ({@code <agent>.dropped}) and the session recovers it like line loss; one longer than the
 * ring's largest record is counted as {@code oversized}. Threading: one ingress thread per writer (the ring takes
 * several).
 */
final class PacketRingWriter implements SessionInput
{
    private final RingBuffer ring;
    private final AtomicBuffer ringBuffer;
    private final int maxPayload;
    private final AtomicCounter dropped;
    private final AtomicCounter oversized;

    /**
     * @param dropped   the ingress agent's {@code dropped} counter.
     * @param oversized the ingress agent's {@code oversized} counter.
     */
    PacketRingWriter(final RingBuffer ring, final AtomicCounter dropped, final AtomicCounter oversized)
    {
        this.ring = ring;
        this.ringBuffer = ring.buffer();
        this.maxPayload = ring.maxMsgLength() - PacketRingDescriptor.PAYLOAD_OFFSET;
        this.dropped = dropped;
        this.oversized = oversized;
    }

    /** @return a writer that counts in the ingress agent's own counters. */
    static PacketRingWriter of(final RingBuffer ring, final IngressAgent ingress)
    {
        return new PacketRingWriter(ring, ingress.dropped(), ingress.oversized());
    }

    @Override
    public boolean readyForBurst(final int maxBytes)
    {
        return true;
    }

    @Override
    public void onPacket(
        final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTimestampNanos)
    {
        if (length > maxPayload)
        {
            oversized.incrementRelease();
            return;
        }
        final int index = ring.tryClaim(PacketRingDescriptor.typeId(line), PacketRingDescriptor.PAYLOAD_OFFSET + length);
        if (index < 0)
        {
            dropped.incrementRelease();
            return;
        }
        ringBuffer.putLong(index + PacketRingDescriptor.RECEIVE_TIMESTAMP_OFFSET, receiveTimestampNanos,
            ByteOrder.LITTLE_ENDIAN);
        ringBuffer.putBytes(index + PacketRingDescriptor.PAYLOAD_OFFSET, buffer, offset, length);
        ring.commit(index);
    }
}
