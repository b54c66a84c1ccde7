package io.mdgate.core.itch;

/**
 * Market Participant Position ('L', 26 bytes): a market maker's status in an instrument.
 * <pre>
 *   11 mpid (4) 15 stock (8) 23 primaryMarketMaker (1) 24 marketMakerMode (1) 25 marketParticipantState (1)
 * </pre>
 */
public final class MarketParticipantPositionFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.MARKET_PARTICIPANT_POSITION;
    public static final int LENGTH = 26;

    public static final int MPID_OFFSET = 11;
    public static final int STOCK_OFFSET = 15;
    public static final int PRIMARY_MARKET_MAKER_OFFSET = 23;
    public static final int MARKET_MAKER_MODE_OFFSET = 24;
    public static final int MARKET_PARTICIPANT_STATE_OFFSET = 25;

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

    /** @return packed as by {@link Alpha#pack4(CharSequence)}. */
    public int mpid()
    {
        return alpha4(MPID_OFFSET);
    }

    public MarketParticipantPositionFlyweight mpid(final int value)
    {
        alpha4(MPID_OFFSET, value);
        return this;
    }

    /** @return packed as by {@link Alpha#pack8(CharSequence)}. */
    public long stock()
    {
        return alpha8(STOCK_OFFSET);
    }

    public MarketParticipantPositionFlyweight stock(final long value)
    {
        alpha8(STOCK_OFFSET, value);
        return this;
    }

    public char primaryMarketMaker()
    {
        return alpha1(PRIMARY_MARKET_MAKER_OFFSET);
    }

    public MarketParticipantPositionFlyweight primaryMarketMaker(final char value)
    {
        alpha1(PRIMARY_MARKET_MAKER_OFFSET, value);
        return this;
    }

    public char marketMakerMode()
    {
        return alpha1(MARKET_MAKER_MODE_OFFSET);
    }

    public MarketParticipantPositionFlyweight marketMakerMode(final char value)
    {
        alpha1(MARKET_MAKER_MODE_OFFSET, value);
        return this;
    }

    public char marketParticipantState()
    {
        return alpha1(MARKET_PARTICIPANT_STATE_OFFSET);
    }

    public MarketParticipantPositionFlyweight marketParticipantState(final char value)
    {
        alpha1(MARKET_PARTICIPANT_STATE_OFFSET, value);
        return this;
    }
}
