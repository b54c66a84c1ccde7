package io.mdgate.bench.egress;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.BufferClaim;
import io.aeron.logbuffer.FragmentHandler;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.TickArchive;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.transport.shm.HugepageMode;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one consumer costs per tick, without contention: one thread writes a batch of ticks, then the same thread
 * reads them back through one consumer, and only the reading is timed; best of N rounds, both transports in one JVM
 * (shm egress: an {@link EgressConsumer} following the publisher's shared tick log; Aeron IPC: a
 * {@code Subscription} polled with a fragment handler). The handler only reads each tick's sequence, so what is
 * measured is the transport's and the SDK's own work per tick.
 * <p>
 * Arguments: {@code [--ticks 1000000]} (per round, at most the shared log's 1,048,576 slots),
 * {@code [--batch TICKS]} (written then read in batches of this many, default all of a round's ticks at once),
 * {@code [--rounds 10]}, {@code [--latency on|off]} (the shm consumer's own latency histogram, default on),
 * {@code [--hugepages DIR]} (measure the shm consumer a second time, in the same run, with the publisher's files on
 * the hugetlbfs mount DIR, and print the ratio of the two).
 * <p>
 * Threading: the main thread does everything while measuring; a helper thread runs the shm publisher only while the
 * consumer connects.
 */
public final class ConsumerCost
{
    private static final int LOG_SLOTS = 1 << 20;
    private static final int POLL_LIMIT = 256;
    private static final int STREAM_ID = 1002;

    private final int ticks;
    private final int batch;
    private final BenchTicks encoder = new BenchTicks();
    private final MonotonicEpochClock clock = new MonotonicEpochClock();
    private long sum;
    private long lastSequence;

    private ConsumerCost(final int ticks, final int batch)
    {
        this.ticks = ticks;
        this.batch = batch;
    }

    public static void main(final String[] args) throws Exception
    {
        int ticks = 1_000_000;
        int batch = 0;
        int rounds = 10;
        boolean latency = true;
        Path hugepages = null;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--ticks":
                    ticks = Integer.parseInt(args[++i]);
                    break;
                case "--batch":
                    batch = Integer.parseInt(args[++i]);
                    break;
                case "--rounds":
                    rounds = Integer.parseInt(args[++i]);
                    break;
                case "--latency":
                    latency = "on".equals(args[++i]);
                    break;
                case "--hugepages":
                    hugepages = Path.of(args[++i]);
                    break;
                default:
                    System.err.println("unknown argument " + args[i] + ": use --ticks N --batch N --rounds N " +
                        "--latency on|off --hugepages DIR");
                    System.exit(2);
            }
        }
        if (ticks < 1 || ticks > LOG_SLOTS || rounds < 1 || batch < 0)
        {
            System.err.println("--ticks must be 1.." + LOG_SLOTS + ", --rounds 1 or more, --batch 0 or more: " +
                "a round's ticks must fit the shared log");
            System.exit(2);
        }
        final ConsumerCost cost = new ConsumerCost(ticks, batch == 0 ? ticks : Math.min(batch, ticks));
        System.out.printf(Locale.ROOT, "ticks %d per round, batch %d, rounds %d, shm latency histogram %s%n", ticks,
            cost.batch, rounds, latency ? "on" : "off");
        final double[] shm = cost.shm(rounds, latency, null);
        System.out.printf(Locale.ROOT, "shm egress consumer: best %.2f ns/tick, median %.2f%n", shm[0], shm[1]);
        if (null != hugepages)
        {
            final double[] huge = cost.shm(rounds, latency, hugepages);
            System.out.printf(Locale.ROOT, "shm egress consumer on 2 MiB pages (%s): best %.2f ns/tick, median %.2f%n",
                hugepages, huge[0], huge[1]);
            System.out.printf(Locale.ROOT, "2 MiB / 4 KiB pages cost: best %.2f, median %.2f%n", huge[0] / shm[0],
                huge[1] / shm[1]);
        }
        final double[] aeron = cost.aeron(rounds);
        System.out.printf(Locale.ROOT, "aeron ipc subscription: best %.2f ns/tick, median %.2f%n", aeron[0],
            aeron[1]);
        System.out.printf(Locale.ROOT, "shm / aeron cost (best): %.2f%n", shm[0] / aeron[0]);
        if (cost.sum == 42)
        {
            System.out.println();
        }
    }

    private double[] shm(final int rounds, final boolean latency, final Path hugepages) throws InterruptedException
    {
        final String instance = "mdgc-" + ProcessHandle.current().pid();
        final ShmContext shm = new ShmContext().instance(instance);
        if (null != hugepages)
        {
            shm.hugepages(HugepageMode.REQUIRED).hugepageDirectory(hugepages);
        }
        final ShmTransport transport = new ShmTransport(shm);
        final PublisherContext context = new PublisherContext().transport(transport)
            .recoverySource(new TickArchive(1 << 16)).maxConsumers(1).maxRingSlots(1 << 12).maxInstruments(1024)
            .batchBudgetNanos(0).epochClock(clock).eventLog(message -> { }).sharedLogSlots(LOG_SLOTS)
            .token("cost", "cost");
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[BenchTicks.LENGTH]);
        final TickHandler handler = this::onTick;
        try (EgressPublisher publisher = new EgressPublisher(context);
            ShmTransport consumerTransport = new ShmTransport(new ShmContext().instance(instance)))
        {
            final EgressConsumer consumer = connect(publisher, consumerTransport, latency, handler);
            final double[] nanos = new double[rounds];
            long sequence = 1;
            for (int round = 0; round < rounds; round++)
            {
                long elapsed = 0;
                for (int done = 0; done < ticks; done += batch)
                {
                    final int count = Math.min(batch, ticks - done);
                    for (int i = 0; i < count; i++)
                    {
                        encoder.write(tick, 0, sequence++, clock.nanoTime());
                        publisher.onTick(tick, 0);
                    }
                    publisher.flush();
                    publisher.doWork();
                    final long target = sequence - 1;
                    final long start = System.nanoTime();
                    while (consumer.lastDeliveredSequence() < target)
                    {
                        consumer.poll(handler, POLL_LIMIT);
                    }
                    elapsed += System.nanoTime() - start;
                }
                nanos[round] = (double)elapsed / ticks;
            }
            if (consumer.counters().laps() != 0 || consumer.counters().gaps() != 0 || lastSequence != sequence - 1)
            {
                throw new IllegalStateException("the shm consumer lapped or missed ticks: laps " +
                    consumer.counters().laps() + ", gaps " + consumer.counters().gaps());
            }
            consumer.close();
            return bestAndMedian(nanos);
        }
        finally
        {
            transport.close();
            removeFiles(instance);
        }
    }

    private EgressConsumer connect(final EgressPublisher publisher, final ShmTransport transport,
        final boolean latency, final TickHandler handler) throws InterruptedException
    {
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread driver = new Thread(() ->
        {
            while (running.get())
            {
                if (publisher.doWork() == 0)
                {
                    Thread.yield();
                }
            }
        }, "cost-publisher-connect");
        driver.start();
        try
        {
            final EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name("cost")
                .token("cost").path(DeliveryPath.RING).ringSlots(1 << 12).tableSlots(0).epochClock(clock)
                .recordLatency(latency).eventLog(message -> { }));
            consumer.subscribeAll();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!consumer.readsSharedLog() && System.nanoTime() < deadline)
            {
                consumer.poll(handler, POLL_LIMIT);
                Thread.yield();
            }
            if (!consumer.readsSharedLog())
            {
                throw new IllegalStateException("the shm consumer did not move to the shared log");
            }
            return consumer;
        }
        finally
        {
            running.set(false);
            driver.join();
        }
    }

    private double[] aeron(final int rounds)
    {
        final String directory = "/dev/shm/mdgc-aeron-" + ProcessHandle.current().pid();
        final MediaDriver.Context driverContext = new MediaDriver.Context().aeronDirectoryName(directory)
            .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true)
            .warnIfDirectoryExists(false);
        final String channel = "aeron:ipc?term-length=" + termLength(ticks);
        final FragmentHandler handler = (buffer, offset, length, header) -> onTick(buffer, offset);
        final BufferClaim claim = new BufferClaim();
        lastSequence = 0;
        try (MediaDriver driver = MediaDriver.launch(driverContext);
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            ExclusivePublication publication = aeron.addExclusivePublication(channel, STREAM_ID);
            Subscription subscription = aeron.addSubscription(channel, STREAM_ID))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!(publication.isConnected() && subscription.isConnected()) && System.nanoTime() < deadline)
            {
                Thread.yield();
            }
            final double[] nanos = new double[rounds];
            long sequence = 1;
            for (int round = 0; round < rounds; round++)
            {
                long elapsed = 0;
                for (int done = 0; done < ticks; done += batch)
                {
                    final int count = Math.min(batch, ticks - done);
                    final long writeDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    for (int i = 0; i < count; )
                    {
                        if (publication.tryClaim(BenchTicks.LENGTH, claim) > 0)
                        {
                            encoder.write(claim.buffer(), claim.offset(), sequence++, clock.nanoTime());
                            claim.commit();
                            i++;
                        }
                        else if (System.nanoTime() - writeDeadline > 0)
                        {
                            throw new IllegalStateException("aeron back-pressured the writer: term " +
                                publication.termBufferLength() + ", position " + publication.position() +
                                ", limit " + publication.positionLimit());
                        }
                        else
                        {
                            Thread.yield();
                        }
                    }
                    final long target = sequence - 1;
                    final long start = System.nanoTime();
                    while (lastSequence < target)
                    {
                        subscription.poll(handler, POLL_LIMIT);
                    }
                    elapsed += System.nanoTime() - start;
                }
                nanos[round] = (double)elapsed / ticks;
            }
            return bestAndMedian(nanos);
        }
    }

    /** A term holds a whole round's frames (64 bytes and a 32-byte header each), so no batch is back-pressured. */
    private static int termLength(final int ticks)
    {
        int length = 64 * 1024 * 1024;
        while (length < ticks * 96L * 2 && length < (1 << 30))
        {
            length <<= 1;
        }
        return length;
    }

    private void onTick(final DirectBuffer buffer, final int offset)
    {
        final long sequence = BenchTicks.sequence(buffer, offset);
        sum += sequence;
        lastSequence = sequence;
    }

    private static double[] bestAndMedian(final double[] nanos)
    {
        final double[] sorted = nanos.clone();
        java.util.Arrays.sort(sorted);
        return new double[] {sorted[0], sorted[sorted.length / 2]};
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
            // Best effort: a file left behind is named after this process.
        }
    }
}
