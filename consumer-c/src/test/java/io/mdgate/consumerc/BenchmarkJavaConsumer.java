package io.mdgate.consumerc;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The Java side of {@link ConsumerBenchmark}, in a JVM of its own as the C consumer is a process of its own:
 * arguments instance, name, token, {@code all} or a comma-separated list of ids, the last sequence. Prints
 * {@code READY} once subscribed and at the end {@code RESULT delivered=.. seconds=.. p50=.. p99=.. p999=.. max=..}
 * (ns). Idles as mdgate-consume-c does by default (spin, yield, then sleeps of up to 100 us).
 */
public final class BenchmarkJavaConsumer
{
    private BenchmarkJavaConsumer()
    {
    }

    public static void main(final String[] args)
    {
        final ConsumerContext context = new ConsumerContext().name(args[1]).token(args[2]).ringSlots(16384)
            .eventLog(message -> System.err.println("java consumer: " + message));
        final long last = Long.parseLong(args[4]);
        try (ShmTransport transport = new ShmTransport(new ShmContext().instance(args[0]));
            EgressConsumer consumer = EgressConsumer.connect(transport, context))
        {
            if ("all".equals(args[3]))
            {
                consumer.subscribeAll();
            }
            else
            {
                for (final String id : args[3].split(","))
                {
                    consumer.subscribe(Integer.parseInt(id));
                }
            }
            final BackoffIdleStrategy idle = new BackoffIdleStrategy(100, 20, 1_000, 100_000);
            boolean ready = false;
            long first = 0;
            long lastDelivery = 0;
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (consumer.lastDeliveredSequence() < last && System.nanoTime() < deadline)
            {
                final long deliveredBefore = consumer.counters().delivered();
                final int work = consumer.poll((buffer, offset) -> { }, 256);
                if (consumer.counters().delivered() != deliveredBefore)
                {
                    lastDelivery = System.nanoTime();
                    first = first == 0 ? lastDelivery : first;
                }
                if (!ready && consumer.isConnected() && consumer.subscriptionsAwaitingAnswer() == 0)
                {
                    ready = true;
                    System.out.println("READY");
                    System.out.flush();
                }
                idle.idle(work);
            }
            final Histogram latency = consumer.latency();
            System.out.println(String.format(Locale.ROOT,
                "RESULT delivered=%d seconds=%.3f p50=%d p99=%d p999=%d max=%d",
                consumer.counters().delivered(), (lastDelivery - first) / 1e9, latency.getValueAtPercentile(50),
                latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9), latency.getMaxValue()));
        }
    }
}
