package io.mdgate.egress.transport.verbs;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerRejectedException;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
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
 * A consumer over verbs in its own JVM for {@link VerbsMultiProcessTest}. Arguments are {@code key=value}: control,
 * group, name, token, path (ring|stream), until, resumeFrom. Prints {@code READY} once subscribed to everything,
 * {@code T <sequence>} per tick, then {@code STATS ...} and {@code DONE} (or {@code TIMEOUT}); a refused consumer
 * prints {@code REJECTED} and exits with 3.
 */
public final class VerbsConsumerProcess
{
    private VerbsConsumerProcess()
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
        final VerbsTransport transport = new VerbsTransport(
            SoftRoce.context(options.get("control"), options.get("group")));
        final DeliveryPath path = DeliveryPath.valueOf(options.getOrDefault("path", "ring").toUpperCase());
        final ConsumerContext context = new ConsumerContext().name(options.get("name")).token(options.get("token"))
            .path(path).ringSlots(path == DeliveryPath.STREAM ? 0 : 8192)
            .resumeFromSequence(Long.parseLong(options.getOrDefault("resumeFrom", "0")))
            .eventLog(message -> System.err.println("consumer: " + message));
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
        consumer.subscribeAll();
        final StringBuilder line = new StringBuilder(32);
        final IdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 200_000);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        boolean ready = false;
        while (consumer.lastDeliveredSequence() < until && System.nanoTime() < deadline)
        {
            final int work = consumer.poll((buffer, offset) ->
            {
                line.setLength(0);
                line.append("T ").append(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN)).append('\n');
                try
                {
                    out.append(line);
                }
                catch (final IOException ex)
                {
                    throw new IllegalStateException(ex);
                }
            }, 256);
            if (!ready && consumer.isConnected() && consumer.subscriptionsAwaitingAnswer() == 0)
            {
                ready = true;
                out.write("READY\n");
            }
            if (work > 0 || !ready)
            {
                out.flush();
            }
            idle.idle(work);
        }
        out.write("STATS delivered=" + consumer.counters().delivered() + " recovered=" +
            consumer.counters().recoveredDelivered() + " gaps=" + consumer.counters().gaps() + " unrecovered=" +
            consumer.counters().unrecovered() + " connects=" + consumer.counters().connects() + "\n");
        out.write(consumer.lastDeliveredSequence() >= until ? "DONE\n" : "TIMEOUT\n");
        out.flush();
        consumer.close();
        transport.close();
        System.exit(0);
    }
}
