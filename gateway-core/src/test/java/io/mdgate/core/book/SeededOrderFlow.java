package io.mdgate.core.book;

import io.mdgate.core.itch.Alpha;
import org.agrona.MutableDirectBuffer;

import java.util.Random;

/**
 * Test support: an endless, seeded ITCH 5.0 message flow for a few instruments that exercises every book rule.
 * It opens with a System Event and a Stock Directory per instrument, then mostly adds, deletes, executions,
 * cancels and replaces against the orders it knows are live (partial and full, some larger than the order),
 * with a sprinkling of unknown references, duplicate adds and every other message type. Now and then an order
 * crosses the book for a few messages before the flow deletes it.
 * Same seed, same messages. {@link #next(MutableDirectBuffer, int)} follows the simulator generator's contract.
 */
public final class SeededOrderFlow
{
    private static final long TICK = 100;
    private static final long START_MID = 1_000_000;
    private static final long UNKNOWN_REFERENCE_BASE = 1L << 60;
    private static final byte[] RARE_TYPES = { 'Q', 'B', 'I', 'N', 'H', 'Y', 'L', 'h', 'K', 'J', 'O', 'V', 'W', 'S' };

    private final long seed;
    private final Random random;
    private final int instruments;
    private final long[] symbols;
    private final long[] mids;
    private final long[] liveReference;
    private final int[] liveInstrument;
    private final long[] liveShares;
    private final char[] liveSide;
    private final long[] livePrice;
    private ItchMessageWriter writer;
    private MutableDirectBuffer writerBuffer;
    private int live;
    private long nextReference = 1;
    private long crossingReference;
    private long nextMatch = 1;
    private long timestamp = 34_200_000_000_000L;
    private int directoryWritten = -1;
    private long messages;

    /**
     * @param seed          of the random flow.
     * @param instruments   stock locates 1..instruments are used.
     * @param maxLiveOrders the flow deletes instead of adding once this many orders are live.
     */
    public SeededOrderFlow(final long seed, final int instruments, final int maxLiveOrders)
    {
        this.seed = seed;
        this.random = new Random(seed);
        this.instruments = instruments;
        this.symbols = new long[instruments + 1];
        this.mids = new long[instruments + 1];
        for (int i = 1; i <= instruments; i++)
        {
            symbols[i] = Alpha.pack8("SYM" + i);
            mids[i] = START_MID + TICK * random.nextInt(1000);
        }
        liveReference = new long[maxLiveOrders];
        liveInstrument = new int[maxLiveOrders];
        liveShares = new long[maxLiveOrders];
        liveSide = new char[maxLiveOrders];
        livePrice = new long[maxLiveOrders];
    }

    public long seed()
    {
        return seed;
    }

    public long messagesGenerated()
    {
        return messages;
    }

    /** @return orders the flow believes are live. */
    public int liveOrders()
    {
        return live;
    }

    /**
     * Writes the next message at the offset.
     *
     * @return its length; never 0, the flow does not end.
     */
    public int next(final MutableDirectBuffer buffer, final int offset)
    {
        if (writerBuffer != buffer)
        {
            writer = new ItchMessageWriter(buffer);
            writerBuffer = buffer;
        }
        messages++;
        timestamp += 1 + random.nextInt(20_000);
        if (directoryWritten < instruments)
        {
            return opening(offset);
        }
        if (crossingReference != 0 && random.nextInt(4) == 0)
        {
            final int index = indexOf(crossingReference);
            crossingReference = 0;
            if (index >= 0)
            {
                return delete(offset, index);
            }
        }
        final int roll = random.nextInt(1000);
        if (live == 0 || (roll < 400 && live < liveReference.length))
        {
            return add(offset);
        }
        if (roll < 600 || live >= liveReference.length)
        {
            return delete(offset);
        }
        if (roll < 700)
        {
            return execute(offset, roll < 680);
        }
        if (roll < 780)
        {
            return cancel(offset);
        }
        if (roll < 880)
        {
            return replace(offset);
        }
        if (roll < 920)
        {
            final int instrument = instrument();
            return writer.trade(offset, instrument, timestamp, 0, side(), shares(), symbols[instrument],
                price(instrument, 'B'), nextMatch++);
        }
        if (roll < 926)
        {
            return unknownReference(offset);
        }
        if (roll < 928)
        {
            final int index = random.nextInt(live);
            return writer.addOrder(offset, liveInstrument[index], timestamp, liveReference[index], side(), shares(),
                symbols[liveInstrument[index]], price(liveInstrument[index], 'S'));
        }
        if (roll < 945)
        {
            return rare(offset, RARE_TYPES[random.nextInt(RARE_TYPES.length)]);
        }
        return live < liveReference.length ? add(offset) : delete(offset);
    }

