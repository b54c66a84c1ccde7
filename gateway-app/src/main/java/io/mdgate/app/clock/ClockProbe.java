package io.mdgate.app.clock;

import org.agrona.concurrent.EpochNanoClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Probes a {@link ClockServer} and keeps the answer with the shortest round trip, whose bound is the tightest
 * ({@link ClockExchange} says why the bound holds). Answers that come after their probe's timeout, or that answer
 * another probe, are dropped. One use per measurement, on one thread.
 */
final class ClockProbe
{
    /** How long a probe spins for its answer before it waits in a select. */
    private static final long SPIN_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final InetSocketAddress peer;
    private final EpochNanoClock clock;

    ClockProbe(final InetSocketAddress peer, final EpochNanoClock clock)
    {
        this.peer = peer;
        this.clock = clock;
    }

    /**
     * @param probes        how many probes, one at a time.
     * @param intervalNanos pause between one probe's end and the next.
     * @param timeoutNanos  how long a probe waits for its answer.
     * @return what the answers showed; {@link ClockOffset#answered()} 0 when none came.
     * @throws IOException when the socket cannot be opened or fails (other than a peer port nobody listens on).
     */
    ClockOffset measure(final int probes, final long intervalNanos, final long timeoutNanos) throws IOException
    {
        final long[] roundTrips = new long[probes];
        int answered = 0;
        long bestRoundTrip = Long.MAX_VALUE;
        long bestOffset = 0;
        final ByteBuffer buffer = ClockExchange.buffer();
        try (DatagramChannel channel = DatagramChannel.open(); Selector selector = Selector.open())
        {
            channel.connect(peer);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            for (int id = 1; id <= probes; id++)
            {
                final long t1 = clock.nanoTime();
                ClockExchange.probe(buffer, id, t1);
                try
                {
                    channel.write(buffer);
                    if (awaitAnswer(channel, selector, buffer, id, t1, t1 + timeoutNanos))
                    {
                        final long t4 = clock.nanoTime();
                        final long t2 = ClockExchange.t2(buffer);
                        final long t3 = ClockExchange.t3(buffer);
                        final long roundTrip = (t4 - t1) - (t3 - t2);
                        roundTrips[answered++] = roundTrip;
                        if (roundTrip < bestRoundTrip)
                        {
                            bestRoundTrip = roundTrip;
                            // The middle of [t3 - t4, t2 - t1], written so that it cannot overflow.
                            bestOffset = (t3 - t4) + ((t2 - t1) - (t3 - t4)) / 2;
                        }
                    }
                }
                catch (final PortUnreachableException ex)
                {
                    // Nobody listens there (yet): this probe is unanswered; the next may find the peer up.
                }
                if (intervalNanos > 0 && id < probes)
                {
                    LockSupport.parkNanos(intervalNanos);
                }
            }
        }
        if (answered == 0)
        {
            return new ClockOffset(probes, 0, 0, 0, 0, 0);
        }
        final long[] sorted = Arrays.copyOf(roundTrips, answered);
        Arrays.sort(sorted);
        return new ClockOffset(probes, answered, bestOffset, (bestRoundTrip + 1) / 2, bestRoundTrip,
            sorted[answered / 2]);
    }

    private boolean awaitAnswer(final DatagramChannel channel, final Selector selector, final ByteBuffer buffer,
        final long id, final long t1, final long deadline) throws IOException
    {
        while (true)
        {
            buffer.clear();
            if (channel.read(buffer) > 0)
            {
                buffer.flip();
                if (ClockExchange.isAnswerTo(buffer, id, t1))
                {
                    return true;
                }
                continue; // a late answer to an earlier probe, or a stray datagram
            }
            final long now = clock.nanoTime();
            if (now - deadline >= 0)
            {
                return false;
            }
            if (now - t1 < SPIN_NANOS)
            {
                Thread.onSpinWait(); // the answer's receipt (t4) read at once: a select's wake-up would widen the bound
                continue;
            }
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - now)));
            selector.selectedKeys().clear();
        }
    }
}
