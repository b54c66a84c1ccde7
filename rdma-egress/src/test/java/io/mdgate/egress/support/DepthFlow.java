package io.mdgate.egress.support;

import io.mdgate.core.book.BookApplier;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.DepthDiff;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.book.SeededOrderFlow;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.TopOfBookReader;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Test support: the LEVEL ticks of a seeded order flow, published message by message through a {@link PublisherBed},
 * with two references computed from the same flow: a {@link DepthBook} per instrument fed the ticks sent, and the
 * order books the flow built, read level by level. A consumer's depth table, read after the ticks of a message have
 * reached it, must hold the top levels of both. One test thread.
 */
public final class DepthFlow
{
    private final PublisherBed bed;
    private final int instruments;
    private final SeededOrderFlow flow;
    private final OrderBooks books = new OrderBooks(new BookContext().maxOrders(2048).maxLevels(2048)
        .maxInstruments(16));
    private final BookApplier applier = new BookApplier(books);
    private final DepthDiff diff;
    private final ItchMessageDecoder decoder = new ItchMessageDecoder();
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
    private final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
    private final DepthBook[] reference;
    private final long[] lastChange;
    private final DepthBook view = new DepthBook();
    private long sequence;

    /**
     * @param depth         levels per side the publisher keeps (its {@code depthLevels}).
     * @param maxLiveOrders the flow deletes instead of adding once this many orders are live.
     */
    public DepthFlow(final PublisherBed bed, final long seed, final int instruments, final int depth,
        final int maxLiveOrders)
    {
        this.bed = bed;
        this.instruments = instruments;
        this.flow = new SeededOrderFlow(seed, instruments, maxLiveOrders);
        this.diff = new DepthDiff(depth, instruments + 1);
        this.reference = new DepthBook[instruments + 1];
        this.lastChange = new long[instruments + 1];
        for (int i = 1; i <= instruments; i++)
        {
            reference[i] = new DepthBook(depth);
        }
    }

    /**
     * Publishes the LEVEL ticks of the flow's next {@code messages} messages.
     *
     * @return the last sequence published so far.
     */
    public long publish(final int messages)
    {
        for (int m = 0; m < messages; m++)
        {
            decoder.decode(message, 0, flow.next(message, 0), applier);
            for (int instrument = 1; instrument <= instruments; instrument++)
            {
                for (final DepthDiff.Level level : diff.diff(books, instrument))
                {
                    level.encode(tick, 0, ++sequence);
                    if (reference[instrument].apply(tick, 0) == DepthBook.CHANGED)
                    {
                        lastChange[instrument] = sequence;
                    }
                    bed.publish(tick);
                }
            }
        }
        return sequence;
    }

    /** @return the last sequence published or taken so far. */
    public long sequence()
    {
        return sequence;
    }

    /** @return the next gateway sequence, taken: for a tick of the caller's own after the flow's. */
    public long nextSequence()
    {
        return ++sequence;
    }

    /** @return the sequence of the last tick that changed {@code instrument}'s depth (0: none yet). */
    public long lastChange(final int instrument)
    {
        return lastChange[instrument];
    }

    /** @return whether every instrument's slot in {@code consumer}'s table is at its last change's sequence. */
    public boolean tableCaughtUp(final EgressConsumer consumer)
    {
        for (int instrument = 1; instrument <= instruments; instrument++)
        {
            final int read = consumer.depth(instrument, view);
            final boolean atLastChange = read == TopOfBookReader.READ && consumer.depthSequence() ==
                lastChange[instrument];
            if (!atLastChange && !(lastChange[instrument] == 0 && read == TopOfBookReader.EMPTY))
            {
                return false;
            }
        }
        return true;
    }

    /** @return what {@code consumer}'s table holds against the references, to say why a wait timed out. */
    public String describeTable(final EgressConsumer consumer)
    {
        final StringBuilder out = new StringBuilder("delivered up to ").append(consumer.lastDeliveredSequence());
        for (int instrument = 1; instrument <= instruments; instrument++)
        {
            final int read = consumer.depth(instrument, view);
            out.append("; instrument ").append(instrument).append(": read ").append(read).append(" at ")
                .append(consumer.depthSequence()).append(", last change ").append(lastChange[instrument])
                .append(", table ").append(read == TopOfBookReader.READ ? view.toString() : "-")
                .append(", reference ").append(reference[instrument]);
        }
        return out.toString();
    }

    /**
     * Asserts that every instrument's slot of {@code consumer}'s depth table reads whole, is at the sequence of the
     * instrument's last change and holds exactly the top {@code levels} of each side of the reference depth and of
     * the order books; the slot of an instrument whose depth never changed may be still unwritten.
     */
    public void assertTableHoldsTheReference(final EgressConsumer consumer, final int levels, final String when)
    {
        for (int instrument = 1; instrument <= instruments; instrument++)
        {
            final String which = when + ", instrument " + instrument;
            final int read = consumer.depth(instrument, view);
            if (lastChange[instrument] == 0 && read == TopOfBookReader.EMPTY)
            {
                continue;
            }
            assertEquals(TopOfBookReader.READ, read, which);
            assertEquals(levels, view.depth(), which);
            assertEquals(lastChange[instrument], consumer.depthSequence(), which + ": the last change's sequence");
            for (int side = DepthBook.BID; side <= DepthBook.ASK; side++)
            {
                assertSideEquals(instrument, side, levels, which + " side " + side + ": " + view + " vs " +
                    reference[instrument]);
            }
        }
    }

    private void assertSideEquals(final int instrument, final int side, final int levels, final String where)
    {
        final DepthBook expected = reference[instrument];
        final int bookSide = side == DepthBook.BID ? 0 : 1;
        assertEquals(Math.min(levels, expected.levels(side)), view.levels(side), where);
        assertEquals(Math.min(levels, books.levelCount(instrument, bookSide)), view.levels(side),
            where + ": levels of the order books");
        for (int i = 0; i < view.levels(side); i++)
        {
            assertEquals(expected.price(side, i), view.price(side, i), where);
            assertEquals(expected.quantity(side, i), view.quantity(side, i), where);
            assertEquals(expected.orders(side, i), view.orders(side, i), where);
            final int level = books.levelAt(instrument, bookSide, i);
            assertEquals(books.priceOfLevel(level), view.price(side, i), where + ": order books' price at " + i);
            assertEquals(books.sizeOfLevel(level), view.quantity(side, i), where + ": order books' size at " + i);
            assertEquals(books.orderCountOfLevel(level), view.orders(side, i), where + ": order books' count at " + i);
        }
    }
}
