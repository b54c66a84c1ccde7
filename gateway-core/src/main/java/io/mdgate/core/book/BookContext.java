package io.mdgate.core.book;

/**
 * Capacities of {@link OrderBooks}, with defaults, validated once by {@link #conclude()} before any pool is
 * allocated. Every pool is sized from these numbers at start-up and never grows: running out is a counted error
 * with a return code on the hot path.
 * <p>
 * Memory: 28 bytes per record of the reference window (the 16-byte record, its arrival number, its count of
 * displaced orders), 32 bytes per order for the overflow records and their references plus 24 for their map
 * (rounded up to a power of two), 96 bytes per level (record and two arenas of four entries), and about 80 bytes
 * per instrument (the defaults take about 210 MB).
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

    /** Default records of the direct-mapped reference window: live orders within 4M references of each other. */
    public static final int DEFAULT_REFERENCE_WINDOW = 1 << 22;
    /** Bounds of the reference window, a power of two. */
    public static final int MIN_REFERENCE_WINDOW = 1 << 10;
    public static final int MAX_REFERENCE_WINDOW = 1 << 27;
    /** Upper bound of the order and level capacities. */
    public static final int MAX_CAPACITY = 1 << 28;
    /** ITCH stock locates are u16, so there are at most 65,536 instruments. */
    public static final int MAX_INSTRUMENTS = 1 << 16;

    private int maxOrders = DEFAULT_MAX_ORDERS;
    private int maxLevels = DEFAULT_MAX_LEVELS;
    private int maxInstruments = DEFAULT_MAX_INSTRUMENTS;
    private int referenceWindow = DEFAULT_REFERENCE_WINDOW;

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

    public int referenceWindow()
    {
        return referenceWindow;
    }

    /**
     * @param referenceWindow slots of the direct-mapped reference index, a power of two: an order is found in its
     *                        slot unless an order a multiple of this many references older still holds it (then it
     *                        is found through a map). Wider than the spread of live references keeps every lookup
     *                        direct.
     */
    public BookContext referenceWindow(final int referenceWindow)
    {
        this.referenceWindow = referenceWindow;
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
        if (referenceWindow < MIN_REFERENCE_WINDOW || referenceWindow > MAX_REFERENCE_WINDOW ||
            Integer.bitCount(referenceWindow) != 1)
        {
            throw new IllegalArgumentException("referenceWindow must be a power of two between " +
                MIN_REFERENCE_WINDOW + " and " + MAX_REFERENCE_WINDOW + ", was " + referenceWindow);
        }
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
            ", maxInstruments=" + maxInstruments + ", referenceWindow=" + referenceWindow + '}';
    }
}
