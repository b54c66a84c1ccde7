package io.mdgate.egress;

import io.mdgate.core.tick.TickHandler;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * A single-producer, single-consumer queue of ticks between two agents on different threads (an Agrona
 * {@link OneToOneRingBuffer}): the producer (e.g. the normalizer) hands ticks over with {@link #onTick}, the
 * publisher's duty cycle takes them as its {@link TickSource}. A full queue drops the tick and counts it (the
 * producer must not block); consumers then recover it from the journal.
 * <p>
 * Threading: {@link #onTick} on one producer thread, {@link #poll} on one consumer thread. Allocation-free.
 */
public final class TickRing implements TickHandler, TickSource
{
    private static final int TICK_MESSAGE = 1;
    private static final int TICK_LENGTH = 64;
    private final OneToOneRingBuffer ring;
    private final MessageHandler forwarder = this::forward;
    private TickHandler handler;
    private long dropped;

    /** @param capacityTicks ticks the queue holds at least. */
    public TickRing(final int capacityTicks)
    {
        final int bytes = BitUtil.findNextPositivePowerOfTwo(Math.max(64, capacityTicks) * (TICK_LENGTH + 8));
        ring = new OneToOneRingBuffer(new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(bytes + RingBufferDescriptor.TRAILER_LENGTH, 64)));
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        if (!ring.write(TICK_MESSAGE, buffer, offset, TICK_LENGTH))
        {
            dropped++;
        }
    }

    /** @return false when the queue was full (the tick was not taken, and not counted as dropped). */
    public boolean offer(final DirectBuffer buffer, final int offset)
    {
        return ring.write(TICK_MESSAGE, buffer, offset, TICK_LENGTH);
    }

    @Override
    public int poll(final TickHandler handler, final int limit)
    {
        this.handler = handler;
        return ring.read(forwarder, limit);
    }

    private void forward(final int type, final MutableDirectBuffer buffer, final int index, final int length)
    {
        handler.onTick(buffer, index);
    }

    /** @return ticks dropped by {@link #onTick} because the queue was full (producer's count). */
    public long dropped()
    {
        return dropped;
    }

    /** @return bytes waiting, an indication of backlog. */
    public int size()
    {
        return ring.size();
    }
}
