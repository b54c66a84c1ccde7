package io.mdgate.egress;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.publisher.EgressPublisher;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmInstance;
import io.mdgate.egress.transport.shm.ShmTransport;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A publisher that dies without a goodbye (as {@code kill -9} leaves it) and a new one started on the same shm
 * instance after the journal's last tick, while a consumer process stays up across the restart. The journal is a
 * {@link TickArchive} both publishers recover from, filled before either starts.
 */
class PublisherRestartTest
{
    private static final String NAME = "across";
    private static final String TOKEN = "across-secret";
    private static final long BEFORE_KILL = 3000;
    private static final long AFTER_RESTART = 500;

    private final ShmContext shm = ShmInstance.context(ShmInstance.unique());
    private final TickArchive journal = new TickArchive(1 << 14);
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        ShmInstance.removeFiles(shm);
    }

    @Test
    void shouldReplayFromTheJournalWhatARingConsumerBeingReplayedAtTheKillHadNotDeliveredYet()
    {
        for (long sequence = 1; sequence <= BEFORE_KILL + AFTER_RESTART; sequence++)
        {
            journal.onTick(tick(sequence), 0);
        }
        final RunningPublisher first = start(1);
        final EgressConsumer consumer = consumer();
        consumer.subscribeAll();
        Await.until("subscription answers", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
        first.publish(1, BEFORE_KILL);

        final List<Long> received = new ArrayList<>();
        collect(consumer, 1000, received);
        assertTrue(consumer.counters().recoveredDelivered() > 0, "the lapped ring was being replayed");
        assertTrue(consumer.lastDeliveredSequence() < BEFORE_KILL - 1000, "still behind at the kill");

        first.kill();
        final RunningPublisher second = start(BEFORE_KILL + 1);
        second.publish(BEFORE_KILL + 1, BEFORE_KILL + AFTER_RESTART);
        collect(consumer, BEFORE_KILL + AFTER_RESTART, received);

        assertTrue(consumer.counters().connects() >= 2, "reconnected to the restarted publisher");
        assertEquals(sequences(1, BEFORE_KILL + AFTER_RESTART), received, firstBreak(received));
        assertEquals(0, consumer.counters().unrecovered());
    }

    @Test
    void shouldSayOnceWhyReconnectingFailsWhileThePublisherIsDownAndReconnectWhenItIsBack()
    {
        for (long sequence = 1; sequence <= 200; sequence++)
        {
            journal.onTick(tick(sequence), 0);
        }
        final RunningPublisher first = start(1);
        final List<String> events = new ArrayList<>();
        final EgressConsumer consumer = consumer(events::add);
        consumer.subscribeAll();
        Await.until("subscription answers", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
        first.publish(1, 100);
        final List<Long> received = new ArrayList<>();
        collect(consumer, 100, received);

        first.kill();
        Await.until("a dozen failed reconnects", 30, () ->
        {
            consumer.poll((buffer, offset) -> { }, 16);
            return consumer.counters().reconnectFailures() >= 12;
        });
        final List<String> failures = events.stream().filter(e -> e.contains("could not reconnect")).toList();
        assertEquals(1, failures.size(), "one report for one reason, not one per attempt: " + events);
        assertTrue(failures.get(0).contains("'" + NAME + "' could not reconnect (1 attempt(s) since the last report): "),
            failures.get(0));

        final RunningPublisher second = start(101);
        second.publish(101, 200);
        collect(consumer, 200, received);
        assertEquals(sequences(1, 200), received, firstBreak(received));
        assertEquals(2, consumer.counters().connects());
    }

    @Test
    void shouldWaitTwiceAsLongAfterEachFailedReconnectUpToTheLongestInterval()
    {
        final long[] now = {0};
        final RunningPublisher first = start(1);
        final EgressConsumer consumer = consumer(EventLog.STDERR, context -> context.nanoClock(() -> now[0])
            .reconnectIntervalNanos(millis(20)).reconnectMaxIntervalNanos(millis(320)));
        consumer.subscribeAll();
        Await.until("subscription answers", 10, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });

        first.kill();
        Await.until("the lost connection noticed", 30, () ->
        {
            now[0] += millis(1);
            consumer.poll((buffer, offset) -> { }, 16);
            return consumer.counters().disconnects() == 1;
        });
        final long lost = now[0];
        while (now[0] - lost < millis(3000))
        {
            now[0] += millis(5);
            consumer.poll((buffer, offset) -> { }, 16);
        }
        // Attempts 20, 60, 140, 300 and 620 ms after the loss, then every 320 ms: 12 in 3 s (150 at a fixed 20 ms).
        final long failures = consumer.counters().reconnectFailures();
        assertTrue(failures >= 10 && failures <= 13, "failed reconnects in 3 s: " + failures);

        start(1);
        Await.until("reconnected to the new publisher", 30, () ->
        {
            now[0] += millis(5);
            consumer.poll((buffer, offset) -> { }, 16);
            return consumer.counters().connects() == 2;
        });
    }

    private static long millis(final long millis)
    {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private static UnsafeBuffer tick(final long sequence)
    {
        return Ticks.add(sequence, (int)(sequence % 10) + 1, 0);
    }

    /** @return where the delivered sequences first stop following one another, for the failure message. */
    private static String firstBreak(final List<Long> received)
    {
        for (int i = 1; i < received.size(); i++)
        {
            if (received.get(i) != received.get(i - 1) + 1)
            {
                return "delivered " + received.get(i - 1) + " then " + received.get(i);
            }
        }
        return "delivered " + received.size() + " ticks in order";
    }

    private static List<Long> sequences(final long from, final long to)
    {
        final List<Long> sequences = new ArrayList<>();
        for (long sequence = from; sequence <= to; sequence++)
        {
            sequences.add(sequence);
        }
        return sequences;
    }

    private static void collect(final EgressConsumer consumer, final long untilSequence, final List<Long> into)
    {
        Await.until("sequence " + untilSequence + " (at " + consumer.lastDeliveredSequence() + ")", 30, () ->
        {
            consumer.poll((buffer, offset) -> into.add(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN)), 256);
            return consumer.lastDeliveredSequence() >= untilSequence;
        });
    }

    private EgressConsumer consumer()
    {
        return consumer(EventLog.STDERR);
    }

    private EgressConsumer consumer(final EventLog log)
    {
        // Every 20 ms, no back-off: the tests of what is delivered and said want many attempts quickly.
        return consumer(log, context -> context.reconnectMaxIntervalNanos(millis(20)));
    }

    private EgressConsumer consumer(final EventLog log, final UnaryOperator<ConsumerContext> settings)
    {
        final ShmTransport transport = new ShmTransport(ShmInstance.context(shm.instance()));
        closeables.add(transport);
        final EgressConsumer consumer = EgressConsumer.connect(transport, settings.apply(new ConsumerContext().name(NAME)
            .token(TOKEN).ringSlots(64).controlPollNanos(0).reconnectIntervalNanos(millis(20))
            .eventLog(log)));
        closeables.add(0, consumer);
        return consumer;
    }

    private RunningPublisher start(final long firstSequence)
    {
        final RunningPublisher publisher = new RunningPublisher(firstSequence);
        closeables.add(publisher);
        return publisher;
    }

    /** A publisher polled on its own thread until killed: stopped mid-cycle, its connections dropped, no BYE. */
    private final class RunningPublisher implements AutoCloseable
    {
        private final ShmTransport transport = new ShmTransport(ShmInstance.context(shm.instance()));
        private final TickRing input = new TickRing(1 << 14);
        private final EgressPublisher publisher;
        private final Thread thread;
        private volatile boolean running = true;

        RunningPublisher(final long firstSequence)
        {
            publisher = new EgressPublisher(new PublisherContext()
                .transport(transport)
                .firstSequence(firstSequence)
                .recoverySource(journal)
                .tickSource(input)
                .maxRingSlots(1 << 10)
                .sharedLogSlots(0)
                .token(NAME, TOKEN));
            thread = new Thread(this::run, "publisher-from-" + firstSequence);
            thread.start();
        }

        private void run()
        {
            while (running)
            {
                if (publisher.doWork() == 0)
                {
                    Thread.onSpinWait();
                }
            }
        }

        void publish(final long from, final long to)
        {
            for (long sequence = from; sequence <= to; sequence++)
            {
                final UnsafeBuffer tick = tick(sequence);
                Await.until("room for tick " + sequence, 10, () -> input.offer(tick, 0));
            }
            Await.until("the publisher took every tick", 10, () -> input.size() == 0);
        }

        /** Stops the duty cycle where it is and drops every connection and region, as the process dying would. */
        void kill()
        {
            running = false;
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            assertFalse(thread.isAlive(), "the publisher's thread stopped");
            transport.close();
        }

        @Override
        public void close()
        {
            if (running)
            {
                kill();
            }
        }
    }
}
