package io.mdgate.core.itch;

/**
 * Stock Trading Action ('H', 25 bytes): a change of an instrument's trading state.
 * <pre>
 *   11 stock (8) 19 tradingState (1) 20 reserved (1) 21 reason (4)
 * </pre>
 */
public final class StockTradingActionFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.STOCK_TRADING_ACTION;
    public static final int LENGTH = 25;

    public static final int STOCK_OFFSET = 11;
    public static final int TRADING_STATE_OFFSET = 19;
    public static final int RESERVED_OFFSET = 20;
    public static final int REASON_OFFSET = 21;

    @Override
    public byte type()
    {
        return TYPE;
    }

    @Override
    public int length()
    {
        return LENGTH;
    }

    /** @return packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public StockTradingActionFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    /** @return H halted, P paused, Q quotation only, T trading. */
    public char tradingState()
    {
        return alpha1(TRADING_STATE_OFFSET);
    }

    public StockTradingActionFlyweight tradingState(final char value)
    {
        alpha1(TRADING_STATE_OFFSET, value);
        return this;
    }

    public char reserved()
    {
        return alpha1(RESERVED_OFFSET);
    }

    public StockTradingActionFlyweight reserved(final char value)
    {
        alpha1(RESERVED_OFFSET, value);
        return this;
    }

    /** @return packed as by {@link Alpha#pack4(CharSequence)}. */
    public int reason()
    {
        return alpha4(REASON_OFFSET);
    }

    public StockTradingActionFlyweight reason(final int value)
    {
        alpha4(REASON_OFFSET, value);
        return this;
    }
}
