package io.mdgate.egress.process;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerRejectedException;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A consumer in its own JVM for the multi-process tests. Arguments are {@code key=value}: instance, name, token,
 * path (ring|stream), ringSlots, subscribe (all, or a comma-separated list of ids and symbols), until (exit after
 * delivering this sequence), resumeFrom. Prints {@code READY} once its subscriptions are answered, then one line
 * {@code T <sequence> <instrument> <flags> E} per tick (flushed after each poll), and at the end a {@code STATS}
 * line and {@code DONE}. A refused consumer prints {@code REJECTED <reason>} and exits with 3.
 */
public final class ConsumerProcess
{
    private ConsumerProcess()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final Map<String, String> options = new HashMap<>();
        for (final String arg : args)
        {
            final int equals = arg.indexOf('=');
            options.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        final BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.US_ASCII),
            1 << 16);
        final ShmTransport transport = new ShmTransport(new ShmContext().instance(options.get("instance")));
        final ConsumerContext context = new ConsumerContext()
            .name(options.get("name"))
            .token(options.get("token"))
            .path(DeliveryPath.valueOf(options.getOrDefault("path", "ring").toUpperCase()))
            .ringSlots(Integer.parseInt(options.getOrDefault("ringSlots", "8192")))
            .resumeFromSequence(Long.parseLong(options.getOrDefault("resumeFrom", "0")))
            .eventLog(message -> System.err.println("consumer: " + message));
        if (context.path() == DeliveryPath.STREAM)
        {
            context.ringSlots(0);
        }
        final long until = Long.parseLong(options.get("until"));
        final EgressConsumer consumer;
        try
        {
            consumer = EgressConsumer.connect(transport, context);
        }
        catch (final ConsumerRejectedException ex)
        {
            out.write("REJECTED " + ex.reason() + "\n");
            out.flush();
            transport.close();
            System.exit(3);
            return;
        }
        subscribe(consumer, options.getOrDefault("subscribe", "all"));
        final long[] lineCount = new long[1];
        final StringBuilder line = new StringBuilder(64);
        final long readyDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean ready = false;
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        // Several consumers share two cores with the publisher: back off when idle rather than spin.
        final IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 50_000);
        while (consumer.lastDeliveredSequence() < until && System.nanoTime() < deadline)
        {
            final int work = consumer.poll((buffer, offset) ->
            {
                line.setLength(0);
                line.append("T ").append(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN)).append(' ')
                    .append(buffer.getShort(offset + 56, ByteOrder.LITTLE_ENDIAN) & 0xFFFF).append(' ')
                    .append(buffer.getShort(offset + 60, ByteOrder.LITTLE_ENDIAN) & 0xFFFF).append(" E\n");
                try
                {
                    out.append(line);
                }
                catch (final IOException ex)
                {
                    throw new IllegalStateException(ex);
                }
                lineCount[0]++;
            }, 256);
            if (!ready && consumer.subscriptionsAwaitingAnswer() == 0 && consumer.isConnected())
            {
                ready = true;
                out.write("READY\n");
            }
            if (!ready && System.nanoTime() > readyDeadline)
            {
                out.write("NOT_READY\n");
                break;
            }
            if (work > 0 || !ready)
            {
                out.flush();
            }
            idle.idle(work);
        }
        final Histogram latency = consumer.latency();
        out.write("STATS delivered=" + consumer.counters().delivered() +
            " recovered=" + consumer.counters().recoveredDelivered() +
            " laps=" + consumer.counters().laps() +
            " gaps=" + consumer.counters().gaps() +
            " unrecovered=" + consumer.counters().unrecovered() +
            " connects=" + consumer.counters().connects() +
            " latencyCount=" + latency.getTotalCount() +
            " p50=" + latency.getValueAtPercentile(50) +
            " p99=" + latency.getValueAtPercentile(99) +
            " p999=" + latency.getValueAtPercentile(99.9) +
            " max=" + latency.getMaxValue() + "\n");
        out.write(consumer.lastDeliveredSequence() >= until ? "DONE\n" : "TIMEOUT\n");
        out.flush();
        consumer.close();
        transport.close();
        System.exit(0);
    }

    private static void subscribe(final EgressConsumer consumer, final String subscriptions)
    {
        for (final String item : subscriptions.split(","))
        {
            if (item.equals("all"))
            {
                consumer.subscribeAll();
            }
            else if (Character.isDigit(item.charAt(0)))
            {
                consumer.subscribe(Integer.parseInt(item));
            }
            else
            {
                consumer.subscribe(item);
            }
        }
    }
}