    private int opening(final int offset)
    {
        if (directoryWritten < 0)
        {
            directoryWritten = 0;
            return writer.systemEvent(offset, timestamp, 'O');
        }
        directoryWritten++;
        return writer.stockDirectory(offset, directoryWritten, timestamp, symbols[directoryWritten], 100);
    }

    private int add(final int offset)
    {
        final int instrument = instrument();
        final char side = side();
        final long shares = shares();
        final long reference = nextReference++;
        final long price;
        if (crossingReference == 0 && random.nextInt(200) == 0)
        {
            crossingReference = reference;
            price = side == 'B' ? mids[instrument] + TICK * (1 + random.nextInt(3)) :
                mids[instrument] - TICK * random.nextInt(3);
        }
        else
        {
            price = price(instrument, side);
        }
        track(reference, instrument, side, shares, price);
        if (random.nextInt(10) == 0)
        {
            return writer.addOrderMpid(offset, instrument, timestamp, reference, side, shares, symbols[instrument],
                price, Alpha.pack4("MPID"));
        }
        return writer.addOrder(offset, instrument, timestamp, reference, side, shares, symbols[instrument], price);
    }

    private int delete(final int offset)
    {
        return delete(offset, random.nextInt(live));
    }

    private int delete(final int offset, final int index)
    {
        final int instrument = liveInstrument[index];
        final long reference = liveReference[index];
        untrack(index);
        return writer.delete(offset, instrument, timestamp, reference);
    }

    private int execute(final int offset, final boolean withoutPrice)
    {
        final int index = random.nextInt(live);
        final int instrument = liveInstrument[index];
        final long reference = liveReference[index];
        final long shares = takeShares(index, 30);
        if (withoutPrice)
        {
            return writer.executed(offset, instrument, timestamp, reference, shares, nextMatch++);
        }
        return writer.executedWithPrice(offset, instrument, timestamp, reference, shares, nextMatch++,
            random.nextInt(5) == 0 ? 'N' : 'Y', price(instrument, 'B'));
    }

    private int cancel(final int offset)
    {
        final int index = random.nextInt(live);
        final int instrument = liveInstrument[index];
        final long reference = liveReference[index];
        final long shares = takeShares(index, 10);
        return writer.cancel(offset, instrument, timestamp, reference, shares);
    }

    private int replace(final int offset)
    {
        final int index = random.nextInt(live);
        final int instrument = liveInstrument[index];
        final long original = liveReference[index];
        final long price = random.nextInt(5) == 0 ? livePrice[index] : price(instrument, liveSide[index]);
        final long shares = shares();
        final long reference = nextReference++;
        liveReference[index] = reference;
        liveShares[index] = shares;
        livePrice[index] = price;
        return writer.replace(offset, instrument, timestamp, original, reference, shares, price);
    }

    private int unknownReference(final int offset)
    {
        final int instrument = instrument();
        final long reference = UNKNOWN_REFERENCE_BASE + random.nextInt(1_000_000);
        switch (random.nextInt(5))
        {
            case 0:
                return writer.executed(offset, instrument, timestamp, reference, shares(), nextMatch++);
            case 1:
                return writer.executedWithPrice(offset, instrument, timestamp, reference, shares(), nextMatch++, 'Y',
                    price(instrument, 'B'));
            case 2:
                return writer.cancel(offset, instrument, timestamp, reference, shares());
            case 3:
                return writer.delete(offset, instrument, timestamp, reference);
            default:
                return writer.replace(offset, instrument, timestamp, reference, nextReference++, shares(),
                    price(instrument, side()));
        }
    }

