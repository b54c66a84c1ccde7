package io.mdgate.egress.support;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.publisher.PublisherContext;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Test support: depth tables checked as a day goes on, over whatever transport a {@link PublisherBed} runs. A
 * {@link DepthFlow} is published in steps, one message at a time early in the day and then a seeded random few;
 * after each step every consumer's depth table, once it has the step's last tick and its slots are at their last
 * changes, holds exactly the top levels of the flow's references. Consumers {@code deep} (8 levels asked, the
 * publisher's 5 given) and {@code shallow} (3) are there from the start, {@code late} subscribes halfway and must
 * have the depth with its answer. At the end a SESSION tick must empty the depth. One test thread.
 */
public final class DepthCheckpoints
{
    /** The consumers the bed must accept. */
    public static final List<String> CONSUMERS = List.of("deep", "shallow", "late");
    private static final int INSTRUMENTS = 3;
    private static final int PUBLISHER_DEPTH = 5;

    private final PublisherBed bed;
    private final List<AutoCloseable> closeables;
    private final int waitSeconds;

    /** @param closeables where the consumers and their transports go, for the test to close in reverse order. */
    public DepthCheckpoints(final PublisherBed bed, final List<AutoCloseable> closeables, final int waitSeconds)
    {
        this.bed = bed;
        this.closeables = closeables;
        this.waitSeconds = waitSeconds;
    }

    /** @return the publisher settings the scenario needs: a depth of 5 levels. */
    public static Consumer<PublisherContext> publisherSettings()
    {
        return context -> context.depthLevels(PUBLISHER_DEPTH);
    }

    /**
     * Publishes {@code messages} messages of the flow of {@code seed}, checking the tables after each of the first
     * {@code everyMessageUntil} and then every 1 to 32 (drawn from the seed).
     */
    public void run(final long seed, final int messages, final int everyMessageUntil)
    {
        System.out.println("depth checkpoints over " + bed.getClass().getSimpleName() + ": seed " + seed);
        final EgressConsumer deep = consumer("deep", context -> context.depthLevels(8));
        final EgressConsumer shallow = consumer("shallow", context -> context.depthLevels(3));
        assertEquals(PUBLISHER_DEPTH, deep.depthLevels(), "the lesser of the consumer's 8 and the publisher's 5");
        assertEquals(3, shallow.depthLevels());
        final List<EgressConsumer> consumers = new ArrayList<>(List.of(deep, shallow));
        long lateFrom = Long.MAX_VALUE;
        final List<Long> toDeep = new ArrayList<>();
        final DepthFlow flow = new DepthFlow(bed, seed, INSTRUMENTS, PUBLISHER_DEPTH, 900);
        final Random random = new Random(seed);
        int checkpoints = 0;
        for (int published = 0; published < messages; checkpoints++)
        {
            final int step = published < everyMessageUntil ? 1 : 1 + random.nextInt(32);
            final long last = flow.publish(step);
            published += step;
            final String when = "seed " + seed + ", after message " + published + " (sequence " + last + ")";
            for (final EgressConsumer consumer : consumers)
            {
                // The late subscriber has live ticks only from those after its answer.
                final long awaited = consumers.indexOf(consumer) < 2 || last > lateFrom ? last : 0;
                awaitTable(flow, consumer, awaited, consumer == deep ? toDeep : null, when);
                flow.assertTableHoldsTheReference(consumer, consumer.depthLevels(), when);
            }
            if (published >= messages / 2 && consumers.size() == 2)
            {
                lateFrom = flow.sequence();
                final EgressConsumer late = consumer("late", context -> { });
                awaitTable(flow, late, 0, null, when + ", the late subscriber's answer");
                flow.assertTableHoldsTheReference(late, PUBLISHER_DEPTH, when + ", the late subscriber's answer");
                consumers.add(late);
            }
        }
        System.out.println("depth checkpoints: " + checkpoints + " checkpoints, " + flow.sequence() + " ticks, " +
            bed.publisher().counters().depthWrites() + " depth writes");
        assertEquals(flow.sequence(), toDeep.size(), "the deep consumer got every LEVEL tick");
        for (int i = 0; i < toDeep.size(); i++)
        {
            assertEquals(i + 1, toDeep.get(i), "once each, in order");
        }
        assertTrue(checkpoints > everyMessageUntil, "checked " + checkpoints + " times");
        assertTrue(bed.publisher().counters().depthWrites() > checkpoints, "written as the levels moved");
        assertANewSessionEmptiesTheDepth(flow, deep);
    }

    private void assertANewSessionEmptiesTheDepth(final DepthFlow flow, final EgressConsumer deep)
    {
        final long session = flow.nextSequence();
        bed.publish(Ticks.session(session, 2));
        final long end = flow.nextSequence();
        bed.publish(Ticks.systemEvent(end, 'O'));
        final DepthBook view = new DepthBook();
        Await.until("the new session's depth", waitSeconds, () ->
        {
            deep.poll((buffer, offset) -> { }, 256);
            return deep.lastDeliveredSequence() >= end && deep.depth(2, view) == TopOfBookReader.READ &&
                deep.depthSequence() == session;
        });
        assertEquals(0, view.levels(DepthBook.BID) + view.levels(DepthBook.ASK), "a new session empties the depth");
    }

    /**
     * Polls until {@code consumer} has {@code last} and its table is at every instrument's last change, adding the
     * sequences delivered to {@code delivered} (null: dropped).
     */
    private void awaitTable(final DepthFlow flow, final EgressConsumer consumer, final long last,
        final List<Long> delivered, final String when)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        while (consumer.lastDeliveredSequence() < last || !flow.tableCaughtUp(consumer))
        {
            consumer.poll((buffer, offset) ->
            {
                if (null != delivered)
                {
                    delivered.add(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN));
                }
            }, 256);
            if (System.nanoTime() > deadline)
            {
                fail(when + ": not at sequence " + last + " with the depth table at the last changes within " +
                    waitSeconds + " s: " + flow.describeTable(consumer));
            }
        }
    }

    private EgressConsumer consumer(final String name, final Consumer<ConsumerContext> customizer)
    {
        final var transport = bed.consumerTransport();
        closeables.add(transport);
        final ConsumerContext context = new ConsumerContext().name(name).token(name + PublisherBed.TOKEN_SUFFIX)
            .controlPollNanos(0);
        customizer.accept(context);
        final EgressConsumer consumer = EgressConsumer.connect(transport, context);
        closeables.add(consumer);
        for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
        {
            consumer.subscribe(instrument, SubscriptionView.DEPTH);
        }
        Await.until(name + " subscribed", waitSeconds, () ->
        {
            consumer.poll((buffer, offset) -> { }, 100);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
        return consumer;
    }
}
