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
 * restore. Besides the books it keeps each price level's orders in a doubly linked list in time priority (an order
 * an ADD or a REPLACE puts on a level joins its tail, one that leaves the book is unlinked), which the books do not
 * expose, so that a snapshot lists one instrument's orders, level by level in time priority, in work proportional
 * to that instrument's orders: no sort, no pass over the other instruments' orders.
 * <p>
 * Memory: what the gateway's books of the same {@link BookContext} take (their order records cover the reference
 * window and the orders, 32 bytes each; levels 32 bytes; the overflow map), plus here 12 bytes per order record
 * (the links and the level) and 8 per level (head and tail): about 290 MB at the book defaults
 * (4,194,304-reference window, 1,048,576 orders, 262,144 levels: about 230 MB of it the books). Allocated at
 * construction; never afterwards.
 * <p>
 * Threading: the publisher's thread.
 */
final class OrderMirror
{
    static final int NONE = -1;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final byte ADD = (byte)EventType.ADD.value();
    private static final byte REPLACE = (byte)EventType.REPLACE.value();
    private static final byte SESSION = (byte)EventType.SESSION.value();
    private static final short UNKNOWN_ORDER = TickFlagsEncoder.unknownOrder((short)0, true);

    private final OrderBooks books;
    private final BookRestore restore;
    /** Per order record: the next and previous order of its level in time priority, and the level it is linked on. */
    private final int[] next;
    private final int[] previous;
    private final int[] levelOf;
    /** Per level: its oldest and newest order. */
    private final int[] head;
    private final int[] tail;
    private int liveCount;

    OrderMirror(final BookContext context)
    {
        books = new OrderBooks(context.conclude());
        restore = new BookRestore(new Normalizer(books, new ExchangeClock(LocalDate.EPOCH), (buffer, offset) -> { }, 1));
        final int records = context.referenceWindow() + context.maxOrders();
        next = new int[records];
        previous = new int[records];
        levelOf = new int[records];
        head = new int[books.maxLevels()];
        tail = new int[books.maxLevels()];
        Arrays.fill(head, NONE);
        Arrays.fill(tail, NONE);
    }

    OrderBooks books()
    {
        return books;
    }

    /**
     * Applies a published tick of an order event or a SESSION tick (other ticks do not change the books) through the
     * restore, and keeps the level queues in step: an order an ADD or a REPLACE put at the back of its level joins
     * its tail (not one whose reference was already live: the books refuse that one and keep the order they had),
     * an order an event took off the book is unlinked. Costs one or two extra look-ups by reference and, for an order
     * that joins or leaves, the records of its neighbours in the queue.
     */
    void apply(final DirectBuffer buffer, final int offset, final byte eventType)
    {
        if (eventType == SESSION)
        {
            restore.onTick(buffer, offset);
            Arrays.fill(head, NONE);
            Arrays.fill(tail, NONE);
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
            unlink(before);
        }
        if (queues)
        {
            final int order = books.order(queued);
            if (order != OrderBooks.NONE)
            {
                link(order, books.levelOfOrder(order));
            }
        }
    }

    private void link(final int order, final int level)
    {
        final int last = tail[level];
        levelOf[order] = level;
        previous[order] = last;
        next[order] = NONE;
        if (last == NONE)
        {
            head[level] = order;
        }
        else
        {
            next[last] = order;
        }
        tail[level] = order;
        liveCount++;
    }

    private void unlink(final int order)
    {
        final int level = levelOf[order];
        final int before = previous[order];
        final int after = next[order];
        if (before == NONE)
        {
            head[level] = after;
        }
        else
        {
            next[before] = after;
        }
        if (after == NONE)
        {
            tail[level] = before;
        }
        else
        {
            previous[after] = before;
        }
        liveCount--;
    }

    /** @return the level's oldest order (the first of its queue), or {@link #NONE}. */
    int firstOrder(final int level)
    {
        return head[level];
    }

    /** @return the order after {@code order} in its level's time priority, or {@link #NONE}. */
    int nextOrder(final int order)
    {
        return next[order];
    }

    /** @return live orders in the queues (the books' own count when every event was applied). */
    int liveOrders()
    {
        return liveCount;
    }
}
