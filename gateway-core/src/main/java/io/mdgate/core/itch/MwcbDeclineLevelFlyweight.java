package io.mdgate.core.itch;

/**
 * MWCB Decline Level ('V', 35 bytes): the market-wide circuit breaker levels for the day.
 * <pre>
 *   11 level1 (Price(8)) 19 level2 (Price(8)) 27 level3 (Price(8))
 * </pre>
 */
public final class MwcbDeclineLevelFlyweight extends ItchMessageFlyweight
{
    public static final byte TYPE = ItchMessageType.MWCB_DECLINE_LEVEL;
    public static final int LENGTH = 35;

    public static final int LEVEL_1_OFFSET = 11;
    public static final int LEVEL_2_OFFSET = 19;
    public static final int LEVEL_3_OFFSET = 27;

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

    /** @return price with 8 implied decimals. */
    public long level1()
    {
        return u64(LEVEL_1_OFFSET);
    }

    public MwcbDeclineLevelFlyweight level1(final long value)
    {
        u64(LEVEL_1_OFFSET, value);
        return this;
    }

    /** @return price with 8 implied decimals. */
    public long level2()
    {
        return u64(LEVEL_2_OFFSET);
    }

    public MwcbDeclineLevelFlyweight level2(final long value)
    {
        u64(LEVEL_2_OFFSET, value);
        return this;
    }

    /** @return price with 8 implied decimals. */
    public long level3()
    {
        return u64(LEVEL_3_OFFSET);
    }

    public MwcbDeclineLevelFlyweight level3(final long value)
    {
        u64(LEVEL_3_OFFSET, value);
        return this;
    }
}
