package io.mdgate.egress.protocol;

/**
 * Layout of one top-of-book table slot: the best bid and offer of one instrument, versioned as a seqlock. The
 * gateway writes, over one connection and in this order, the version made odd, the 56 bytes after it, and the
 * version made even again; a reader copies the slot between two reads of an even, equal version and retries
 * otherwise, so it never uses a half-written quote.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     version (odd while written)               |  0
 *  +---------------------------------------------------------------+
 *  |                     gateway sequence of the last change       |  8
 *  +---------------------------------------------------------------+
 *  |                     exchange timestamp of the last change     | 16
 *  +---------------------------------------------------------------+
 *  |                     symbol (alpha8, packed big-endian)        | 24
 *  +-------------------------------+-------------------------------+
 *  |  bid price (Price4, null      |  bid size (shares)            | 32
 *  |  -2147483648 when empty)      |                               |
 *  +-------------------------------+-------------------------------+
 *  |  ask price                    |  ask size                     | 40
 *  +-------------------------------+-------------------------------+
 *  |  bid orders                   |  ask orders                   | 48
 *  +---------------+-------+-------+-------------------------------+
 *  | instrument id | state | (res) |  (reserved)                   | 56   state: ITCH trading state char
 *  +---------------+-------+-------+-------------------------------+
 * </pre>
 * Little-endian. The gateway keeps one such record per instrument and copies bytes 8..63 of it into each
 * subscribed consumer's slot.
 */
public final class TopOfBookDescriptor
{
    public static final int VERSION_OFFSET = 0;
    public static final int GATEWAY_SEQUENCE_OFFSET = 8;
    public static final int EXCHANGE_TIMESTAMP_OFFSET = 16;
    public static final int SYMBOL_OFFSET = 24;
    public static final int BID_PRICE_OFFSET = 32;
    public static final int BID_SIZE_OFFSET = 36;
    public static final int ASK_PRICE_OFFSET = 40;
    public static final int ASK_SIZE_OFFSET = 44;
    public static final int BID_ORDERS_OFFSET = 48;
    public static final int ASK_ORDERS_OFFSET = 52;
    public static final int INSTRUMENT_ID_OFFSET = 56;
    public static final int TRADING_STATE_OFFSET = 58;
    /** Bytes after the version: what one data write carries. */
    public static final int BODY_OFFSET = 8;
    public static final int BODY_LENGTH = 56;
    public static final int LENGTH = 64;
    public static final int NULL_PRICE = Integer.MIN_VALUE;

    private TopOfBookDescriptor()
    {
    }
}
