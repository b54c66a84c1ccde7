package io.mdgate.consumerc;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A consumer of the Java SDK on a thread of its own, keeping a copy of every tick it is delivered, for comparison
 * with what the C library delivers: the same subscriptions, the same publisher.
 */
final class JavaConsumerThread implements AutoCloseable
{
    private final List<byte[]> ticks = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile long snapshotSequence;

    JavaConsumerThread(final String instance, final String name, final String token, final DeliveryPath path,
        final long resumeFrom, final long until, final Consumer<EgressConsumer> subscribe)
    {
        this(instance, name, token, path, resumeFrom, false, until, subscribe);
    }

    /** @param snapshot join late with a snapshot at the first poll ({@code ConsumerContext.snapshotOnConnect}). */
    JavaConsumerThread(final String instance, final String name, final String token, final DeliveryPath path,
        final long resumeFrom, final boolean snapshot, final long until, final Consumer<EgressConsumer> subscribe)
    {
        thread = new Thread(() ->
        {
            final ConsumerContext context = new ConsumerContext().name(name).token(token).path(path)
                .ringSlots(path == DeliveryPath.RING ? 16384 : 0).resumeFromSequence(resumeFrom)
                .snapshotOnConnect(snapshot).eventLog(message -> { });
            try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance));
                EgressConsumer consumer = EgressConsumer.connect(transport, context))
            {
                subscribe.accept(consumer);
                final BackoffIdleStrategy idle = new BackoffIdleStrategy(100, 10, 1_000, 100_000);
                final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                while (running && consumer.lastDeliveredSequence() < until && System.nanoTime() < deadline)
                {
                    final int work = consumer.poll((buffer, offset) ->
                    {
                        final byte[] copy = new byte[64];
                        buffer.getBytes(offset, copy);
                        ticks.add(copy);
                    }, 256);
                    if (consumer.subscriptionsAwaitingAnswer() == 0 && consumer.isConnected())
                    {
                        ready.countDown();
                    }
                    snapshotSequence = consumer.snapshotSequence();
                    idle.idle(work);
                }
            }
            catch (final Throwable ex)
            {
                failure = ex;
            }
            finally
            {
                ready.countDown();
                done.countDown();
            }
        }, "java-consumer-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    static Consumer<EgressConsumer> instruments(final SubscriptionView view, final int... ids)
    {
        return consumer ->
        {
            for (final int id : ids)
            {
                consumer.subscribe(id, view);
            }
        };
    }

    /** @return the sequence S of the last snapshot this consumer was delivered, 0 before one. */
    long snapshotSequence()
    {
        return snapshotSequence;
    }

    void awaitReady() throws InterruptedException
    {
        if (!ready.await(60, TimeUnit.SECONDS) || null != failure)
        {
            throw new AssertionError("the Java consumer did not get ready", failure);
        }
    }

    List<byte[]> awaitDone() throws InterruptedException
    {
        if (!done.await(120, TimeUnit.SECONDS) || null != failure)
        {
            throw new AssertionError("the Java consumer did not finish", failure);
        }
        synchronized (ticks)
        {
            return new ArrayList<>(ticks);
        }
    }

    @Override
    public void close() throws InterruptedException
    {
        running = false;
        thread.join(TimeUnit.SECONDS.toMillis(10));
    }
}
