package io.mdgate.egress.snapshot;

import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.publisher.PublisherContext;
import io.mdgate.egress.support.Await;
import io.mdgate.egress.support.PublisherBed;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Test support: late joiners of a {@link SnapshotDay} over whatever transport a {@link PublisherBed} runs, and the
 * checks every late-join test makes. A consumer subscribed from sequence 1 builds the books from everything (the
 * reference); late consumers join at seeded random points (message ends), ask for a snapshot and build theirs from
 * it and the live ticks after it (the day goes on during each snapshot, at most a tenth of it); their books must
 * equal the reference's at checkpoints and at the end, and they must get every sequence after the snapshot that
 * their view takes exactly once, in order. The test thread polls the consumers; the day is published from a thread
 * of its own.
 */
public final class LateJoiners
{
    /**
     * Snapshot work per publisher duty cycle: a part or two, so every snapshot is built over many cycles while the
     * day goes on being published.
     */
    public static final int SMALL_BUDGET = 8;

    /**
     * While a late joiner's snapshot is under way the day goes on for a tenth of its ticks at most, then waits for
     * it: live ticks flow during every snapshot, and every snapshot ends early enough to leave checkpoints after it
     * (the last join is before 80% of the day, the last checkpoint at 92%), however slowly the transport carries it.
     */
    private static final int SNAPSHOT_SPAN_DIVISOR = 10;

    private final PublisherBed bed;
    private final List<AutoCloseable> closeables;
    private final long timeoutNanos;
    private final AtomicLong allowedUpTo = new AtomicLong();

    /**
     * @param closeables where the consumers and their transports go, for the test to close in reverse order.
     * @param timeoutSeconds how long a day may take to reach every consumer before the scenario fails.
     */
    public LateJoiners(final PublisherBed bed, final List<AutoCloseable> closeables, final long timeoutSeconds)
    {
        this.bed = bed;
        this.closeables = closeables;
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(timeoutSeconds);
    }

    /** @return the publisher settings a {@link SnapshotDay} needs: its depth and books, snapshots built slowly. */
    public static Consumer<PublisherContext> publisherSettings(final int recordsPerCycle)
    {
        return context -> context.depthLevels(SnapshotDay.DEPTH).snapshotBooks(SnapshotDay.BOOKS)
            .snapshotTicks(1 << 14).snapshotRecordsPerCycle(recordsPerCycle);
    }

    /**
     * Publishes a day of {@code messages} messages of seed {@code seed} and has three consumers join it at random
     * points (drawn from the seed, and printed) and ask for a snapshot, then checks each against the full consumer.
     * The bed must accept consumers {@code full}, {@code late0}, {@code late1} and {@code late2}.
     *
     * @param path {@code RING}, {@code STREAM} or {@code LOG} ({@link #consumer}).
     */
    public void joinAtRandomPoints(final SubscriptionView view, final String path, final SnapshotDay.Subset subset,
        final long seed, final int messages)
    {
        final SnapshotDay day = new SnapshotDay(seed, messages);
        final int last = day.count();
        final Random random = new Random(seed);
        final long[] joins = { day.messageEnd(last / 10 + random.nextInt(last / 5)),
            day.messageEnd(last * 2 / 5 + random.nextInt(last / 5)), day.messageEnd(last * 7 / 10 +
            random.nextInt(last / 10)) };
        System.out.println("late joiners: view " + view + ", path " + path + ", instruments " + subset + ", seed " +
            seed + ", " + last + " ticks, joins at " + Arrays.toString(joins));
        final long[] checkpoints = checkpoints(last, 12);
        final BookModel full = new BookModel(SubscriptionView.ALL, subset, checkpoints);
        final EgressConsumer fullConsumer = consumer("full", "RING", SubscriptionView.ALL, SnapshotDay.Subset.EVERY);
        final BookModel[] late = new BookModel[joins.length];
        final EgressConsumer[] lateConsumers = new EgressConsumer[joins.length];

        allowedUpTo.set(joins[0]);
        final Thread publisher = publishing(day, 64);
        publisher.start();
        final long deadline = System.nanoTime() + timeoutNanos;
        final long[] endedAt = new long[joins.length];
        int joined = 0;
        while (joined < joins.length || !allDelivered(day, view, subset, fullConsumer, lateConsumers, last))
        {
            if (joined < joins.length && bed.publisher().lastPublishedSequence() >= joins[joined])
            {
                late[joined] = new BookModel(view, subset, checkpoints);
                lateConsumers[joined] = consumer("late" + joined, path, view, subset);
                lateConsumers[joined].requestSnapshot();
                joined++;
            }
            fullConsumer.poll(full, 512);
            long allowed = joined < joins.length ? joins[joined] : last;
            for (int i = 0; i < joined; i++)
            {
                lateConsumers[i].poll(late[i], 512);
                if (lateConsumers[i].isSnapshotPending())
                {
                    allowed = Math.min(allowed, day.messageEnd(joins[i] + last / SNAPSHOT_SPAN_DIVISOR));
                }
                else if (endedAt[i] == 0)
                {
                    endedAt[i] = bed.publisher().lastPublishedSequence();
                }
            }
            allowedUpTo.set(allowed);
            if (System.nanoTime() > deadline)
            {
                fail("seed " + seed + ": the day of " + last + " ticks did not reach every consumer in time: " +
                    progress(bed, fullConsumer, lateConsumers));
            }
        }
        join(publisher);
        for (int i = 0; i < joins.length; i++)
        {
            System.out.println("late joiners: seed " + seed + ", late" + i + " joined at " + joins[i] + ", snapshot " +
                "from " + lateConsumers[i].snapshotSequence() + " to " + late[i].snapshotSequence + ", ended with " +
                endedAt[i] + " published (held at " + day.messageEnd(joins[i] + last / SNAPSHOT_SPAN_DIVISOR) +
                " at most); laps " +
                lateConsumers[i].counters().laps() + ", gaps " + lateConsumers[i].counters().gaps() + ", recovered " +
                lateConsumers[i].counters().recoveredDelivered() + ", duplicates " +
                lateConsumers[i].counters().duplicates() + ", skipped as in the snapshot " +
                lateConsumers[i].counters().snapshotSkipped());
        }
        assertLateJoinersHaveTheFullBooks(day, view, path, subset, joins, checkpoints, full, late, lateConsumers);
    }

