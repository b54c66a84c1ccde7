package io.mdgate.bench.egress;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.FragmentHandler;
import io.mdgate.core.time.MonotonicEpochClock;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Aeron IPC under the same load: an embedded media driver in {@link ThreadingMode#SHARED} (one driver thread, with
 * the consumers' idle strategy), one exclusive IPC publication written with {@code tryClaim} on the harness thread,
 * and one subscription per consumer thread. Aeron back-pressures the publisher to the slowest subscriber; the notes
 * report how often.
 */
final class AeronIpcCase
{
    private static final int STREAM_ID = 1001;
    private static int runs;

    private AeronIpcCase()
    {
    }

    static BenchResult run(final BenchSettings settings, final Supplier<IdleStrategy> idle)
        throws InterruptedException
    {
        final String directory = "/dev/shm/mdgb-aeron-" + ProcessHandle.current().pid() + "-" + (++runs);
        final MonotonicEpochClock clock = new MonotonicEpochClock();
        final MediaDriver.Context driverContext = new MediaDriver.Context()
            .aeronDirectoryName(directory)
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(idle.get())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .warnIfDirectoryExists(false);
        final AtomicBoolean running = new AtomicBoolean(true);
        final List<ConsumerProbe> probes = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        long backPressured;
        try (MediaDriver driver = MediaDriver.launch(driverContext);
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            ExclusivePublication publication = aeron.addExclusivePublication("aeron:ipc", STREAM_ID))
        {
            final List<Subscription> subscriptions = new ArrayList<>();
            for (int i = 0; i < settings.consumers(); i++)
            {
                final ConsumerProbe probe = new ConsumerProbe(clock, settings.warmUpTicks(), settings.lastSequence());
                probes.add(probe);
                final Subscription subscription = aeron.addSubscription("aeron:ipc", STREAM_ID);
                subscriptions.add(subscription);
                threads.add(startConsumer(i, subscription, probe, idle.get(), running));
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((!publication.isConnected() || !allConnected(subscriptions)) && System.nanoTime() < deadline)
            {
                Thread.yield();
            }
            backPressured = publish(publication, clock, settings);
            final long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!allDone(probes) && System.nanoTime() < drainDeadline)
            {
                Thread.yield();
            }
            running.set(false);
            for (final Thread thread : threads)
            {
                thread.join(10_000);
            }
        }
        finally
        {
            running.set(false);
        }
        return new BenchResult("aeron-ipc", settings, probes, "back-pressured offers " + backPressured);
    }

    private static long publish(final ExclusivePublication publication, final MonotonicEpochClock clock,
        final BenchSettings settings)
    {
        final BenchTicks ticks = new BenchTicks();
        final BufferClaim claim = new BufferClaim();
        final Pacer pacer = new Pacer(settings.rate());
        final long last = settings.lastSequence();
        long backPressured = 0;
        long sequence = 1;
        while (sequence <= last)
        {
            if (!pacer.due(sequence - 1))
            {
                Thread.onSpinWait();
                continue;
            }
            if (publication.tryClaim(BenchTicks.LENGTH, claim) > 0)
            {
                ticks.write(claim.buffer(), claim.offset(), sequence++, clock.nanoTime());
                claim.commit();
            }
            else
            {
                backPressured++;
                Thread.yield();
            }
        }
        return backPressured;
    }

    private static Thread startConsumer(final int index, final Subscription subscription, final ConsumerProbe probe,
        final IdleStrategy idle, final AtomicBoolean running)
    {
        final FragmentHandler handler = (buffer, offset, length, header) -> probe.onTick(buffer, offset);
        final Thread thread = new Thread(() ->
        {
            while (running.get() && !probe.done())
            {
                idle.idle(subscription.poll(handler, 256));
            }
        }, "aeron-consumer-" + index);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static boolean allConnected(final List<Subscription> subscriptions)
    {
        for (final Subscription subscription : subscriptions)
        {
            if (!subscription.isConnected())
            {
                return false;
            }
        }
        return true;
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
}
