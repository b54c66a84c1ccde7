package io.mdgate.egress.publisher;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * The publisher's copy of the gateway's order books, kept from the order-event ticks it publishes, for the
 * order-level part of late-join snapshots. Ticks are applied exactly as {@link BookRestore} applies a journal
 * (ADD, EXECUTE, EXECUTE_WITH_PRICE, CANCEL, DELETE, REPLACE; {@code unknownOrder} events skipped; a SESSION tick
 * empties the books): the books sit behind a {@link Normalizer} that never normalizes and exists only for the
 * restore. Besides the books it stamps each order with its arrival (ADD, or the new order of a REPLACE), which the
 * books do not expose, so that a snapshot can list each level's orders in time priority after one pass over the
 * live orders instead of one scan of every order per level.
 * <p>
 * Memory: what the gateway's books of the same {@link BookContext} take (their order records cover the reference
 * window and the orders, 32 bytes each; levels 32 bytes; the overflow map), plus here 8 bytes per order record
 * (arrival, place in the live list), 16 per order and 8 per level (the live list, the snapshot's sort and
 * buckets): about 290 MB at the book defaults
 * (4,194,304-reference window, 1,048,576 orders, 262,144 levels: about 230 MB of it the books). Allocated at
 * construction; never afterwards.
 * <p>
 * Threading: the publisher's thread.
 */
final class OrderMirror
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final byte ADD = (byte)EventType.ADD.value();
    private static final byte REPLACE = (byte)EventType.REPLACE.value();
    private static final byte SESSION = (byte)EventType.SESSION.value();
    /** Order handles are below referenceWindow + maxOrders, at most 2^27 + 2^28. */
    private static final int ORDER_SHIFT = 29;
    private static final long ORDER_MASK = (1L << ORDER_SHIFT) - 1;
    private static final short UNKNOWN_ORDER = TickFlagsEncoder.unknownOrder((short)0, true);

    private final OrderBooks books;
    private final BookRestore restore;
    /** Arrival number per order record, wrapping: live orders of one day are never 2^31 adds apart. */
    private final int[] arrival;
    private final long[] sortKeys;
    private final int[] bucketStart;
    private final int[] bucketFill;
    private final int[] bucketed;
    private int nextArrival;
    /** The live orders (handles), in no order, and where each sits in that list. */
    private final int[] live;
    private final int[] positionOf;
    private int liveCount;
    private int collected;

    OrderMirror(final BookContext context)
    {
        books = new OrderBooks(context.conclude());
        restore = new BookRestore(new Normalizer(books, new ExchangeClock(LocalDate.EPOCH), (buffer, offset) -> { }, 1));
        arrival = new int[context.referenceWindow() + context.maxOrders()];
        positionOf = new int[context.referenceWindow() + context.maxOrders()];
        live = new int[context.maxOrders()];
        sortKeys = new long[books.maxOrders()];
        bucketed = new int[books.maxOrders()];
        bucketStart = new int[books.maxLevels() + 1];
        bucketFill = new int[books.maxLevels()];
    }

    OrderBooks books()
    {
        return books;
    }

    /**
     * Applies a published tick of an order event or a SESSION tick (other ticks do not change the books) through the
     * restore, and keeps the list of live orders and their arrival in step: an order an ADD or a REPLACE put at the
     * back of its level joins it (not one whose reference was already live: the books refuse that one and keep the
     * order they had), an order an event took off the book leaves it. Costs one or two extra look-ups by reference.
     */
    void apply(final DirectBuffer buffer, final int offset, final byte eventType)
    {
        if (eventType == SESSION)
        {
            restore.onTick(buffer, offset);
            liveCount = 0;
            return;
        }
        if ((buffer.getShort(offset + TickLayout.FLAGS_OFFSET, LE) & UNKNOWN_ORDER) != 0)
        {
            restore.onTick(buffer, offset); // counted by the restore, changes nothing
            return;
        }
        final long reference = buffer.getLong(offset + TickLayout.ORDER_REFERENCE_OFFSET, LE);
        final int before = books.order(reference);
        long queued = 0;
        boolean queues = false;
        if (eventType == ADD)
        {
            queued = reference;
            queues = before == OrderBooks.NONE;
        }
        else if (eventType == REPLACE)
        {
            queued = buffer.getLong(offset + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET, LE);
            queues = books.order(queued) == OrderBooks.NONE;
        }
        restore.onTick(buffer, offset);
        if (eventType != ADD && before != OrderBooks.NONE && books.order(reference) == OrderBooks.NONE)
        {
            removeLive(before);
        }
        if (queues)
        {
            final int order = books.order(queued);
            if (order != OrderBooks.NONE)
            {
                arrival[order] = ++nextArrival;
                positionOf[order] = liveCount;
                live[liveCount++] = order;
            }
        }
    }

    private void removeLive(final int order)
    {
        final int at = positionOf[order];
        final int last = live[--liveCount];
        live[at] = last;
        positionOf[last] = at;
    }

    /**
     * Groups the live orders of the instruments {@code wanted} marks by level, each level's orders in time priority:
     * one pass over the live orders, a sort by arrival, and a stable bucketing by level. Afterwards
     * {@link #firstOfLevel} .. {@link #endOfLevel} index a level's orders in {@link #groupedOrder}. O(orders log orders), whatever the number of instruments.
     *
     * @return orders grouped.
     */
    int group(final boolean[] wanted)
    {
        int count = 0;
        boolean first = true;
        int origin = 0;
        for (int i = 0; i < liveCount; i++)
        {
            final int order = live[i];
            final int instrument = books.instrumentOfOrder(order);
            if (instrument < wanted.length && wanted[instrument])
            {
                if (first)
                {
                    origin = arrival[order];
                    first = false;
                }
                final long relative = (long)(arrival[order] - origin) + Integer.MAX_VALUE + 1L;
                sortKeys[count++] = relative << ORDER_SHIFT | order;
            }
        }
        Arrays.sort(sortKeys, 0, count);
        final int levels = books.maxLevels();
        Arrays.fill(bucketStart, 0, levels + 1, 0);
        for (int i = 0; i < count; i++)
        {
            bucketStart[books.levelOfOrder((int)(sortKeys[i] & ORDER_MASK)) + 1]++;
        }
        for (int level = 0; level < levels; level++)
        {
            bucketStart[level + 1] += bucketStart[level];
        }
        System.arraycopy(bucketStart, 0, bucketFill, 0, levels);
        for (int i = 0; i < count; i++)
        {
            final int order = (int)(sortKeys[i] & ORDER_MASK);
            bucketed[bucketFill[books.levelOfOrder(order)]++] = order;
        }
        collected = count;
        return count;
    }

    /** @return where the level's orders start in {@link #groupedOrder}, after {@link #group}. */
    int firstOfLevel(final int level)
    {
        return bucketStart[level];
    }

    /** @return where the level's orders end (exclusive) in {@link #groupedOrder}. */
    int endOfLevel(final int level)
    {
        return bucketStart[level + 1];
    }

    /** @return the order handle at {@code index} of the grouping. */
    int groupedOrder(final int index)
    {
        return bucketed[index];
    }

    int collected()
    {
        return collected;
    }

    /** @return live orders in the list (the books' own count when every event was applied). */
    int liveOrders()
    {
        return liveCount;
    }
}
