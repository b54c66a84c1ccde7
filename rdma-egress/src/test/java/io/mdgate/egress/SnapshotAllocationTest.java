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
 * while C2 settles does not repeat, as in {@link AllocationTest}). The same holds for a directory (flag DIRECTORY),
 * which the same sender builds.
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
            final Builds builds = new Builds(publisher, threads, tick, sequence);
            for (int snapshot = 0; snapshot < SNAPSHOTS; snapshot++)
            {
                requested.incrementAndGet();
                final int done = snapshot + 1;
                builds.measure("snapshot " + done, () -> completed.get() == done);
            }
            builds.check("build", 50);
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

    /**
     * A directory (flag DIRECTORY) is built by the same sender a record at a time: four consumers in turn connect
     * with {@link ConsumerContext#directoryOnConnect}, each taking the INSTRUMENT ticks of 1,000 named instruments
     * over 100+ duty cycles while live ticks go on; no cycle of a warm build but its last allocates.
     */
    @Test
    void shouldBuildADirectoryOverManyCyclesWithoutAllocatingPerCycle() throws Exception
    {
        final int named = 1_000;
        final com.sun.management.ThreadMXBean threads = AllocationTest.threadBean();
        final ShmContext shm = ShmInstance.context(ShmInstance.unique());
        final ShmTransport transport = new ShmTransport(shm);
        try (EgressPublisher publisher = new EgressPublisher(new PublisherContext().transport(transport)
            .recoverySource(new TickArchive(1 << 16)).token("late", "l").maxInstruments(2048)
            .snapshotRecordsPerCycle(8).eventLog(message -> { })))
        {
            long sequence = 1;
            for (int instrument = 1; instrument <= named; instrument++, sequence++)
            {
                publisher.onTick(Ticks.instrument(sequence, instrument, String.format("S%04d", instrument)), 0);
            }
            final Builds builds = new Builds(publisher, threads, new UnsafeBuffer(new byte[64]), sequence);
            for (int directory = 0; directory < SNAPSHOTS; directory++)
            {
                final AtomicBoolean running = new AtomicBoolean(true);
                final AtomicInteger received = new AtomicInteger();
                final Thread consumer = directoryConsumer(shm, running, received);
                try
                {
                    builds.measure("directory " + (directory + 1), () -> received.get() == named);
                }
                finally
                {
                    running.set(false);
                    consumer.join(10_000);
                }
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (publisher.activeConsumers() > 0 && System.nanoTime() < deadline)
                {
                    publisher.doWork();
                }
                assertEquals(0, publisher.activeConsumers(), "the consumer of directory " + (directory + 1) + " left");
            }
            builds.check("directory", 100);
        }
        finally
        {
            transport.close();
            ShmInstance.removeFiles(shm);
        }
    }

    /**
     * Drives the publisher through builds one at a time, live ticks between its duty cycles, and keeps what each
     * cycle of a build allocated on this (the publisher's) thread, its last cycle aside.
     */
    private static final class Builds
    {
        private final EgressPublisher publisher;
        private final com.sun.management.ThreadMXBean threads;
        private final UnsafeBuffer tick;
        private final StringBuilder report = new StringBuilder();
        private long sequence;
        private int builds;
        private long best = Long.MAX_VALUE;
        private int fewestCycles = Integer.MAX_VALUE;

        Builds(final EgressPublisher publisher, final com.sun.management.ThreadMXBean threads, final UnsafeBuffer tick,
            final long nextSequence)
        {
            this.publisher = publisher;
            this.threads = threads;
            this.tick = tick;
            this.sequence = nextSequence;
        }

        /** Waits for a build to start, measures it to its end, then until {@code delivered} says it arrived. */
        void measure(final String what, final java.util.function.BooleanSupplier delivered)
        {
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
            Await.until(what + " delivered", 20, () ->
            {
                publisher.doWork();
                return delivered.getAsBoolean();
            });
            report.append(builds == 0 ? "" : ", ").append(allocated).append(" bytes in ").append(cycles)
                .append(" cycles");
            if (builds++ > 0)
            {
                best = Math.min(best, allocated);
                fewestCycles = Math.min(fewestCycles, cycles);
            }
        }

        /** Every warm build spanned at least {@code minCycles} duty cycles, and one of them allocated nothing. */
        void check(final String what, final int minCycles)
        {
            System.out.println("SnapshotAllocationTest: publisher bytes during each " + what +
                " (the first warms up): " + report);
            assertTrue(fewestCycles >= minCycles, "each " + what + " spans many duty cycles: " + report);
            assertEquals(0, best, "bytes the publisher allocated during a " + what + ", its last cycle aside: " +
                report);
        }
    }

    /** An --all consumer that asks for the directory on connect and counts the symbols it learnt. */
    private static Thread directoryConsumer(final ShmContext shm, final AtomicBoolean running,
        final AtomicInteger received)
    {
        final Thread thread = new Thread(() ->
        {
            try (ShmTransport transport = new ShmTransport(ShmInstance.context(shm.instance()));
                EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("late")
                    .token("l").ringSlots(1 << 14).directoryOnConnect(true).eventLog(message -> { })))
            {
                consumer.subscribeAll();
                while (running.get())
                {
                    consumer.poll((buffer, offset) -> { }, 256);
                    received.set((int)consumer.counters().directoryTicks());
                }
            }
        }, "consumer-directory");
        thread.setDaemon(true);
        thread.start();
        return thread;
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
