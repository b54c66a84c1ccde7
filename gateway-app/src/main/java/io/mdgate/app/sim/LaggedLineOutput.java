package io.mdgate.app.sim;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Makes line B lag line A by a fixed exchange time: each B packet is held and handed to the output with its
 * timestamp plus the lag, just before the first A packet that is not earlier, so the output sees one stream in
 * timestamp order (live multicast paces it, so B's packets leave that much later; a pcap records them that much
 * later). At a session change B therefore still sends the old session's tail while A already sends the new one.
 * {@link #drain()} sends every held packet (the session's end, before lingering). Held packets are copied into a
 * preallocated byte ring; when it is full the oldest goes out early and is counted ({@link #shortened()}).
 * Allocation-free after construction. Not thread-safe.
 */
public final class LaggedLineOutput implements PacketOutput
{
    private static final int RECORD_HEADER = 12;
    private static final int PADDING = -1;

    private final PacketOutput output;
    private final long lagNanos;
    private final UnsafeBuffer ring;
    private final int capacity;
    private long head;
    private long tail;
    private int held;
    private long shortened;

    /**
     * @param output       receives both lines.
     * @param lagNanos     exchange time line B lags line A, at least 1.
     * @param ringBytes    room for held packets (each takes its length plus 12 bytes, rounded up to 8), at least
     *                     twice the largest packet.
     */
    public LaggedLineOutput(final PacketOutput output, final long lagNanos, final int ringBytes)
    {
        if (lagNanos < 1 || ringBytes < 2 * RECORD_HEADER)
        {
            throw new IllegalArgumentException("a lagged line needs a lag of at least 1 ns and room to hold packets");
        }
        this.output = output;
        this.lagNanos = lagNanos;
        this.capacity = ringBytes & ~7;
        this.ring = new UnsafeBuffer(new byte[ringBytes]);
    }

    @Override
    public void send(final int line, final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        release(timestamp);
        if (line == LINE_B)
        {
            hold(timestamp, buffer, offset, length);
        }
        else
        {
            output.send(line, timestamp, buffer, offset, length);
        }
    }

    /** Sends every held B packet now, at its lagged timestamp. */
    public void drain()
    {
        release(Long.MAX_VALUE);
    }

    /** @return B packets still held. */
    public int held()
    {
        return held;
    }

    /** @return B packets sent early, with less than the lag, because the ring was full. */
    public long shortened()
    {
        return shortened;
    }

    /** Sends the held packets due by the timestamp: those whose lagged timestamp is not after it. */
    private void release(final long timestamp)
    {
        while (held > 0)
        {
            final int at = (int)(head % capacity);
            final int length = ring.getInt(at);
            if (length == PADDING)
            {
                head += capacity - at;
                continue;
            }
            final long lagged = ring.getLong(at + 4) + lagNanos;
            if (lagged > timestamp)
            {
                return;
            }
            sendOldest(at, length, lagged);
        }
    }

    private void sendOldest(final int at, final int length, final long timestamp)
    {
        output.send(LINE_B, timestamp, ring, at + RECORD_HEADER, length);
        head += aligned(RECORD_HEADER + length);
        held--;
    }

    /** Records start on 8-byte boundaries, so a wrap always leaves room for the padding marker. */
    private static int aligned(final int size)
    {
        return (size + 7) & ~7;
    }

    private void hold(final long timestamp, final DirectBuffer buffer, final int offset, final int length)
    {
        final int size = aligned(RECORD_HEADER + length);
        if (size > capacity / 2)
        {
            throw new IllegalArgumentException("a " + length + "-byte packet is too large for the lag's ring");
        }
        while (true)
        {
            final int at = (int)(tail % capacity);
            final int contiguous = capacity - at;
            final int needed = contiguous < size ? contiguous + size : size;
            if (capacity - (tail - head) < needed)
            {
                sendOldestEarly();
            }
            else if (contiguous < size)
            {
                ring.putInt(at, PADDING);
                tail += contiguous;
            }
            else
            {
                ring.putInt(at, length);
                ring.putLong(at + 4, timestamp);
                ring.putBytes(at + RECORD_HEADER, buffer, offset, length);
                tail += size;
                held++;
                return;
            }
        }
    }

    private void sendOldestEarly()
    {
        int at = (int)(head % capacity);
        if (ring.getInt(at) == PADDING)
        {
            head += capacity - at;
            at = 0;
        }
        shortened++;
        final int length = ring.getInt(at);
        sendOldest(at, length, ring.getLong(at + 4) + lagNanos);
    }

    @Override
    public String describe()
    {
        return output.describe() + ", line B " + lagNanos / 1_000_000.0 + " ms behind A";
    }

    @Override
    public void close()
    {
        drain();
        output.close();
    }
}
