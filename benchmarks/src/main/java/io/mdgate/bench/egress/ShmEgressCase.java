package io.mdgate.bench.egress;

import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.TickArchive;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.publisher.PublisherCounters;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The shm egress under test: the publisher on the harness thread (as it runs beside the normalizer on one core),
 * each consumer an {@link EgressConsumer} on its own thread, subscribed to everything, so that the SDK moves it from
 * its ring to the publisher's shared tick log, which the publisher writes once per tick for all of them (with
 * {@code --rings}, the shared log is off and every consumer reads its own ring, written once per consumer). The
 * publisher never waits for a consumer: a lapped one recovers the rest from the in-memory archive, which the notes
 * report. The SDK's own latency histogram is off ({@code recordLatency(false)}): the probe times every tick, as it
 * does for Aeron, whose subscriber keeps no histogram.
 */
final class ShmEgressCase
{
    private static final int RING_SLOTS = 1 << 16;
    /** 64 MiB of ticks, as one term of an Aeron IPC publication by default (aeron.ipc.term.buffer.length). */
    private static final int SHARED_LOG_SLOTS = 1 << 20;
    private static int runs;

    private ShmEgressCase()
    {
    }

    static BenchResult run(final BenchSettings settings, final Supplier<IdleStrategy> consumerIdle,
        final boolean rings) throws InterruptedException
    {
        final String instance = "mdgb-" + ProcessHandle.current().pid() + "-" + (++runs);
        final MonotonicEpochClock clock = new MonotonicEpochClock();
        final ShmTransport transport = new ShmTransport(new ShmContext().instance(instance));
        final TickArchive archive = new TickArchive(archiveCapacity(settings.lastSequence()));
        final PublisherContext context = new PublisherContext().transport(transport).recoverySource(archive)
            .maxConsumers(settings.consumers()).maxRingSlots(RING_SLOTS).maxInstruments(1024).batchBudgetNanos(0)
            .epochClock(clock).eventLog(message -> { }).sharedLogSlots(rings ? 0 : SHARED_LOG_SLOTS);
        for (int i = 0; i < settings.consumers(); i++)
        {
            context.token("c" + i, "t" + i);
        }
        final AtomicBoolean running = new AtomicBoolean(true);
        final CountDownLatch ready = new CountDownLatch(settings.consumers());
        final List<ConsumerProbe> probes = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        final AtomicLong consumerLaps = new AtomicLong();
        final AtomicLong logReaders = new AtomicLong();
        String notes = "";
        try (EgressPublisher publisher = new EgressPublisher(context))
        {
            for (int i = 0; i < settings.consumers(); i++)
            {
                final ConsumerProbe probe = new ConsumerProbe(clock, settings.warmUpTicks(), settings.lastSequence());
                probes.add(probe);
                threads.add(startConsumer(instance, i, probe, consumerIdle.get(), clock, running, ready,
                    consumerLaps, logReaders));
            }
            final long readyDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ready.getCount() > 0 && System.nanoTime() < readyDeadline)
            {
                yieldIfIdle(publisher.doWork());
            }
            if (ready.getCount() > 0)
            {
                throw new IllegalStateException("shm consumers did not connect");
            }
            publish(publisher, archive, clock, settings);
            final long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!allDone(probes) && System.nanoTime() < drainDeadline)
            {
                yieldIfIdle(publisher.doWork()); // as the Aeron case's harness thread yields while consumers drain
            }
            final PublisherCounters counters = publisher.counters();
            running.set(false);
            for (final Thread thread : threads)
            {
                thread.join(10_000);
            }
            notes = (logReaders.get() > 0 ? "shared log, " + logReaders.get() + " readers" : "rings") + ", laps " +
                (counters.laps() + consumerLaps.get()) + ", recovered " + counters.recoveredTicks();
        }
        finally
        {
            running.set(false);
            transport.close();
            removeFiles(instance);
        }
        return new BenchResult("shm", settings, probes, notes);
    }

    private static void yieldIfIdle(final int work)
    {
        if (work == 0)
        {
            Thread.yield();
        }
    }

    private static int archiveCapacity(final long ticks)
    {
        int capacity = 1 << 16;
        while (capacity < ticks && capacity < (1 << 25))
        {
            capacity <<= 1;
        }
        return capacity;
    }

    private static void publish(final EgressPublisher publisher, final TickArchive archive,
        final MonotonicEpochClock clock, final BenchSettings settings)
    {
        final BenchTicks ticks = new BenchTicks();
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[BenchTicks.LENGTH]);
        final Pacer pacer = new Pacer(settings.rate());
        long sequence = 1;
        final long last = settings.lastSequence();
        while (sequence <= last)
        {
            int burst = 0;
            while (sequence <= last && burst < 64 && pacer.due(sequence - 1))
            {
                ticks.write(tick, 0, sequence++, clock.nanoTime());
                archive.onTick(tick, 0);
                publisher.onTick(tick, 0);
                burst++;
            }
            if (publisher.doWork() == 0 && burst == 0)
            {
                Thread.onSpinWait(); // spin as the Aeron case's publisher does while nothing is due
            }
        }
        publisher.flush();
    }

    private static Thread startConsumer(final String instance, final int index, final ConsumerProbe probe,
        final IdleStrategy idle, final MonotonicEpochClock clock, final AtomicBoolean running,
        final CountDownLatch ready, final AtomicLong laps, final AtomicLong logReaders)
    {
        final Thread thread = new Thread(() ->
        {
            try (ShmTransport transport = new ShmTransport(new ShmContext().instance(instance));
                EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext()
                    .name("c" + index).token("t" + index).path(DeliveryPath.RING).ringSlots(RING_SLOTS)
                    .tableSlots(0).epochClock(clock).recordLatency(false).eventLog(message -> { })))
            {
                consumer.subscribeAll();
                final TickHandler handler = probe::onTick;
                boolean signalled = false;
                while (running.get() && !probe.done())
                {
                    final int work = consumer.poll(handler, 256);
                    if (!signalled && consumer.subscriptionsAwaitingAnswer() == 0)
                    {
                        signalled = true;
                        ready.countDown();
                    }
                    idle.idle(work);
                }
                laps.addAndGet(consumer.counters().laps());
                logReaders.addAndGet(consumer.readsSharedLog() ? 1 : 0);
            }
        }, "shm-consumer-" + index);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static boolean allDone(final List<ConsumerProbe> probes)
    {
        for (final ConsumerProbe probe : probes)
        {
            if (!probe.done())
            {
                return false;
            }
        }
        return true;
    }

    private static void removeFiles(final String instance)
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of("/dev/shm"), instance + "-*"))
        {
            for (final Path file : files)
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException ignore)
        {
            // Best effort: a file left behind is named after this process and run.
        }
    }
}
