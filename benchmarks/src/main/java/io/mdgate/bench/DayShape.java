package io.mdgate.bench;

import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.AddOrderMpidFlyweight;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderExecutedWithPriceFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteOrder;
import java.util.BitSet;

/**
 * Prints the shape of a benchmark day: messages by type, then, from replaying every order message into
 * {@link OrderBooks} through their public operations and queries only, the instruments that had orders, the
 * peak of live orders and of price levels, the deepest side, and how far from the touch adds land (in one-cent
 * levels from the best price of their own side, 0 at or better than it; adds to an empty side are not
 * counted), and the widest spread of live order references (newest reference less the oldest live one, plus
 * one). Generates the day's file first if it is not cached.
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.mdgate.bench.DayShape [standard|deep]...
 * </pre>
 * A command-line tool: one thread.
 */
public final class DayShape implements ItchMessageHandler
{
    private static final long CENT = 100;
    private static final int MAX_DISTANCE = 1 << 16;

    private final OrderBooks books;
    private final long[] distances = new long[MAX_DISTANCE + 1];
    private final boolean[] hadOrders;
    private long maxDistance;
    private int peakOrders;
    private long peakOrdersAt;
    private int peakLevels;
    private int deepestSide;
    private int deepestInstrument = OrderBooks.NONE;
    private int deepestSideOf = OrderBooks.NONE;
    private long refused;
    private long message;
    private final BitSet liveReferences = new BitSet();
    private int oldestLive;
    private long peakSpread;
    private long peakSpreadAt;
    private long newestReference;
    private final long[] ages = new long[64];
    private long lookups;
    private long orderEvents;
    private long touchedBest;

    private DayShape(final OrderBooks books)
    {
        this.books = books;
        hadOrders = new boolean[books.maxInstruments()];
    }

    public static void main(final String[] args) throws IOException
    {
        final String[] days = args.length == 0 ? new String[] { "standard", "deep" } : args;
        for (final String name : days)
        {
            final BenchDay day;
            try
            {
                day = BenchDay.named(name);
            }
            catch (final IllegalArgumentException ex)
            {
                System.err.println(ex.getMessage());
                System.exit(2);
                return;
            }
            print(day, System.out);
        }
    }

    private static void print(final BenchDay day, final PrintStream out) throws IOException
    {
        final SimulationConfig config = day.simulation();
        final UnsafeBuffer file = GeneratedItchFile.load(config).buffer();
        final DayShape shape = new DayShape(new OrderBooks(day.books().conclude()));
        final long[] counts = shape.replay(file);
        out.printf("day %s: %s, %,d bytes%n", day.parameter(), GeneratedItchFile.fileName(config), file.capacity());
        out.printf("  %s%n", config);
        shape.printCounts(counts, out);
        shape.printBooks(out);
    }

    private long[] replay(final UnsafeBuffer buffer)
    {
        final long[] counts = new long[256];
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final int end = buffer.capacity();
        int offset = 0;
        while (offset < end)
        {
            final int length = buffer.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            counts[buffer.getByte(offset + 2) & 0xFF]++;
            message++;
            decoder.decode(buffer, offset + 2, length, this);
            offset += 2 + length;
        }
        refused += decoder.malformedCount();
        return counts;
    }

    private void printCounts(final long[] counts, final PrintStream out)
    {
        out.printf("  messages %,d:", message);
        int column = 0;
        for (final byte type : ItchMessageType.ALL)
        {
            out.printf("%s %c %,d", column++ % 8 == 0 ? "\n   " : ",", (char)type, counts[type & 0xFF]);
        }
        out.println();
    }

    private void printBooks(final PrintStream out)
    {
        int instruments = 0;
        for (final boolean had : hadOrders)
        {
            instruments += had ? 1 : 0;
        }
        out.printf("  instruments with orders %,d%n", instruments);
        out.printf("  peak live orders        %,d (after message %,d)%n", peakOrders, peakOrdersAt);
        out.printf("  peak price levels       %,d (all instruments and sides)%n", peakLevels);
        out.printf("  deepest side            %,d levels (stock locate %d, %s)%n", deepestSide, deepestInstrument,
            deepestSideOf == BookSide.BID ? "bid" : "ask");
        long adds = 0;
        long far = 0;
        for (int d = 0; d <= MAX_DISTANCE; d++)
        {
            adds += distances[d];
            far += d > SimulationConfig.NEAR_DEPTH ? distances[d] : 0;
        }
        out.printf("  add distance from touch p50 %d, p90 %d, p99 %d, max %d levels; %.1f%% beyond %d " +
            "(%,d adds to a non-empty side)%n", percentile(adds, 0.5), percentile(adds, 0.9),
            percentile(adds, 0.99), maxDistance, 100.0 * far / adds, SimulationConfig.NEAR_DEPTH, adds);
        out.printf("  live reference spread   %,d at the widest (after message %,d)%n", peakSpread, peakSpreadAt);
        out.printf("  refused by the books    %,d (capacity, unknown order, malformed)%n", refused);
        out.printf("  order-event age         p50 %,d, p90 %,d, p99 %,d references (newest reference less the one " +
            "an execute, cancel, delete or replace names; %,d events)%n", agePercentile(0.5), agePercentile(0.9),
            agePercentile(0.99), lookups);
        out.printf("  at the best level       %.1f%% of order events changed their side's best level%n",
            100.0 * touchedBest / Math.max(1, orderEvents));
    }

