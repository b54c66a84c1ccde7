package io.mdgate.bench.floor;

import io.mdgate.app.demo.DemoConsumer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.ticklog.TickLog;
import io.mdgate.core.ticklog.TickLogReader;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.runtime.config.ThreadPinning;
import org.HdrHistogram.Histogram;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The floor of wire-to-consumer latency: a two-thread hand-off of 64-byte messages through the gateway's own
 * {@link TickLog} (one writer, one reader), paced at an offered rate. The sending thread, pinned to the gateway's
 * CPU, busy-spins to each message's due time, stamps it with the gateway's clock ({@link MonotonicEpochClock}) and
 * writes it; the receiving thread, pinned to the consumer's CPU, polls the log with the idle strategy the demo's
 * measuring consumer uses ({@link DemoConsumer.Idle}), reads the clock on entry to its handler and records the
 * difference in an HdrHistogram: every message, nothing trimmed. A full log makes the sender wait (counted), so the
 * floor loses nothing.
 * <p>
 * {@code java -cp benchmarks.jar io.mdgate.bench.floor.HandOffFloor RATE SECONDS SENDER_CPU RECEIVER_CPU IDLE}
 * prints one JSON line: offered and achieved rate, samples, p50, p99, p99.9, max (ns), negatives, sender waits.
 * Bad arguments: exit 2, cause on stderr. Two threads of its own; not for the hot path of anything else.
 */
public final class HandOffFloor
{
    private static final int CAPACITY = 64 * 1024;
    private static final int POLL_LIMIT = 256;
    private static final int MESSAGE_LENGTH = 64;
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final TickLog log = new TickLog(CAPACITY, "floor");
    private final TickLogReader reader = log.reader(0);
    private final EpochNanoClock clock = new MonotonicEpochClock();
    private final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
    private final long rate;
    private final long messages;
    private final int senderCpu;
    private final int receiverCpu;
    private final DemoConsumer.Idle idle;
    private volatile boolean sending = true;
    private volatile Throwable failure;
    private long negative;
    private long received;
    private long senderWaits;
    private long sendNanos;

    HandOffFloor(final long rate, final long seconds, final int senderCpu, final int receiverCpu,
        final DemoConsumer.Idle idle)
    {
        this.rate = rate;
        this.messages = rate * seconds;
        this.senderCpu = senderCpu;
        this.receiverCpu = receiverCpu;
        this.idle = idle;
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final HandOffFloor floor;
        try
        {
            if (args.length != 5)
            {
                throw new IllegalArgumentException("expected RATE SECONDS SENDER_CPU RECEIVER_CPU spin|yield|backoff");
            }
            final long rate = Long.parseLong(args[0]);
            final long seconds = Long.parseLong(args[1]);
            if (rate < 1 || rate > 50_000_000 || seconds < 1 || seconds > 3_600)
            {
                throw new IllegalArgumentException("RATE must be 1..50000000 msg/s and SECONDS 1..3600");
            }
            floor = new HandOffFloor(rate, seconds, Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                DemoConsumer.Idle.parse(args[4]));
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("HandOffFloor: " + ex.getMessage() + "; usage: HandOffFloor RATE SECONDS SENDER_CPU " +
                "RECEIVER_CPU spin|yield|backoff");
            System.exit(2);
            return;
        }
        System.out.println(floor.run());
        System.exit(null == floor.failure ? 0 : 1);
    }

    /** Runs the hand-off to the end. @return the result as one JSON line. */
    String run() throws InterruptedException
    {
        final Thread receiver = new Thread(this::receive, "floor-receiver");
        final Thread sender = new Thread(this::send, "floor-sender");
        receiver.start();
        sender.start();
        sender.join();
        receiver.join();
        return json();
    }

    private void send()
    {
        try
        {
            ThreadPinning.pin(senderCpu);
            final UnsafeBuffer message = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MESSAGE_LENGTH, 64));
            final long start = System.nanoTime();
            for (long i = 0; i < messages; i++)
            {
                final long due = start + i * 1_000_000_000L / rate;
                while (System.nanoTime() - due < 0)
                {
                    Thread.onSpinWait();
                }
                while (!log.hasRoom(1))
                {
                    senderWaits++;
                    Thread.onSpinWait();
                }
                message.putLong(0, clock.nanoTime());
                message.putLong(8, i + 1);
                log.onTick(message, 0);
            }
            sendNanos = System.nanoTime() - start;
        }
        catch (final RuntimeException ex)
        {
            failure = ex;
        }
        finally
        {
            sending = false;
        }
    }

    private void receive()
    {
        try
        {
            ThreadPinning.pin(receiverCpu);
            final IdleStrategy strategy = idle.newStrategy();
            final TickHandler handler = this::onMessage;
            while (sending || reader.lag() > 0)
            {
                strategy.idle(reader.poll(handler, POLL_LIMIT));
            }
        }
        catch (final RuntimeException ex)
        {
            failure = ex;
        }
    }

    private void onMessage(final DirectBuffer buffer, final int offset)
    {
        final long nanos = clock.nanoTime() - buffer.getLong(offset);
        received++;
        if (nanos < 0)
        {
            negative++;
            return;
        }
        latency.recordValue(Math.min(HIGHEST_NANOS, nanos));
    }

    private String json()
    {
        final long achieved = sendNanos > 0 ? received * 1_000_000_000L / sendNanos : 0;
        return String.format(Locale.ROOT, "{\"floor\":\"ticklog one writer one reader\",\"rate\":%d," +
            "\"achievedRate\":%d,\"idle\":\"%s\",\"senderCpu\":%d,\"receiverCpu\":%d,\"sent\":%d,\"received\":%d," +
            "\"senderWaits\":%d,\"negative\":%d,\"latencyNanos\":{\"samples\":%d,\"p50\":%d,\"p99\":%d," +
            "\"p99.9\":%d,\"max\":%d},\"error\":%s}", rate, achieved, idle.optionName(), senderCpu, receiverCpu,
            messages, received, senderWaits, negative, latency.getTotalCount(), latency.getValueAtPercentile(50),
            latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9), latency.getMaxValue(),
            null == failure ? "null" : "\"" + failure.getMessage().replace("\"", "'") + "\"");
    }
}
