package io.mdgate.egress;

import io.mdgate.core.book.BookContext;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The incremental snapshot build allocates nothing per duty cycle: a publisher with the order mirror, 200
 * instruments of 40 live orders each, builds a consumer's ALL snapshot 64 records a cycle while live ticks keep
 * coming between cycles; every cycle of the build but the last (which logs the finished snapshot) allocates 0 bytes
 * on the publisher's thread, in at least one of three snapshots once warm (a one-off inside the JDK's socket code
 * while C2 settles does not repeat, as in {@link AllocationTest}).
 */
@Timeout(120)
class SnapshotAllocationTest
{
    private static final int INSTRUMENTS = 200;
    private static final int ORDERS = INSTRUMENTS * 40;
    private static final int SNAPSHOTS = 4;

    @Test
    void shouldBuildASnapshotOverManyCyclesWithoutAllocatingPerCycle() throws Exception
    {
        final com.sun.management.ThreadMXBean threads = AllocationTest.threadBean();
        final ShmContext shm = ShmInstance.context(ShmInstance.unique());
        final ShmTransport transport = new ShmTransport(shm);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicInteger requested = new AtomicInteger();
        final AtomicInteger completed = new AtomicInteger();
        Thread consumer = null;
        try (EgressPublisher publisher = new EgressPublisher(new PublisherContext().transport(transport)
            .recoverySource(new TickArchive(1 << 16)).token("late", "l").maxInstruments(1024).depthLevels(5)
            .snapshotRecordsPerCycle(64).snapshotBooks(new BookContext().maxOrders(1 << 16).maxLevels(1 << 16)
                .maxInstruments(1024).referenceWindow(1 << 20)).eventLog(message -> { })))
        {
            final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
            long sequence = 1;
            for (; sequence <= ORDERS; sequence++)
            {
                Ticks.writeAdd(tick, 0, sequence, (int)(sequence % INSTRUMENTS) + 1, sequence);
                publisher.onTick(tick, 0);
            }
            consumer = consumerThread(shm, running, requested, completed);
            final long connectDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (publisher.activeConsumers() < 1 && System.nanoTime() < connectDeadline)
            {
                publisher.doWork();
            }
            assertEquals(1, publisher.activeConsumers());
            final StringBuilder report = new StringBuilder();
            long best = Long.MAX_VALUE;
            int fewestCycles = Integer.MAX_VALUE;
            for (int snapshot = 0; snapshot < SNAPSHOTS; snapshot++)
            {
                requested.incrementAndGet();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (publisher.snapshotsUnderWay() == 0 && System.nanoTime() < deadline)
                {
                    sequence = live(publisher, tick, sequence);
                    publisher.doWork();
                }
                long allocated = 0;
                long lastCycle = 0;
                int cycles = 0;
                while (publisher.snapshotsUnderWay() > 0 && System.nanoTime() < deadline)
                {
                    final long before = threads.getCurrentThreadAllocatedBytes();
                    sequence = live(publisher, tick, sequence);
                    publisher.doWork();
                    final long cycle = threads.getCurrentThreadAllocatedBytes() - before;
                    allocated += lastCycle; // the cycle before this one was not the last of the build
                    lastCycle = cycle;
                    cycles++;
                }
                final int done = snapshot + 1;
                Await.until("snapshot " + done + " delivered", 20, () ->
                {
                    publisher.doWork();
                    return completed.get() == done;
                });
                report.append(snapshot == 0 ? "" : ", ").append(allocated).append(" bytes in ").append(cycles)
                    .append(" cycles");
                if (snapshot > 0)
                {
                    best = Math.min(best, allocated);
                    fewestCycles = Math.min(fewestCycles, cycles);
                }
            }
            System.out.println("SnapshotAllocationTest: publisher bytes during each build (the first warms up): " +
                report);
            assertTrue(fewestCycles >= 50, "each build spans many duty cycles: " + report);
            assertEquals(0, best, "bytes the publisher allocated during a build, its last cycle aside: " + report);
            assertEquals(SNAPSHOTS, publisher.counters().snapshotsSent());
        }
        finally
        {
            running.set(false);
            if (null != consumer)
            {
                consumer.join(10_000);
            }
            transport.close();
            ShmInstance.removeFiles(shm);
        }
    }

    /** Publishes a few live ticks between duty cycles: new orders on instruments the snapshot covers. */
    private static long live(final EgressPublisher publisher, final UnsafeBuffer tick, final long from)
    {
        long sequence = from;
        for (int i = 0; i < 4; i++, sequence++)
        {
            Ticks.writeAdd(tick, 0, sequence, (int)(sequence % INSTRUMENTS) + 1, sequence);
            publisher.onTick(tick, 0);
        }
        return sequence;
    }

    /** A ring consumer of every instrument that asks for a snapshot each time {@code requested} goes up. */
    private static Thread consumerThread(final ShmContext shm, final AtomicBoolean running,
        final AtomicInteger requested, final AtomicInteger completed)
    {
        final Thread thread = new Thread(() ->
        {
            try (ShmTransport transport = new ShmTransport(ShmInstance.context(shm.instance()));
                EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("late")
                    .token("l").ringSlots(1 << 14).eventLog(message -> { })))
            {
                for (int i = 1; i <= INSTRUMENTS; i++)
                {
                    consumer.subscribe(i, SubscriptionView.ALL);
                }
                int asked = 0;
                while (running.get())
                {
                    if (asked < requested.get() && !consumer.isSnapshotPending())
                    {
                        consumer.requestSnapshot();
                        asked++;
                    }
                    consumer.poll((buffer, offset) -> { }, 256);
                    completed.set((int)consumer.counters().snapshots());
                }
            }
        }, "consumer-late");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