    private static void assertLateJoinersHaveTheFullBooks(final SnapshotDay day, final SubscriptionView view,
        final String path, final SnapshotDay.Subset subset, final long[] joins, final long[] checkpoints,
        final BookModel full, final BookModel[] late, final EgressConsumer[] lateConsumers)
    {
        final int last = day.count();
        final String whole = full.describe(view, subset);
        for (int i = 0; i < joins.length; i++)
        {
            final int j = i;
            final BookModel model = late[i];
            final String who = "late consumer " + i + " joined at " + joins[i] + ", snapshot from " +
                lateConsumers[i].snapshotSequence() + " to " + model.snapshotSequence;
            assertTrue(model.snapshotTicks > 0, who + ": got a snapshot");
            assertSnapshotParts(model, lateConsumers[i], who);
            assertTrue(lateConsumers[i].snapshotSequence() >= joins[i] && model.snapshotSequence <= last, who);
            assertEquals(whole, model.describe(view, subset), who + ": the books at the end");
            if ((view.mask() & SubscriptionView.ORDER) != 0)
            {
                assertEquals(0, model.restore.topOfBookMismatches(), () -> who + ": every top of book agrees with " +
                    "the books; exactly-once: " + exactlyOnce(day, view, subset, model, lateConsumers[j], last));
            }
            int compared = 0;
            for (int c = 0; c < checkpoints.length; c++)
            {
                final String expected = full.states[view.ordinal()][c];
                final String actual = model.states[view.ordinal()][c];
                if (null != actual)
                {
                    assertNotNull(expected, "the full consumer passed checkpoint " + checkpoints[c]);
                    assertEquals(expected, actual, who + ": the books at checkpoint " + checkpoints[c]);
                    compared++;
                }
            }
            assertTrue(compared >= 1, who + ": compared " + compared + " checkpoints");
            assertExactlyOnceAfter(day, view, subset, model, lateConsumers[i], last, who);
            if (path.equals("LOG"))
            {
                assertTrue(lateConsumers[i].readsSharedLog(), who + ": moved to the shared log");
            }
        }
    }

    private static String progress(final PublisherBed bed, final EgressConsumer full, final EgressConsumer[] late)
    {
        final StringBuilder out = new StringBuilder("published ").append(bed.publisher().lastPublishedSequence())
            .append(", full at ").append(full.lastDeliveredSequence());
        for (int i = 0; i < late.length; i++)
        {
            if (null != late[i])
            {
                out.append(", late").append(i).append(" at ").append(late[i].lastDeliveredSequence())
                    .append(late[i].isSnapshotPending() ? " (snapshot pending)" : "");
            }
        }
        return out.append("; ").append(bed.events()).toString();
    }

    /** Lets the day's publishing thread go on up to {@code sequence}. */
    void allowUpTo(final long sequence)
    {
        allowedUpTo.set(sequence);
    }

    /**
     * The snapshot's shape: ticks before any live tick, parts in sequence order, one sequence per instrument's part,
     * the same S(i) the SDK reports, counted once.
     */
    static void assertSnapshotParts(final BookModel model, final EgressConsumer consumer, final String who)
    {
        assertEquals(0, model.snapshotTicksAfterLive, who + ": the snapshot came before any live tick");
        assertEquals(0, model.snapshotSequenceMismatches, who + ": parts come in sequence order");
        assertEquals(0, model.partSequenceMismatches, who + ": each instrument's part is at one sequence");
        for (int i = 1; i <= SnapshotDay.INSTRUMENTS; i++)
        {
            assertEquals(model.partSequence[i], consumer.snapshotSequence(i), who + ": S(" + i + ")");
            assertTrue(model.partSequence[i] == 0 || model.partSequence[i] >= consumer.snapshotSequence(),
                who + ": S(" + i + ") is not before the snapshot's from");
        }
        assertEquals(model.snapshotTicks, consumer.counters().snapshotTicks(), who);
        assertEquals(1, consumer.counters().snapshots(), who);
    }