    /** @return the smallest power of two at or above that share of the order events' ages. */
    private long agePercentile(final double fraction)
    {
        long seen = 0;
        for (int bucket = 0; bucket < ages.length; bucket++)
        {
            seen += ages[bucket];
            if (seen >= fraction * lookups)
            {
                return 1L << bucket;
            }
        }
        return 1L << (ages.length - 1);
    }

    /** Counts the age of the order an event names and whether the event reached its side's best level. */
    private void looked(final long reference)
    {
        final long age = Math.max(1, newestReference - reference);
        ages[64 - Long.numberOfLeadingZeros(age - 1)]++;
        lookups++;
    }

    private void event(final int result)
    {
        orderEvents++;
        touchedBest += result >= 0 && books.lastTouchedBest() ? 1 : 0;
    }

    private int percentile(final long total, final double fraction)
    {
        final long rank = (long)Math.ceil(total * fraction);
        long seen = 0;
        for (int d = 0; d <= MAX_DISTANCE; d++)
        {
            seen += distances[d];
            if (seen >= rank)
            {
                return d;
            }
        }
        return MAX_DISTANCE;
    }

    private void add(final AddOrderFlyweight m)
    {
        final int locate = m.stockLocate();
        final int side = BookSide.of(m.side());
        final long best = books.bestPrice(locate, side);
        if (best != OrderBooks.NO_PRICE)
        {
            final long distance = Math.max(0, side == BookSide.BID ? best - m.price() : m.price() - best) / CENT;
            distances[(int)Math.min(distance, MAX_DISTANCE)]++;
            maxDistance = Math.max(maxDistance, distance);
        }
        final int result = books.add(locate, m.orderReference(), m.side(), m.shares(), m.price());
        event(result);
        if (applied(result))
        {
            hadOrders[locate] = true;
            placed(m.orderReference());
        }
    }

    /** The simulator's references increase and stay below 2^31, so a bit per reference is enough. */
    private void born(final long reference)
    {
        newestReference = Math.max(newestReference, reference);
        liveReferences.set((int)reference);
        if (books.orderCount() == 1 || reference < oldestLive)
        {
            oldestLive = (int)reference;
        }
        final long spread = reference - oldestLive + 1;
        if (spread > peakSpread)
        {
            peakSpread = spread;
            peakSpreadAt = message;
        }
    }

    private void died(final long reference)
    {
        liveReferences.clear((int)reference);
        if (reference == oldestLive)
        {
            oldestLive = Math.max(0, liveReferences.nextSetBit(oldestLive));
        }
    }

    private void removedIfGone(final int result, final long reference)
    {
        event(result);
        if (applied(result) && books.lastRemaining() == 0)
        {
            died(reference);
        }
    }

    private void placed(final long reference)
    {
        born(reference);
        if (books.orderCount() > peakOrders)
        {
            peakOrders = books.orderCount();
            peakOrdersAt = message;
        }
        peakLevels = Math.max(peakLevels, books.levelCount());
        final int levels = books.levelCount(books.lastInstrument(), books.lastSide());
        if (levels > deepestSide)
        {
            deepestSide = levels;
            deepestInstrument = books.lastInstrument();
            deepestSideOf = books.lastSide();
        }
    }

    private boolean applied(final int result)
    {
        refused += result < 0 ? 1 : 0;
        return result >= 0;
    }

    @Override
    public void onAddOrder(final AddOrderFlyweight m)
    {
        add(m);
    }

    @Override
    public void onAddOrderMpid(final AddOrderMpidFlyweight m)
    {
        add(m);
    }

    @Override
    public void onOrderExecuted(final OrderExecutedFlyweight m)
    {
        looked(m.orderReference());
        removedIfGone(books.execute(m.orderReference(), m.executedShares()), m.orderReference());
    }

    @Override
    public void onOrderExecutedWithPrice(final OrderExecutedWithPriceFlyweight m)
    {
        looked(m.orderReference());
        removedIfGone(books.execute(m.orderReference(), m.executedShares()), m.orderReference());
    }

    @Override
    public void onOrderCancel(final OrderCancelFlyweight m)
    {
        looked(m.orderReference());
        removedIfGone(books.cancel(m.orderReference(), m.cancelledShares()), m.orderReference());
    }

    @Override
    public void onOrderDelete(final OrderDeleteFlyweight m)
    {
        looked(m.orderReference());
        final int result = books.delete(m.orderReference());
        event(result);
        if (applied(result))
        {
            died(m.orderReference());
        }
    }

    @Override
    public void onOrderReplace(final OrderReplaceFlyweight m)
    {
        looked(m.originalOrderReference());
        final int result = books.replace(m.originalOrderReference(), m.newOrderReference(), m.shares(), m.price());
        event(result);
        if (applied(result))
        {
            died(m.originalOrderReference());
            placed(m.newOrderReference());
        }
    }
}
