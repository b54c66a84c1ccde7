package io.mdgate.core.depth;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The top {@link #depth() D} price levels per side of one instrument, kept from {@code LEVEL} ticks: a tick with
 * quantity above 0 sets (or inserts, in price order) its price's level, quantity 0 removes its price. Fed the
 * gateway's {@code LEVEL} ticks for the same D, it holds exactly the gateway's top D per side after every ITCH
 * message, with no truncation of its own. The book is a flyweight over a buffer in the layout below, so the same
 * bytes serve as the egress's depth table record; it owns a buffer when made with {@link #DepthBook(int)}.
 * <pre>
 *   0 bid levels held i32 | 4 ask levels held i32
 *   8 + 32 i        bid level i: price i32 (Price(4)) | shares u32 | orders u32 | (reserved) u32
 *   8 + 32 i + 16   ask level i: the same
 *   for i = 0 .. D (one level more than D, see below)
 * </pre>
 * Bids and asks alternate level by level, so the first {@code 8 + 32 (d + 1)} bytes of a book of depth D are a
 * valid book of any depth {@code d <= D}: a reader of depth d sees the top d levels (counts above its depth are
 * read as its depth). Little-endian.
 * <p>
 * The one level more than D tolerates the order of a message's {@code LEVEL} ticks: a new level inserted while D
 * levels are held pushes the worst into the spare place, where the message's removal finds it, so the book is
 * right after the message whether the removal of a level came before the new one or after it. The spare place is
 * never reported: {@link #levels(int)} is at most D.
 * <p>
 * Threading: not thread-safe; one thread applies and reads (a copy read under a seqlock is one such thread's).
 * Allocation-free after construction.
 */
public final class DepthBook
{
    public static final int BID = 0;
    public static final int ASK = 1;
    /** Result of {@link #apply}: the book changed. */
    public static final int CHANGED = 1;
    /** Result of {@link #apply}: a LEVEL the book already agreed with (e.g. removing a price it does not hold). */
    public static final int UNCHANGED = 0;
    /** Result of {@link #apply}: not a LEVEL tick, or one with no side or price; the book is untouched. */
    public static final int REFUSED = -1;
    /** Largest depth a book may have. */
    public static final int MAX_DEPTH = 64;
    /** Price of an empty level. */
    public static final int NULL_PRICE = Integer.MIN_VALUE;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int COUNTS = 0;
    private static final int LEVELS = 8;
    private static final int LEVEL_STRIDE = 32;
    private static final int SIDE_STRIDE = 16;
    private static final int PRICE = 0;
    private static final int SHARES = 4;
    private static final int ORDERS = 8;
    private static final byte LEVEL = (byte)EventType.LEVEL.value();
    private static final long MAX_U32 = 0xFFFF_FFFEL;

    private MutableDirectBuffer buffer;
    private int offset;
    private int depth;
    private int slots;

    /** A book of its own, empty, of depth {@code depth} (1 to {@value #MAX_DEPTH}). */
    public DepthBook(final int depth)
    {
        checkDepth(depth);
        wrap(new UnsafeBuffer(new byte[length(depth)]), 0, depth);
    }

    /** A flyweight, to be {@link #wrap wrapped} over a book's bytes before use. */
    public DepthBook()
    {
    }

    /** @return bytes of a book of depth {@code depth} (its spare level included). */
    public static int length(final int depth)
    {
        return LEVELS + LEVEL_STRIDE * (depth + 1);
    }

    /**
     * Points the book at the bytes at {@code offset}, read as a book of depth {@code depth} (a prefix of a deeper
     * book is one, see the class description). Leaves the bytes as they are: {@link #clear()} new ones.
     */
    public DepthBook wrap(final MutableDirectBuffer buffer, final int offset, final int depth)
    {
        checkDepth(depth);
        this.buffer = buffer;
        this.offset = offset;
        this.depth = depth;
        this.slots = depth + 1;
        return this;
    }

    private static void checkDepth(final int depth)
    {
        if (depth < 1 || depth > MAX_DEPTH)
        {
            throw new IllegalArgumentException("depth must be 1.." + MAX_DEPTH + ", was " + depth);
        }
    }

    /** @return the depth D: the most levels held per side. */
    public int depth()
    {
        return depth;
    }

    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    public int offset()
    {
        return offset;
    }

    /** Empties both sides. */
    public void clear()
    {
        buffer.setMemory(offset, length(depth), (byte)0);
    }

    /** @return price levels held on the side ({@link #BID} or {@link #ASK}), 0 to {@link #depth()}. */
    public int levels(final int side)
    {
        return Math.min(held(side), depth);
    }

    /** @return the Price(4) mantissa at depth {@code index} (0 = best), {@link #NULL_PRICE} beyond the levels. */
    public int price(final int side, final int index)
    {
        return index < levels(side) ? buffer.getInt(at(side, index) + PRICE, LE) : NULL_PRICE;
    }

    /** @return aggregate shares at depth {@code index}, 0 beyond the levels. */
    public long quantity(final int side, final int index)
    {
        return index < levels(side) ? buffer.getInt(at(side, index) + SHARES, LE) & 0xFFFF_FFFFL : 0;
    }

    /** @return orders at depth {@code index}, 0 beyond the levels. */
    public long orders(final int side, final int index)
    {
        return index < levels(side) ? buffer.getInt(at(side, index) + ORDERS, LE) & 0xFFFF_FFFFL : 0;
    }

    /**
     * Applies one tick if it is a {@code LEVEL} tick (of this book's instrument: the caller picks the book).
     *
     * @return {@link #CHANGED}, {@link #UNCHANGED} or {@link #REFUSED}.
     */
    public int apply(final DirectBuffer tick, final int tickOffset)
    {
        if (tick.getByte(tickOffset + TickEncoder.eventTypeEncodingOffset()) != LEVEL)
        {
            return REFUSED;
        }
        final byte sideCode = tick.getByte(tickOffset + TickEncoder.sideEncodingOffset());
        final int side = sideCode == 'B' ? BID : sideCode == 'S' ? ASK : -1;
        return apply(side, tick.getInt(tickOffset + TickEncoder.priceEncodingOffset(), LE),
            tick.getInt(tickOffset + TickEncoder.quantityEncodingOffset(), LE) & 0xFFFF_FFFFL,
            tick.getLong(tickOffset + TickEncoder.matchOrNewReferenceEncodingOffset(), LE));
    }

    /**
     * Sets the level at {@code price} to {@code quantity} shares in {@code orders} orders, or removes it when
     * {@code quantity} is 0.
     *
     * @return {@link #CHANGED}, {@link #UNCHANGED} or {@link #REFUSED} (no such side, or a null price).
     */
    public int apply(final int side, final int price, final long quantity, final long orders)
    {
        if ((side != BID && side != ASK) || price == NULL_PRICE)
        {
            return REFUSED;
        }
        final int held = held(side);
        final int index = place(side, price, held);
        final boolean present = index < held && buffer.getInt(at(side, index) + PRICE, LE) == price;
        if (quantity == 0)
        {
            return present ? remove(side, index, held) : UNCHANGED;
        }
        final int shares = (int)Math.min(quantity, MAX_U32);
        final int count = (int)Math.min(Math.max(orders, 0), MAX_U32);
        if (present)
        {
            final int level = at(side, index);
            if (buffer.getInt(level + SHARES, LE) == shares && buffer.getInt(level + ORDERS, LE) == count)
            {
                return UNCHANGED;
            }
            put(level, price, shares, count);
            return CHANGED;
        }
        return insert(side, index, held, price, shares, count);
    }

    /** @return the index of the first level held whose price is not better than {@code price}. */
    private int place(final int side, final int price, final int held)
    {
        int index = 0;
        while (index < held)
        {
            final int levelPrice = buffer.getInt(at(side, index) + PRICE, LE);
            if (side == BID ? levelPrice <= price : levelPrice >= price)
            {
                break;
            }
            index++;
        }
        return index;
    }

    private int insert(final int side, final int index, final int held, final int price, final int shares,
        final int orders)
    {
        if (index >= slots)
        {
            return UNCHANGED; // worse than every level the book can hold
        }
        final int kept = Math.min(held, slots - 1);
        for (int i = kept; i > index; i--)
        {
            copyLevel(at(side, i - 1), at(side, i));
        }
        put(at(side, index), price, shares, orders);
        held(side, kept + 1);
        return CHANGED;
    }

    private int remove(final int side, final int index, final int held)
    {
        for (int i = index; i < held - 1; i++)
        {
            copyLevel(at(side, i + 1), at(side, i));
        }
        put(at(side, held - 1), 0, 0, 0);
        held(side, held - 1);
        return CHANGED;
    }

    private void put(final int level, final int price, final int shares, final int orders)
    {
        buffer.putInt(level + PRICE, price, LE);
        buffer.putInt(level + SHARES, shares, LE);
        buffer.putInt(level + ORDERS, orders, LE);
    }

    private void copyLevel(final int from, final int to)
    {
        buffer.putLong(to, buffer.getLong(from, LE), LE);
        buffer.putLong(to + 8, buffer.getLong(from + 8, LE), LE);
    }

    private int held(final int side)
    {
        final int held = buffer.getInt(offset + COUNTS + side * 4, LE);
        return held < 0 ? 0 : Math.min(held, slots);
    }

    private void held(final int side, final int held)
    {
        buffer.putInt(offset + COUNTS + side * 4, held, LE);
    }

    private int at(final int side, final int index)
    {
        return offset + LEVELS + index * LEVEL_STRIDE + side * SIDE_STRIDE;
    }

    /** Copies this book into {@code other} (of any depth): its top levels, as many as {@code other} holds. */
    public void copyTo(final DepthBook other)
    {
        other.clear();
        for (int side = BID; side <= ASK; side++)
        {
            for (int i = 0, n = levels(side); i < n; i++)
            {
                other.apply(side, price(side, i), quantity(side, i), orders(side, i));
            }
        }
    }

    /** @return the levels as text, e.g. {@code bids [100.0000 x 300 (2)] asks []}, for tests and logs. */
    @Override
    public String toString()
    {
        if (null == buffer)
        {
            return "DepthBook (unwrapped)";
        }
        final StringBuilder out = new StringBuilder(64);
        for (int side = BID; side <= ASK; side++)
        {
            out.append(side == BID ? "bids [" : "] asks [");
            for (int i = 0, n = levels(side); i < n; i++)
            {
                out.append(i == 0 ? "" : ", ").append(io.mdgate.core.tick.TickJson.price(price(side, i),
                    new StringBuilder()).toString().replace("\"", "")).append(" x ").append(quantity(side, i))
                    .append(" (").append(orders(side, i)).append(')');
            }
        }
        return out.append(']').toString();
    }
}
