package io.mdgate.egress.transport.shm;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The full-size send and receive queues of established control connections, allocated once when the publisher
 * reserves them at start and lent to one connection at a time, so that neither a connection nor an authenticated
 * consumer makes the publisher allocate direct memory while it runs.
 * <p>
 * Threading: the publisher's thread (reserve at start, then take and give back on the duty cycle).
 */
final class ControlQueuePool
{
    /** One connection's queues. */
    static final class Queues
    {
        final ByteBuffer in;
        final ByteBuffer out;

        Queues(final int queueLength)
        {
            in = ByteBuffer.allocateDirect(queueLength).order(ByteOrder.LITTLE_ENDIAN);
            out = ByteBuffer.allocateDirect(queueLength).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    private final int queueLength;
    private Queues[] free = new Queues[0];
    private int freeCount;
    private int reserved;

    ControlQueuePool(final int queueLength)
    {
        this.queueLength = queueLength;
    }

    /** Allocates queues until {@code total} connections can be established at once. */
    void reserve(final int total)
    {
        if (total <= reserved)
        {
            return;
        }
        final Queues[] grown = new Queues[total];
        System.arraycopy(free, 0, grown, 0, freeCount);
        free = grown;
        while (reserved < total)
        {
            free[freeCount++] = new Queues(queueLength);
            reserved++;
        }
    }

    /** @return queues, cleared, or null when every reserved pair is lent. */
    Queues take()
    {
        if (freeCount == 0)
        {
            return null;
        }
        final Queues queues = free[--freeCount];
        free[freeCount] = null;
        queues.in.clear();
        queues.out.clear();
        return queues;
    }

    void giveBack(final Queues queues)
    {
        free[freeCount++] = queues;
    }

    /** @return pairs allocated so far. */
    int reserved()
    {
        return reserved;
    }
}
