package io.mdgate.egress.publisher;

/**
 * One consumer's queue of RECOVER requests (answered over the control channel, one at a time, in order) and the
 * progress of the one being answered. Fixed capacity; a request beyond it is refused. Threading: the publisher's
 * thread.
 */
final class ControlRecovery
{
    static final int CAPACITY = 8;

    private final long[] from = new long[CAPACITY];
    private final long[] to = new long[CAPACITY];
    private final int[] flags = new int[CAPACITY];
    private int head;
    private int count;

    long next;
    long missing;
    long stallSinceNanos;
    boolean messagePending;
    int messageLength;

    void clear()
    {
        head = 0;
        count = 0;
        messagePending = false;
    }

    boolean isEmpty()
    {
        return count == 0;
    }

    /** @return false when the queue is full. */
    boolean add(final long fromSequence, final long toSequence, final int requestFlags)
    {
        if (count == CAPACITY)
        {
            return false;
        }
        final int tail = (head + count) % CAPACITY;
        from[tail] = fromSequence;
        to[tail] = toSequence;
        flags[tail] = requestFlags;
        if (count++ == 0)
        {
            begin();
        }
        return true;
    }

    long from()
    {
        return from[head];
    }

    long to()
    {
        return to[head];
    }

    int flags()
    {
        return flags[head];
    }

    void pop()
    {
        head = (head + 1) % CAPACITY;
        count--;
        if (count > 0)
        {
            begin();
        }
    }

    private void begin()
    {
        next = from[head];
        missing = 0;
        stallSinceNanos = 0;
    }
}
