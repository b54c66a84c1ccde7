package io.mdgate.egress;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The steady-state promise of egress: once warm and connected, the publisher's tick path and duty cycle
 * (batching, shared log, ring and table writes, heartbeats, control polling) and the consumer's poll allocate
 * nothing: a consumer of every instrument (which reads the shared log), a filtered ring consumer and a stream
 * consumer.
 */
class AllocationTest
{
    private static final TickEncoder LEVEL = new TickEncoder();
    private static final long WARM_UP = 700_000;
    private static final long MEASURED = 500_000;
    private static final int WINDOWS = 3;

    @Test
    void shouldPublishAndConsumeWithoutAllocatingInSteadyState() throws Exception
    {
        final com.sun.management.ThreadMXBean threads = threadBean();
        final ShmContext shm = ShmInstance.context(ShmInstance.unique());
        final ShmTransport transport = new ShmTransport(shm);
        final TickArchive archive = new TickArchive(1 << 20);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong ringAllocated = new AtomicLong(-1);
        final AtomicLong logAllocated = new AtomicLong(-1);
        final AtomicLong streamAllocated = new AtomicLong(-1);
        final AtomicLong measureFrom = new AtomicLong(Long.MAX_VALUE);
        Thread ring = null;
        Thread stream = null;
        Thread log = null;
        try (EgressPublisher publisher = new EgressPublisher(new PublisherContext().transport(transport)
            .recoverySource(archive).token("ring", "r").token("stream", "s").token("log", "l").maxInstruments(1024)
            .maxRingSlots(1 << 16).eventLog(message -> { })))
        {
            ring = consumerThread(shm, "ring", "r", DeliveryPath.RING, false, running, measureFrom, ringAllocated,
                threads);
            stream = consumerThread(shm, "stream", "s", DeliveryPath.STREAM, true, running, measureFrom,
                streamAllocated, threads);
            log = consumerThread(shm, "log", "l", DeliveryPath.RING, true, running, measureFrom, logAllocated, threads);
            final long connectDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while ((publisher.activeConsumers() < 3 || publisher.sharedLogReaders() < 1) &&
                System.nanoTime() < connectDeadline)
            {
                publisher.doWork();
            }
            assertEquals(3, publisher.activeConsumers());
            assertEquals(1, publisher.sharedLogReaders(), "the consumer of every instrument reads the shared log");
            final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
            long sequence = 1;
            sequence = publish(publisher, archive, tick, sequence, WARM_UP);
            measureFrom.set(sequence);

            // A per-tick allocation shows in every window of MEASURED ticks; a one-off allocation inside the JDK's
            // socket code while C2 settles (seen under load: under 200 bytes once) does not repeat, so the
            // publisher passes when one of WINDOWS consecutive windows allocates nothing.
            final long lapsBefore = publisher.counters().laps() + publisher.counters().recoveryRequests();
            final StringBuilder windows = new StringBuilder();
            long allocated = Long.MAX_VALUE;
            for (int window = 0; window < WINDOWS; window++)
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                sequence = publish(publisher, archive, tick, sequence, MEASURED);
                final long windowAllocated = threads.getCurrentThreadAllocatedBytes() - before;
                allocated = Math.min(allocated, windowAllocated);
                windows.append(window == 0 ? "" : ", ").append(windowAllocated);
            }
            System.out.println("AllocationTest: publisher bytes per window of " + MEASURED + " ticks: " + windows);
            final boolean steady = publisher.counters().laps() + publisher.counters().recoveryRequests() == lapsBefore;

            final long end = sequence - 1;
            final long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((ringAllocated.get() < 0 || streamAllocated.get() < 0 || logAllocated.get() < 0) &&
                System.nanoTime() < drainDeadline)
            {
                publisher.doWork();
            }
            System.out.println("AllocationTest: publisher " + allocated + " bytes in its best window; ring " +
                "consumer " + ringAllocated.get() + " bytes, stream consumer " + streamAllocated.get() +
                " bytes, shared log consumer " + logAllocated.get() + " bytes; up to sequence " + end);
            // A lap or a recovery is a session event, which logs (and allocates); only a steady state is measured.
            assumeTrue(steady, "a consumer fell a whole ring behind on this loaded host: no steady state to measure");
            assertEquals(0, allocated, "bytes allocated by the publisher in steady state");
            assertEquals(0, ringAllocated.get(), "bytes allocated by the ring consumer's poll in steady state");
            assertEquals(0, streamAllocated.get(), "bytes allocated by the stream consumer's poll in steady state");
            assertEquals(0, logAllocated.get(), "bytes allocated by the shared log consumer's poll in steady state");
            assertTrue(publisher.counters().sharedLogTicks() >= MEASURED * WINDOWS, "the shared log was written");
            assertTrue(publisher.counters().depthWrites() >= MEASURED * WINDOWS / 8, "the depth table was written");
        }
        finally
        {
            running.set(false);
            join(ring);
            join(stream);
            join(log);
            transport.close();
            ShmInstance.removeFiles(shm);
        }
    }

    private static long publish(final EgressPublisher publisher, final TickArchive archive, final UnsafeBuffer tick,
        final long from, final long count)
    {
        long sequence = from;
        for (long i = 0; i < count; i++)
        {
            Ticks.writeAdd(tick, 0, sequence, (int)(sequence % 50) + 1, sequence);
            if (sequence % 4 == 0)
            {
                writeLevel(tick, sequence);
            }
            archive.onTick(tick, 0);
            publisher.onTick(tick, 0);
            sequence++;
            if ((i & 15) == 15)
            {
                publisher.doWork();
            }
            if ((i & 1023) == 1023)
            {
                final long pause = System.nanoTime() + 5_000_000; // about 200k ticks/s: consumers keep up
                while (System.nanoTime() < pause)
                {
                    publisher.doWork();
                }
            }
        }
        return sequence;
    }

    /** Turns the ADD tick into a LEVEL tick: one of 8 prices per side set or (every fifth) removed. */
    private static void writeLevel(final UnsafeBuffer tick, final long sequence)
    {
        LEVEL.wrap(tick, 0).eventType(EventType.LEVEL).side(sequence % 8 == 0 ? Side.BUY : Side.SELL)
            .quantity(sequence % 5 == 0 ? 0 : 100 + sequence % 900).matchOrNewReference(1 + sequence % 3)
            .orderReference(0).price().mantissa((int)(1_000_000 + (sequence / 8 % 8) * 100));
    }

    private static Thread consumerThread(final ShmContext shm, final String name, final String token,
        final DeliveryPath path, final boolean all, final AtomicBoolean running, final AtomicLong measureFrom,
        final AtomicLong result, final com.sun.management.ThreadMXBean threads)
    {
        final Thread thread = new Thread(() ->
        {
            try (ShmTransport transport = new ShmTransport(ShmInstance.context(shm.instance()));
                EgressConsumer consumer = EgressConsumer.connect(transport, new ConsumerContext().name(name)
                    .token(token).path(path).ringSlots(path == DeliveryPath.RING ? 1 << 16 : 0)
                    .eventLog(message -> { })))
            {
                if (all)
                {
                    // the shared log consumer takes only LEVEL (and quote) ticks, filtered tick by tick in the SDK
                    consumer.subscribeAll(path == DeliveryPath.RING ? SubscriptionView.DEPTH : SubscriptionView.ALL);
                }
                else
                {
                    for (int instrument = 1; instrument <= 50; instrument += 2)
                    {
                        consumer.subscribe(instrument, SubscriptionView.DEPTH);
                    }
                }
                final long[] sum = new long[1];
                final TickHandler handler = (buffer, offset) -> sum[0] += buffer.getLong(offset);
                final DepthBook depth = new DepthBook();
                // Bytes per window of MEASURED ticks, as for the publisher: a per-tick allocation shows in every
                // window, a one-off inside the JDK's socket code (the control channel's heartbeats) while C2 settles
                // does not repeat, so the consumer passes when one window allocates nothing.
                long windowStart = -1;
                int window = 0;
                long best = Long.MAX_VALUE;
                // instrument 1, a LEVEL tick: every consumer takes it
                final long target = WARM_UP + MEASURED * WINDOWS;
                long polls = 0;
                while (running.get() && consumer.lastDeliveredSequence() < target)
                {
                    consumer.poll(handler, 64);
                    if ((++polls & 255) == 0 && consumer.depth(1, depth) == TopOfBookReader.READ)
                    {
                        sum[0] += depth.levels(DepthBook.BID);
                    }
                    final long from = measureFrom.get();
                    if (from > 0 && window <= WINDOWS && consumer.lastDeliveredSequence() >= from + window * MEASURED)
                    {
                        final long now = threads.getCurrentThreadAllocatedBytes();
                        if (windowStart >= 0)
                        {
                            best = Math.min(best, now - windowStart);
                        }
                        windowStart = now;
                        window++;
                    }
                }
                if (windowStart >= 0 && consumer.lastDeliveredSequence() >= target)
                {
                    if (window <= WINDOWS)
                    {
                        best = Math.min(best, threads.getCurrentThreadAllocatedBytes() - windowStart);
                    }
                    result.set(best);
                }
            }
        }, "consumer-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** @return the thread bean that counts allocated bytes (the test is skipped, saying why, on a JVM without it). */
    static com.sun.management.ThreadMXBean threadBean()
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "this JVM cannot count allocated bytes");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        return threads;
    }

    private static void join(final Thread thread) throws InterruptedException
    {
        if (null != thread)
        {
            thread.join(10_000);
        }
    }
}
