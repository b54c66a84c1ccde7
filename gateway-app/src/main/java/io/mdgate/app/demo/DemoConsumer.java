package io.mdgate.app.demo;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerCounters;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.TransportException;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import io.mdgate.runtime.config.ThreadPinning;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One of the demo's consumers, on its own thread in the demo's process, through the consumer SDK over shm. Checks
 * what it receives: gateway sequences must arrive in order, each once, so it counts any sequence skipped or seen
 * twice. The slow one stops polling for a while every few seconds, so that it falls behind, gets lapped and has to
 * recover. Each live tick's latency is taken in the handler itself: the consumer's clock (the same
 * {@link MonotonicEpochClock} the gateway stamps with) read on entry, minus the tick's receive timestamp (the
 * ingress's), recorded in an HdrHistogram, every tick, nothing trimmed; a negative difference (clocks that
 * disagree) is counted, never clamped. Replayed (recovered) ticks and ticks without a receive timestamp are counted
 * apart, not timed. Between polls the thread idles as {@link Idle} says, on the CPUs it was given.
 * Progress is readable from other threads; the result once {@link #join} returned.
 */
public final class DemoConsumer implements Runnable, TickHandler
{
    private static final int GATEWAY_SEQUENCE_OFFSET = 0;
    private static final long HIGHEST_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** How a consumer's thread waits when a poll found nothing. */
    public enum Idle
    {
        /** Busy-spins: lowest latency, but a whole CPU, shared with whatever else runs there. */
        SPIN,
        /** Yields the CPU to any other runnable thread after each empty poll, then polls again. */
        YIELD,
        /** Spins, yields, then parks up to 200 us: cheap on a shared host, hundreds of us late after a quiet spell. */
        BACKOFF;

        /** @return the option's spelling, e.g. {@code spin}. */
        public String optionName()
        {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param name {@code spin}, {@code yield} or {@code backoff}.
         * @return the idle kind.
         * @throws IllegalArgumentException for any other name.
         */
        public static Idle parse(final String name)
        {
            for (final Idle idle : values())
            {
                if (idle.optionName().equals(name.toLowerCase(Locale.ROOT)))
                {
                    return idle;
                }
            }
            throw new IllegalArgumentException("consumer idle must be spin, yield or backoff, was '" + name + "'");
        }

        /** @return a new strategy of this kind for one thread. */
        public IdleStrategy newStrategy()
        {
            return switch (this)
            {
                case SPIN -> new BusySpinIdleStrategy();
                case YIELD -> new YieldingIdleStrategy();
                case BACKOFF -> new BackoffIdleStrategy(100, 10, 1_000, 200_000);
            };
        }
    }

    private final Spec spec;
    private final Path shmDir;
    private final String instance;
    private final Idle idle;
    private final SortedSet<Integer> cpus;
    private final Thread thread;
    private final EpochNanoClock clock = new MonotonicEpochClock();
    private final Histogram latency = new Histogram(HIGHEST_LATENCY_NANOS, 3);
    private long negative;
    private long untimed;
    private volatile boolean running = true;
    private volatile boolean connected;
    private volatile long delivered;
    private volatile long lastSequence;
    private volatile Result result;
    private long firstSequence;
    private long missing;
    private long repeated;

    /**
     * What a consumer is.
     *
     * @param name  its name at the publisher.
     * @param token its token.
     * @param path  ring or multicast stream.
     * @param slow  whether it stalls now and then.
     */
    public record Spec(String name, String token, DeliveryPath path, boolean slow)
    {
    }

    /**
     * What a consumer received, once it stopped.
     *
     * @param name        its name.
     * @param path        ring or stream.
     * @param slow        whether it was the slow one.
     * @param delivered   ticks delivered to it.
     * @param first       first gateway sequence it received (0: none).
     * @param last        last gateway sequence it received.
     * @param missing     sequences skipped in what it received (must be 0).
     * @param repeated    sequences it received twice or out of order (must be 0).
     * @param counters    the SDK's counters (gaps, recoveries, laps...), null when it never connected.
     * @param latency     latency of live ticks, from the ingress's receive timestamp to the handler.
     * @param negative    live ticks whose handler saw a clock earlier than their receive timestamp (not recorded).
     * @param untimed     ticks delivered but not timed: replayed by a recovery, or without a receive timestamp.
     * @param error       why it failed, or null.
     */
    public record Result(String name, DeliveryPath path, boolean slow, long delivered, long first, long last,
        long missing, long repeated, ConsumerCounters counters, Histogram latency, long negative, long untimed,
        String error)
    {
    }

    /**
     * A consumer that backs off when idle and runs wherever the scheduler puts it.
     *
     * @param spec     what it is.
     * @param shmDir   the publisher's shm directory.
     * @param instance the publisher's shm instance name.
     */
    public DemoConsumer(final Spec spec, final Path shmDir, final String instance)
    {
        this(spec, shmDir, instance, Idle.BACKOFF, new TreeSet<>());
    }

    /**
     * @param spec     what it is.
     * @param shmDir   the publisher's shm directory.
     * @param instance the publisher's shm instance name.
     * @param idle     how its thread waits between empty polls.
     * @param cpus     the CPUs its thread may run on; empty: wherever the scheduler puts it.
     */
    public DemoConsumer(final Spec spec, final Path shmDir, final String instance, final Idle idle,
        final SortedSet<Integer> cpus)
    {
        this.spec = spec;
        this.shmDir = shmDir;
        this.instance = instance;
        this.idle = idle;
        this.cpus = new TreeSet<>(cpus);
        this.thread = new Thread(this, "demo-consumer-" + spec.name());
        this.thread.setDaemon(true);
    }

    /** @return what it is. */
    public Spec spec()
    {
        return spec;
    }

    /** Starts its thread. */
    public void start()
    {
        thread.start();
    }

    /** @return whether it connected and subscribed. */
    public boolean connected()
    {
        return connected;
    }

    /** @return why it stopped early (rejected, failed), or null while it runs or when it stopped cleanly. */
    public String error()
    {
        final Result r = result;
        return null == r ? null : r.error();
    }

    /** @return ticks delivered so far. */
    public long delivered()
    {
        return delivered;
    }

    /** @return the last gateway sequence delivered so far. */
    public long lastSequence()
    {
        return lastSequence;
    }

    /**
     * Asks it to stop and waits for its result.
     *
     * @param timeoutMillis longest wait.
     * @return its result.
     */
    public Result join(final long timeoutMillis) throws InterruptedException
    {
        running = false;
        thread.join(timeoutMillis);
        final Result r = result;
        return null != r ? r : new Result(spec.name(), spec.path(), spec.slow(), delivered, firstSequence,
            lastSequence, missing, repeated, null, new Histogram(3), 0, 0, "did not stop in time");
    }

    @Override
    public void run()
    {
        final ShmContext shm = new ShmContext().directory(shmDir).instance(instance);
        EgressConsumer consumer = null;
        String error = null;
        try (EgressTransport transport = new ShmTransport(shm.conclude()))
        {
            if (!cpus.isEmpty())
            {
                ThreadPinning.affinity(cpus);
            }
            consumer = connect(transport);
            if (null != consumer)
            {
                consumer.subscribeAll();
                connected = true;
                poll(consumer);
            }
        }
        catch (final RuntimeException ex)
        {
            error = ex.getMessage();
        }
        finally
        {
            ConsumerCounters counters = null;
            if (null != consumer)
            {
                counters = consumer.counters();
                consumer.close();
            }
            else if (null == error)
            {
                error = "never connected";
            }
            result = new Result(spec.name(), spec.path(), spec.slow(), delivered, firstSequence, lastSequence,
                missing, repeated, counters, latency.copy(), negative, untimed, error);
        }
    }

    private EgressConsumer connect(final EgressTransport transport)
    {
        final ConsumerContext context = new ConsumerContext().name(spec.name()).token(spec.token()).path(spec.path())
            .ringSlots(spec.path() == DeliveryPath.RING ? (spec.slow() ? 4096 : 16384) : 0)
            .resumeFromSequence(1)
            .connectTimeoutNanos(TimeUnit.SECONDS.toNanos(1))
            .eventLog(message -> { });
        TransportException last = null;
        while (running)
        {
            try
            {
                return EgressConsumer.connect(transport, context);
            }
            catch (final TransportException ex)
            {
                last = ex; // the gateway is not up yet: try again until stopped
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
        }
        if (null != last)
        {
            throw last;
        }
        return null;
    }

    private void poll(final EgressConsumer consumer)
    {
        final IdleStrategy idle = this.idle.newStrategy();
        final long start = System.nanoTime();
        while (running && !consumer.isRejected())
        {
            if (spec.slow() && stalled(System.nanoTime() - start))
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                continue;
            }
            idle.idle(consumer.poll(this, 256));
        }
    }

    /** The slow consumer stops polling for 1.5 s of every 6 s, starting 3 s in. */
    static boolean stalled(final long sinceStartNanos)
    {
        final long millis = TimeUnit.NANOSECONDS.toMillis(sinceStartNanos);
        return millis >= 3_000 && (millis - 3_000) % 6_000 < 1_500;
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        time(clock.nanoTime(), buffer, offset);
        final long sequence = buffer.getLong(offset + GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long last = lastSequence;
        if (0 == firstSequence)
        {
            firstSequence = sequence;
        }
        else if (sequence <= last)
        {
            repeated++;
            return;
        }
        else if (sequence > last + 1)
        {
            missing += sequence - last - 1;
        }
        lastSequence = sequence;
        delivered = delivered + 1;
    }

    /**
     * Records one tick's latency from its receive timestamp to {@code nowNanos}; counts it apart when it is replayed,
     * has no receive timestamp, or would be negative.
     */
    void time(final long nowNanos, final DirectBuffer buffer, final int offset)
    {
        final long received = buffer.getLong(offset + TickLayout.RECEIVE_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (received <= 0 || (buffer.getShort(offset + TickLayout.FLAGS_OFFSET, ByteOrder.LITTLE_ENDIAN) &
            TickLayout.REPLAYED_FLAG) != 0)
        {
            untimed++;
            return;
        }
        final long nanos = nowNanos - received;
        if (nanos < 0)
        {
            negative++;
            return;
        }
        latency.recordValue(Math.min(HIGHEST_LATENCY_NANOS, nanos));
    }

    /** @return the latency recorded so far; for tests, on the consumer's thread or after {@link #join}. */
    Histogram latency()
    {
        return latency;
    }

    /** @return live ticks with a negative latency so far; same threading as {@link #latency()}. */
    long negative()
    {
        return negative;
    }

    /** @return ticks not timed so far; same threading as {@link #latency()}. */
    long untimed()
    {
        return untimed;
    }
}
