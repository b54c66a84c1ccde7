package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.transport.ControlChannel;
import io.mdgate.egress.transport.RemoteKey;
import io.mdgate.egress.transport.TransportResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The two processes of {@link VerbsPairBenchmark} agree over their RC control connection with small messages: a
 * type and up to three longs. Set-up and tear-down only, never between a measurement's samples, so it may park and
 * allocate.
 * <pre>
 *   0        8        16       24       32
 *   +--------+--------+--------+--------+
 *   |  type  |  a     |  b     |  c     |   KEY: a = address, b = rkey, c = length; COUNT / END: a = count
 *   +--------+--------+--------+--------+
 * </pre>
 * Threading: the one thread that posts and polls the channel.
 */
final class BenchmarkLink
{
    static final long KEY = 1;
    static final long READY = 2;
    static final long END = 3;
    static final long COUNT = 4;
    static final long BYE = 5;
    private static final int LENGTH = 32;
    private static final int TYPES = 6;

    private final ControlChannel channel;
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[LENGTH]);
    private final long[][] received = new long[TYPES][];
    private boolean disconnected;

    BenchmarkLink(final ControlChannel channel)
    {
        this.channel = channel;
    }

    ControlChannel channel()
    {
        return channel;
    }

    void send(final long type, final long a, final long b, final long c)
    {
        out.putLong(0, type);
        out.putLong(8, a);
        out.putLong(16, b);
        out.putLong(24, c);
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int result;
        while ((result = channel.offer(out, 0, LENGTH)) == TransportResult.BACK_PRESSURED)
        {
            if (System.nanoTime() > giveUp)
            {
                throw new IllegalStateException("control message " + type + " back-pressured for 30 s");
            }
            poll();
        }
        if (result != TransportResult.OK)
        {
            throw new IllegalStateException("control message " + type + ": " + TransportResult.describe(result));
        }
        poll();
    }

    void sendKey(final RemoteKey key)
    {
        send(KEY, key.address(), key.key(), key.length());
    }

    /**
     * Receives what has arrived; notes a lost connection instead of failing, so that a caller polling for the
     * peer's hang-up can see it.
     *
     * @return false once the peer is gone.
     */
    boolean poll()
    {
        if (!disconnected && channel.poll(this::onMessage, 16) == TransportResult.NOT_CONNECTED)
        {
            disconnected = true;
        }
        return !disconnected;
    }

    /** @return the fields of a message of {@code type} received so far, or null; each is taken once. */
    long[] take(final long type)
    {
        final long[] fields = received[(int)type];
        received[(int)type] = null;
        return fields;
    }

    /** Polls until a message of {@code type} arrives, at most {@code seconds}. */
    long[] await(final long type, final long seconds, final String what)
    {
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true)
        {
            final boolean connected = poll();
            final long[] fields = take(type);
            if (null != fields)
            {
                return fields;
            }
            if (!connected)
            {
                throw new IllegalStateException("the peer hung up before " + what);
            }
            if (System.nanoTime() > giveUp)
            {
                throw new IllegalStateException("no " + what + " within " + seconds + " s");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
    }

    RemoteKey awaitKey(final long seconds)
    {
        final long[] fields = await(KEY, seconds, "remote key from the peer");
        return new RemoteKey(fields[0], (int)fields[1], fields[2]);
    }

    /**
     * The writer's last word: BYE, then waits (at most {@code seconds}) for the peer to hang up, so that neither side
     * tears its queue pair down while the other's last write is still in flight.
     *
     * @return whether the peer hung up in time.
     */
    boolean byeAndAwaitHangUp(final long seconds)
    {
        send(BYE, 0, 0, 0);
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (poll())
        {
            if (System.nanoTime() > giveUp)
            {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return true;
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length != LENGTH)
        {
            return;
        }
        final long type = buffer.getLong(offset);
        if (type > 0 && type < TYPES)
        {
            received[(int)type] = new long[] {buffer.getLong(offset + 8), buffer.getLong(offset + 16),
                buffer.getLong(offset + 24)};
        }
    }
}
