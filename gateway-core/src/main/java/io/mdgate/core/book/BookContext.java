package io.mdgate.core.book;

/**
 * Capacities of {@link OrderBooks}, with defaults, validated once by {@link #conclude()} before any pool is
 * allocated. Every pool is sized from these numbers at start-up and never grows: running out is a counted error
 * with a return code on the hot path.
 * <p>
 * Memory, with power-of-two capacities: 48 bytes per order (record plus index), 64 bytes per level, and about 50
 * bytes per instrument (the defaults take about 70 MB).
 * <p>
 * Threading: configure on one thread before constructing the books; not for use afterwards.
 */
public final class BookContext
{
    /** Default most live orders across all instruments. */
    public static final int DEFAULT_MAX_ORDERS = 1 << 20;
    /** Default most live price levels across all instruments and sides. */
    public static final int DEFAULT_MAX_LEVELS = 1 << 18;
    /** Default number of instruments: every ITCH stock locate. */
    public static final int DEFAULT_MAX_INSTRUMENTS = 1 << 16;

    /** Upper bound of the order and level capacities (the index maps hold twice as many slots). */
    public static final int MAX_CAPACITY = 1 << 29;
    /** ITCH stock locates are u16, so there are at most 65,536 instruments. */
    public static final int MAX_INSTRUMENTS = 1 << 16;

    private int maxOrders = DEFAULT_MAX_ORDERS;
    private int maxLevels = DEFAULT_MAX_LEVELS;
    private int maxInstruments = DEFAULT_MAX_INSTRUMENTS;

    public int maxOrders()
    {
        return maxOrders;
    }

    /** @param maxOrders live orders the books can hold at once, across all instruments. */
    public BookContext maxOrders(final int maxOrders)
    {
        this.maxOrders = maxOrders;
        return this;
    }

    public int maxLevels()
    {
        return maxLevels;
    }

    /** @param maxLevels non-empty price levels the books can hold at once, across all instruments and sides. */
    public BookContext maxLevels(final int maxLevels)
    {
        this.maxLevels = maxLevels;
        return this;
    }

    public int maxInstruments()
    {
        return maxInstruments;
    }

    /** @param maxInstruments stock locates 0 to maxInstruments - 1 get a book; higher ones are refused. */
    public BookContext maxInstruments(final int maxInstruments)
    {
        this.maxInstruments = maxInstruments;
        return this;
    }

    /**
     * Checks every setting; called by {@link OrderBooks} before allocating.
     *
     * @return this.
     * @throws IllegalArgumentException naming the setting that is out of range and the range it must be in.
     */
    public BookContext conclude()
    {
        check("maxOrders", maxOrders, MAX_CAPACITY);
        check("maxLevels", maxLevels, MAX_CAPACITY);
        check("maxInstruments", maxInstruments, MAX_INSTRUMENTS);
        return this;
    }

    private static void check(final String name, final int value, final int max)
    {
        if (value < 1 || value > max)
        {
            throw new IllegalArgumentException(name + " must be between 1 and " + max + ", was " + value);
        }
    }

    @Override
    public String toString()
    {
        return "BookContext{maxOrders=" + maxOrders + ", maxLevels=" + maxLevels +
            ", maxInstruments=" + maxInstruments + '}';
    }
}
