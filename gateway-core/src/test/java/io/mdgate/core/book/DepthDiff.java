package io.mdgate.core.book;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.MutableDirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support, the reference for the depth contract (docs/TICK.md, {@code LEVEL}): keeps the last top D levels
 * per side of each instrument of an {@link OrderBooks}, read through its public depth API, and after an order
 * event gives the {@code LEVEL} ticks the contract requires by diffing the top D before and after: a level of the
 * new top D that is new there or whose size or order count changed (a level entering position D-1 included), and a
 * removal for each level that left the top D (left the book, or pushed from D-1 to D). Removals come first, then the
 * other levels best first, bids before asks. {@code depth} 0 gives none.
 * <p>
 * A removal's depth is where the level went when it is still in the book (D: pushed out), else the depth it left.
 * Meant for checking a normalizer's emission as well as for feeding a consumer's depth book. Not thread-safe.
 */
public final class DepthDiff
{
    /** One LEVEL tick's content. */
    public record Level(int instrument, char side, long price, long quantity, long orders, int depth)
    {
        /** Writes this level as a tick at the offset (64 bytes), with the given gateway sequence. */
        public void encode(final MutableDirectBuffer buffer, final int offset, final long gatewaySequence)
        {
            new TickEncoder().wrap(buffer, offset).gatewaySequence(gatewaySequence).instrumentId(instrument)
                .eventType(EventType.LEVEL).side(side == 'B' ? Side.BUY : Side.SELL).orderReference(depth)
                .matchOrNewReference(orders).quantity(quantity).price().mantissa((int)price);
        }
    }

    private final int depth;
    private final int instruments;
    private final long[][] prices;
    private final long[][] sizes;
    private final long[][] counts;
    private final int[] held;

    /**
     * @param depth       D, the levels published per side (0: none).
     * @param instruments instruments 0 .. instruments-1 are followed.
     */
    public DepthDiff(final int depth, final int instruments)
    {
        this.depth = depth;
        this.instruments = instruments;
        prices = new long[instruments * 2][depth];
        sizes = new long[instruments * 2][depth];
        counts = new long[instruments * 2][depth];
        held = new int[instruments * 2];
    }

    /** Forgets everything (the books were emptied, e.g. at a new session). */
    public void clear()
    {
        java.util.Arrays.fill(held, 0);
    }

    /** @return the LEVEL ticks for one instrument since the last call for it, and remembers its new top D. */
    public List<Level> diff(final OrderBooks books, final int instrument)
    {
        final List<Level> out = new ArrayList<>();
        if (depth == 0 || instrument < 0 || instrument >= instruments)
        {
            return out;
        }
        diff(books, instrument, BookSide.BID, out);
        diff(books, instrument, BookSide.ASK, out);
        return out;
    }

    private void diff(final OrderBooks books, final int instrument, final int side, final List<Level> out)
    {
        final int key = instrument * 2 + side;
        final char sideChar = BookSide.toChar(side);
        final int levels = Math.min(depth, books.levelCount(instrument, side));
        final long[] newPrices = new long[levels];
        final long[] newSizes = new long[levels];
        final long[] newCounts = new long[levels];
        for (int i = 0; i < levels; i++)
        {
            newPrices[i] = books.depthPrice(instrument, side, i);
            newSizes[i] = books.depthSize(instrument, side, i);
            newCounts[i] = books.depthOrderCount(instrument, side, i);
        }
        for (int i = 0; i < held[key]; i++)
        {
            if (indexOf(newPrices, levels, prices[key][i]) < 0)
            {
                final int now = depthInBook(books, instrument, side, prices[key][i]);
                out.add(new Level(instrument, sideChar, prices[key][i], 0, 0, now < 0 ? i : now));
            }
        }
        for (int i = 0; i < levels; i++)
        {
            final int was = indexOf(prices[key], held[key], newPrices[i]);
            if (was < 0 || sizes[key][was] != newSizes[i] || counts[key][was] != newCounts[i])
            {
                out.add(new Level(instrument, sideChar, newPrices[i], newSizes[i], newCounts[i], i));
            }
        }
        System.arraycopy(newPrices, 0, prices[key], 0, levels);
        System.arraycopy(newSizes, 0, sizes[key], 0, levels);
        System.arraycopy(newCounts, 0, counts[key], 0, levels);
        held[key] = levels;
    }

    private static int indexOf(final long[] prices, final int count, final long price)
    {
        for (int i = 0; i < count; i++)
        {
            if (prices[i] == price)
            {
                return i;
            }
        }
        return -1;
    }

    private static int depthInBook(final OrderBooks books, final int instrument, final int side, final long price)
    {
        for (int i = 0, n = books.levelCount(instrument, side); i < n; i++)
        {
            if (books.depthPrice(instrument, side, i) == price)
            {
                return i;
            }
        }
        return -1;
    }
}