    /**
     * Every sequence after the snapshot that the consumer takes came once, in order: after from, and for a tick of an
     * instrument with a part, after that part's S(i); nothing else.
     */
    static void assertExactlyOnceAfter(final SnapshotDay day, final SubscriptionView view,
        final SnapshotDay.Subset subset, final BookModel model, final EgressConsumer consumer, final int last,
        final String who)
    {
        int at = 0;
        for (long sequence = consumer.snapshotSequence() + 1; sequence <= last; sequence++)
        {
            final int instrument = day.instrument(sequence);
            final long floor = instrument <= SnapshotDay.INSTRUMENTS ? model.partSequence[instrument] : 0;
            if (day.takes(view, subset, sequence) && sequence > floor)
            {
                assertTrue(at < model.live.size(), who + ": sequence " + sequence + " was never delivered");
                assertEquals(sequence, model.live.getLong(at), who + ": delivered in order, each once, none missing");
                at++;
            }
        }
        assertEquals(at, model.live.size(), who + ": nothing but the sequences after the snapshot its view takes");
    }

    /** @return "yes", or the first break of exactly-once delivery after the snapshot, for a failure's message. */
    private static String exactlyOnce(final SnapshotDay day, final SubscriptionView view,
        final SnapshotDay.Subset subset, final BookModel model, final EgressConsumer consumer, final int last)
    {
        try
        {
            assertExactlyOnceAfter(day, view, subset, model, consumer, last, "");
            return "yes";
        }
        catch (final AssertionError ex)
        {
            return ex.getMessage();
        }
    }

    static long[] checkpoints(final int last, final int count)
    {
        final long[] checkpoints = new long[count];
        for (int i = 0; i < count; i++)
        {
            checkpoints[i] = (long)last * (i + 1) / (count + 1);
        }
        return checkpoints;
    }

    static boolean allDelivered(final SnapshotDay day, final SubscriptionView view,
        final SnapshotDay.Subset subset, final EgressConsumer full, final EgressConsumer[] late, final int last)
    {
        if (full.lastDeliveredSequence() < last)
        {
            return false;
        }
        long lastTaken = last;
        while (!day.takes(view, subset, lastTaken))
        {
            lastTaken--;
        }
        for (final EgressConsumer consumer : late)
        {
            if (null == consumer || consumer.lastDeliveredSequence() < lastTaken || consumer.isSnapshotPending())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Publishes the day on a thread of its own, up to {@link #allowUpTo} (the test holds it at a join point until
     * the late consumer is connected and subscribed, and lets it go on as the snapshot is asked for); every
     * {@code pauseEvery} ticks it pauses 200 us (0: never).
     */
    Thread publishing(final SnapshotDay day, final int pauseEvery)
    {
        final Thread thread = new Thread(() ->
        {
            for (long sequence = 1; sequence <= day.count(); sequence++)
            {
                while (sequence > allowedUpTo.get())
                {
                    Thread.onSpinWait();
                }
                bed.publish(day.tick(sequence));
                if (pauseEvery > 0 && sequence % pauseEvery == 0)
                {
                    LockSupport.parkNanos(200_000);
                }
            }
        }, "day-publisher");
        thread.setDaemon(true);
        return thread;
    }

    static void join(final Thread thread)
    {
        try
        {
            thread.join(30_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    /**
     * @param path {@code RING} or {@code STREAM} (the subset's instruments one by one with the view), or {@code LOG}:
     *             every instrument with the view, through the shared tick log (the subset must be EVERY).
     */
    EgressConsumer consumer(final String name, final String path, final SubscriptionView view,
        final SnapshotDay.Subset subset)
    {
        final var transport = bed.consumerTransport();
        closeables.add(transport);
        final ConsumerContext context = new ConsumerContext().name(name).token(name + PublisherBed.TOKEN_SUFFIX)
            .path(path.equals("STREAM") ? DeliveryPath.STREAM : DeliveryPath.RING).ringSlots(1 << 12);
        final EgressConsumer consumer = EgressConsumer.connect(transport, context);
        closeables.add(consumer);
        if (path.equals("LOG"))
        {
            consumer.subscribeAll(view);
        }
        else
        {
            for (int i = 1; i <= SnapshotDay.INSTRUMENTS; i++)
            {
                if (subset.has(i))
                {
                    consumer.subscribe(i, view);
                }
            }
        }
        Await.until(name + " subscribed", 30, () ->
        {
            consumer.poll((buffer, offset) -> { }, 0);
            return consumer.subscriptionsAwaitingAnswer() == 0;
        });
        return consumer;
    }
}
