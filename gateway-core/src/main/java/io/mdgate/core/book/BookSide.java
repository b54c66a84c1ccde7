package io.mdgate.core.book;

/**
 * The two sides of a book as small integers, used to index per-side arrays, and their ITCH buy/sell indicators.
 */
public final class BookSide
{
    /** Buy orders: best is the highest price. */
    public static final int BID = 0;
    /** Sell orders: best is the lowest price. */
    public static final int ASK = 1;
    /** Returned by {@link #of(char)} for anything but 'B' and 'S'. */
    public static final int INVALID = -1;

    private BookSide()
    {
    }

    /**
     * @param itchSide ITCH buy/sell indicator.
     * @return {@link #BID} for 'B', {@link #ASK} for 'S', {@link #INVALID} otherwise.
     */
    public static int of(final char itchSide)
    {
        switch (itchSide)
        {
            case 'B':
                return BID;
            case 'S':
                return ASK;
            default:
                return INVALID;
        }
    }

    /** @return 'B' for {@link #BID}, 'S' for {@link #ASK}, '?' otherwise. */
    public static char toChar(final int side)
    {
        return side == BID ? 'B' : side == ASK ? 'S' : '?';
    }

    /** @return true when {@code price} is better than {@code than} on that side (strictly). */
    static boolean isBetter(final int side, final long price, final long than)
    {
        return side == BID ? price > than : price < than;
    }
}