    private int rare(final int offset, final byte type)
    {
        final int instrument = instrument();
        final long stock = symbols[instrument];
        final long mid = mids[instrument];
        switch (type)
        {
            case 'Q':
                return writer.crossTrade(offset, instrument, timestamp, shares() * 10, stock, mid, nextMatch++, 'O');
            case 'B':
                return writer.brokenTrade(offset, instrument, timestamp, Math.max(1, nextMatch - 1));
            case 'I':
                return writer.noii(offset, instrument, timestamp, stock, shares() * 3, shares(), 'B', mid + TICK,
                    mid - TICK, mid, 'C', 'L');
            case 'N':
                return writer.retail(offset, instrument, timestamp, stock, 'B');
            case 'H':
                return writer.tradingAction(offset, instrument, timestamp, stock, random.nextBoolean() ? 'H' : 'T',
                    Alpha.pack4("MWCB"));
            case 'Y':
                return writer.regSho(offset, instrument, timestamp, stock, '1');
            case 'L':
                return writer.participant(offset, instrument, timestamp, Alpha.pack4("MMKR"), stock, 'Y', 'N', 'A');
            case 'h':
                return writer.operationalHalt(offset, instrument, timestamp, stock, 'Q', 'H');
            case 'K':
                return writer.ipo(offset, instrument, timestamp, stock, 36_000, 'A', mid);
            case 'J':
                return writer.luld(offset, instrument, timestamp, stock, mid, mid + 10 * TICK, mid - 10 * TICK, 1);
            case 'O':
                return writer.directListing(offset, instrument, timestamp, stock, 'Y', mid - TICK, mid + TICK, mid,
                    timestamp, mid - 2 * TICK, mid + 2 * TICK);
            case 'V':
                return writer.mwcbLevel(offset, timestamp, 400_000_000_000L, 370_000_000_000L, 330_000_000_000L);
            case 'W':
                return writer.mwcbStatus(offset, timestamp, '1');
            default:
                return writer.systemEvent(offset, timestamp, 'Q');
        }
    }

    /** Picks how many shares an execution or cancel takes; drops the order from tracking when none remain. */
    private long takeShares(final int index, final int percentFull)
    {
        final long remaining = liveShares[index];
        final int roll = random.nextInt(100);
        final long shares;
        if (roll < 3)
        {
            shares = remaining + 1 + random.nextInt(100);
        }
        else if (roll < 3 + percentFull || remaining == 1)
        {
            shares = remaining;
        }
        else
        {
            shares = 1 + random.nextInt((int)Math.min(Integer.MAX_VALUE, remaining - 1));
        }
        if (shares >= remaining)
        {
            untrack(index);
        }
        else
        {
            liveShares[index] = remaining - shares;
        }
        return shares;
    }

    private int indexOf(final long reference)
    {
        for (int i = 0; i < live; i++)
        {
            if (liveReference[i] == reference)
            {
                return i;
            }
        }
        return -1;
    }

    /** @return a price on the side's own half of the book, mostly close to the top. */
    private long price(final int instrument, final char side)
    {
        final long mid = mids[instrument];
        final int away = Math.min(random.nextInt(8), random.nextInt(40));
        return side == 'B' ? mid - TICK * away : mid + TICK * (1 + away);
    }

    private int instrument()
    {
        return 1 + random.nextInt(instruments);
    }

    private char side()
    {
        return random.nextBoolean() ? 'B' : 'S';
    }

    private long shares()
    {
        return 100L * (1 + random.nextInt(10)) + (random.nextInt(4) == 0 ? random.nextInt(100) : 0);
    }

    private void track(final long reference, final int instrument, final char side, final long shares,
        final long price)
    {
        livePrice[live] = price;
        liveReference[live] = reference;
        liveInstrument[live] = instrument;
        liveSide[live] = side;
        liveShares[live] = shares;
        live++;
    }

    private void untrack(final int index)
    {
        live--;
        liveReference[index] = liveReference[live];
        liveInstrument[index] = liveInstrument[live];
        liveSide[index] = liveSide[live];
        liveShares[index] = liveShares[live];
        livePrice[index] = livePrice[live];
    }
}
