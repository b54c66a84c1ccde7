package io.mdgate.egress.publisher;

import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.protocol.DepthTableDescriptor;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.protocol.TopOfBookFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Builds the parts of late-join snapshots: one instrument's current state, as its view defines it, as ticks at one
 * gateway sequence (that instrument's S), into a caller's buffer. Per instrument, in this order:
 * <ol>
 *   <li>every view: its last {@code INSTRUMENT} and {@code TRADING_STATUS} ticks, as published;</li>
 *   <li>views taking order events (ORDERS, ALL), when the publisher keeps an {@link OrderMirror}: an {@code ADD}
 *       per live order (reference, side, shares, price; no attribution), bids best level first then asks, each
 *       level's orders in time priority, so books fed them queue the orders as the gateway's are;</li>
 *   <li>views taking LEVEL ticks (DEPTH, ALL), when the publisher keeps depth: a {@code LEVEL} tick per level of its
 *       top D per side (the live contract: depth, orders, price, shares), so a {@link DepthBook} fed them holds
 *       the gateway's top D;</li>
 *   <li>every view: a {@code TOP_OF_BOOK} tick per side (price null and size 0 for an empty side), once the
 *       instrument had one.</li>
 * </ol>
 * Every tick carries the part's gateway sequence and only the {@code snapshot} flag; its exchange timestamp is the
 * state's last change where the publisher keeps one (top of book, depth, the copied ticks), else 0; its receive
 * timestamp, exchange sequence and session are 0 (copied ticks keep theirs). An instrument with none of that state
 * gives no tick. The work of a part is proportional to its ticks (the mirror keeps each level's queue linked).
 * <p>
 * A directory entry ({@link #directoryEntry}) is the first of these alone, the {@code INSTRUMENT} tick, and only
 * when the current session gave it: a SESSION tick makes every name given before it stale, as locates are reused.
 * <p>
 * Threading: the publisher's thread. Allocation-free after construction.
 */
final class SnapshotBuilder
{
    static final int TOO_LARGE = -1;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int TICK = TickLayout.LENGTH;
    private static final byte INSTRUMENT = (byte)EventType.INSTRUMENT.value();
    private static final byte TRADING_STATUS = (byte)EventType.TRADING_STATUS.value();
    private static final byte ADD = (byte)EventType.ADD.value();
    private static final byte LEVEL = (byte)EventType.LEVEL.value();
    private static final byte TOP_OF_BOOK = (byte)EventType.TOP_OF_BOOK.value();
    private static final byte SESSION = (byte)EventType.SESSION.value();

    private final InstrumentRecords records;
    private final DepthRecords depth;
    private final OrderMirror mirror;
    private final int maxInstruments;
    /** The last INSTRUMENT tick (at 0) and TRADING_STATUS tick (at 64) of each instrument. */
    private final UnsafeBuffer lastTicks;
    private final byte[] kept;
    /** Instruments any tick has named, in the order they first appeared: the only ones a snapshot can describe. */
    private final int[] known;
    private final boolean[] isKnown;
    private int knownCount;
    /** SESSION ticks seen, and the count when each instrument's kept INSTRUMENT tick came: a directory's filter. */
    private int sessions;
    private final int[] namedInSession;
    private final TopOfBookFlyweight record = new TopOfBookFlyweight();
    private UnsafeBuffer ticks;
    private int capacity;
    private long sequence;
    private int count;

    SnapshotBuilder(final InstrumentRecords records, final DepthRecords depth, final OrderMirror mirror,
        final int maxInstruments)
    {
        this.records = records;
        this.depth = depth;
        this.mirror = mirror;
        this.maxInstruments = maxInstruments;
        this.lastTicks = new UnsafeBuffer(new byte[maxInstruments * 2 * TICK]);
        this.kept = new byte[maxInstruments];
        this.known = new int[maxInstruments];
        this.isKnown = new boolean[maxInstruments];
        this.namedInSession = new int[maxInstruments];
    }

    /** Keeps a published INSTRUMENT or TRADING_STATUS tick; feeds the mirror the ticks that change the books. */
    void onTick(final DirectBuffer buffer, final int offset, final int instrument, final byte eventType)
    {
        if (instrument < maxInstruments && !isKnown[instrument])
        {
            isKnown[instrument] = true;
            known[knownCount++] = instrument;
        }
        if (eventType == INSTRUMENT || eventType == TRADING_STATUS)
        {
            if (instrument > 0 && instrument < maxInstruments)
            {
                final int at = eventType == INSTRUMENT ? 0 : 1;
                lastTicks.putBytes((instrument * 2 + at) * TICK, buffer, offset, TICK);
                kept[instrument] |= (byte)(1 << at);
                namedInSession[instrument] = at == 0 ? sessions : namedInSession[instrument];
            }
            return;
        }
        if (eventType == SESSION)
        {
            sessions++; // a new session reuses locates: the directory forgets the names given before it
        }
        if (null != mirror && (SubscriptionView.classOf(eventType) == SubscriptionView.ORDER || eventType == SESSION))
        {
            mirror.apply(buffer, offset, eventType);
        }
    }

    /** @return instruments named so far (a snapshot walks the first ones, as many as there were when it began). */
    int knownCount()
    {
        return knownCount;
    }

    /** @return the instrument named {@code index}-th. */
    int known(final int index)
    {
        return known[index];
    }

    /** @return whether the instrument was named by a tick, so a snapshot can describe it. */
    boolean isKnown(final int instrument)
    {
        return instrument > 0 && instrument < maxInstruments && isKnown[instrument];
    }

    /**
     * Stages one instrument's directory entry: its last {@code INSTRUMENT} tick, at {@code entrySequence} with only
     * the {@code snapshot} flag, when the current session named it.
     *
     * @return ticks built (1, or 0 when the session has not named it), or {@link #TOO_LARGE} when there is no room.
     */
    int directoryEntry(final UnsafeBuffer out, final int at, final int limit, final int instrument,
        final long entrySequence)
    {
        if (!isKnown(instrument) || (kept[instrument] & 1) == 0 || namedInSession[instrument] != sessions)
        {
            return 0;
        }
        if (at == limit)
        {
            return TOO_LARGE;
        }
        ticks = out;
        capacity = limit;
        count = at;
        sequence = entrySequence;
        copy(instrument * 2);
        ticks = null;
        return 1;
    }

    /** @return whether a part of this view would lack the orders (a view of order events, no mirror kept). */
    boolean omitsOrders(final int mask)
    {
        return (mask & SubscriptionView.ORDER) != 0 && null == mirror;
    }

    /**
     * Builds one instrument's part at {@code partSequence} into {@code out} from tick {@code at}, within
     * {@code limit} ticks of it.
     *
     * @return ticks built (0: the instrument has no state), or {@link #TOO_LARGE} when they do not fit.
     */
    int part(final UnsafeBuffer out, final int at, final int limit, final int instrument, final int mask,
        final long partSequence)
    {
        ticks = out;
        capacity = limit;
        count = at;
        sequence = partSequence;
        final boolean fits = instrument(instrument, mask);
        ticks = null;
        return fits ? count - at : TOO_LARGE;
    }

    private boolean instrument(final int instrument, final int mask)
    {
        if ((kept[instrument] & 1) != 0 && !copy(instrument * 2))
        {
            return false;
        }
        if ((kept[instrument] & 2) != 0 && !copy(instrument * 2 + 1))
        {
            return false;
        }
        if ((mask & SubscriptionView.ORDER) != 0 && null != mirror && !orders(instrument))
        {
            return false;
        }
        if ((mask & SubscriptionView.LEVEL) != 0 && null != depth && !levels(instrument))
        {
            return false;
        }
        return topOfBook(instrument);
    }

    private boolean copy(final int index)
    {
        if (count == capacity)
        {
            return false;
        }
        final int at = count++ * TICK;
        ticks.putBytes(at, lastTicks, index * TICK, TICK);
        ticks.putLong(at + TickLayout.GATEWAY_SEQUENCE_OFFSET, sequence, LE);
        ticks.putShort(at + TickLayout.FLAGS_OFFSET, TickLayout.SNAPSHOT_FLAG, LE);
        return true;
    }

    private boolean orders(final int instrument)
    {
        final OrderBooks books = mirror.books();
        for (int side = 0; side < 2; side++)
        {
            final byte sideCode = (byte)(side == BookSide.BID ? 'B' : 'S');
            for (int d = 0, levels = books.levelCount(instrument, side); d < levels; d++)
            {
                final int level = books.levelAt(instrument, side, d);
                final int price = (int)books.priceOfLevel(level);
                for (int order = mirror.firstOrder(level); order != OrderMirror.NONE; order = mirror.nextOrder(order))
                {
                    if (!put(instrument, ADD, sideCode, books.referenceOfOrder(order), 0, price,
                        books.sharesOfOrder(order), 0))
                    {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private boolean levels(final int instrument)
    {
        final DepthBook book = depth.book(instrument);
        final long time = depth.region().buffer().getLong(depth.recordOffset(instrument) +
            DepthTableDescriptor.EXCHANGE_TIMESTAMP_OFFSET, LE);
        for (int side = DepthBook.BID; side <= DepthBook.ASK; side++)
        {
            final byte sideCode = (byte)(side == DepthBook.BID ? 'B' : 'S');
            for (int d = 0, levels = book.levels(side); d < levels; d++)
            {
                if (!put(instrument, LEVEL, sideCode, d, book.orders(side, d), book.price(side, d),
                    book.quantity(side, d), time))
                {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean topOfBook(final int instrument)
    {
        record.wrap(records.region().buffer(), records.recordOffset(instrument));
        if (record.gatewaySequence() == 0)
        {
            return true;
        }
        final long time = record.exchangeTimestamp();
        return put(instrument, TOP_OF_BOOK, (byte)'B', 0, record.bidOrders(), record.bidPrice(), record.bidSize(),
            time) &&
            put(instrument, TOP_OF_BOOK, (byte)'S', 0, record.askOrders(), record.askPrice(), record.askSize(), time);
    }

    private boolean put(final int instrument, final byte type, final byte side, final long reference,
        final long match, final int price, final long quantity, final long exchangeTime)
    {
        if (count == capacity)
        {
            return false;
        }
        final int at = count++ * TICK;
        ticks.setMemory(at, TICK, (byte)0);
        ticks.putLong(at + TickLayout.GATEWAY_SEQUENCE_OFFSET, sequence, LE);
        ticks.putLong(at + TickLayout.EXCHANGE_TIMESTAMP_OFFSET, exchangeTime, LE);
        ticks.putLong(at + TickLayout.ORDER_REFERENCE_OFFSET, reference, LE);
        ticks.putLong(at + TickLayout.MATCH_OR_NEW_REFERENCE_OFFSET, match, LE);
        ticks.putInt(at + TickLayout.PRICE_OFFSET, price, LE);
        ticks.putInt(at + TickLayout.QUANTITY_OFFSET, (int)Math.min(quantity, 0xFFFF_FFFEL), LE);
        ticks.putShort(at + TickLayout.INSTRUMENT_ID_OFFSET, (short)instrument, LE);
        ticks.putShort(at + TickLayout.FLAGS_OFFSET, TickLayout.SNAPSHOT_FLAG, LE);
        ticks.putByte(at + TickLayout.EVENT_TYPE_OFFSET, type);
        ticks.putByte(at + TickLayout.SIDE_OFFSET, side);
        return true;
    }
}
