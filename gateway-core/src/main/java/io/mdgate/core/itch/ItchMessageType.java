package io.mdgate.core.itch;

/**
 * The 23 ITCH 5.0 message types and their fixed lengths (type byte included), as a lookup table indexed by
 * the type byte. A length of zero means the type is unknown. Constant tables: safe to read from any thread.
 */
public final class ItchMessageType
{
    public static final byte SYSTEM_EVENT = 'S';
    public static final byte STOCK_DIRECTORY = 'R';
    public static final byte STOCK_TRADING_ACTION = 'H';
    public static final byte REG_SHO_RESTRICTION = 'Y';
    public static final byte MARKET_PARTICIPANT_POSITION = 'L';
    public static final byte MWCB_DECLINE_LEVEL = 'V';
    public static final byte MWCB_STATUS = 'W';
    public static final byte IPO_QUOTING_PERIOD_UPDATE = 'K';
    public static final byte LULD_AUCTION_COLLAR = 'J';
    public static final byte OPERATIONAL_HALT = 'h';
    public static final byte ADD_ORDER = 'A';
    public static final byte ADD_ORDER_MPID = 'F';
    public static final byte ORDER_EXECUTED = 'E';
    public static final byte ORDER_EXECUTED_WITH_PRICE = 'C';
    public static final byte ORDER_CANCEL = 'X';
    public static final byte ORDER_DELETE = 'D';
    public static final byte ORDER_REPLACE = 'U';
    public static final byte TRADE = 'P';
    public static final byte CROSS_TRADE = 'Q';
    public static final byte BROKEN_TRADE = 'B';
    public static final byte NOII = 'I';
    public static final byte RETAIL_PRICE_IMPROVEMENT = 'N';
    public static final byte DIRECT_LISTING_CAPITAL_RAISE = 'O';

    /** Every type byte, in the order of the specification's sections. */
    public static final byte[] ALL = {
        SYSTEM_EVENT, STOCK_DIRECTORY, STOCK_TRADING_ACTION, REG_SHO_RESTRICTION, MARKET_PARTICIPANT_POSITION,
        MWCB_DECLINE_LEVEL, MWCB_STATUS, IPO_QUOTING_PERIOD_UPDATE, LULD_AUCTION_COLLAR, OPERATIONAL_HALT,
        ADD_ORDER, ADD_ORDER_MPID, ORDER_EXECUTED, ORDER_EXECUTED_WITH_PRICE, ORDER_CANCEL, ORDER_DELETE,
        ORDER_REPLACE, TRADE, CROSS_TRADE, BROKEN_TRADE, NOII, RETAIL_PRICE_IMPROVEMENT,
        DIRECT_LISTING_CAPITAL_RAISE };

    private static final byte[] LENGTHS = new byte[256];

    static
    {
        length(SYSTEM_EVENT, 12);
        length(STOCK_DIRECTORY, 39);
        length(STOCK_TRADING_ACTION, 25);
        length(REG_SHO_RESTRICTION, 20);
        length(MARKET_PARTICIPANT_POSITION, 26);
        length(MWCB_DECLINE_LEVEL, 35);
        length(MWCB_STATUS, 12);
        length(IPO_QUOTING_PERIOD_UPDATE, 28);
        length(LULD_AUCTION_COLLAR, 35);
        length(OPERATIONAL_HALT, 21);
        length(ADD_ORDER, 36);
        length(ADD_ORDER_MPID, 40);
        length(ORDER_EXECUTED, 31);
        length(ORDER_EXECUTED_WITH_PRICE, 36);
        length(ORDER_CANCEL, 23);
        length(ORDER_DELETE, 19);
        length(ORDER_REPLACE, 35);
        length(TRADE, 44);
        length(CROSS_TRADE, 40);
        length(BROKEN_TRADE, 19);
        length(NOII, 50);
        length(RETAIL_PRICE_IMPROVEMENT, 20);
        length(DIRECT_LISTING_CAPITAL_RAISE, 48);
    }

    private ItchMessageType()
    {
    }

    private static void length(final byte type, final int length)
    {
        LENGTHS[type & 0xFF] = (byte)length;
    }

    /**
     * @param type the message's first byte.
     * @return its length on the wire including the type byte, or 0 when the type is not ITCH 5.0.
     */
    public static int lengthOf(final byte type)
    {
        return LENGTHS[type & 0xFF];
    }

    public static boolean isKnown(final byte type)
    {
        return LENGTHS[type & 0xFF] != 0;
    }

    /** @return a dense index 0..22 for a known type (its position in {@link #ALL}), -1 otherwise. */
    public static int indexOf(final byte type)
    {
        for (int i = 0; i < ALL.length; i++)
        {
            if (ALL[i] == type)
            {
                return i;
            }
        }
        return -1;
    }
}
