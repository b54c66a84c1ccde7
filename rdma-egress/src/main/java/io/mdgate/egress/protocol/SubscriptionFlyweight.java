package io.mdgate.egress.protocol;

/**
 * SUBSCRIBE, UNSUBSCRIBE and their answer SUBSCRIPTION ({@link ControlMessageDescriptor}): an instrument by id, by
 * symbol ({@link ControlMessageDescriptor#BY_SYMBOL}) or all of them ({@link ControlMessageDescriptor#ALL_INSTRUMENTS}),
 * the table slot given and a status. Not thread-safe.
 */
public final class SubscriptionFlyweight extends ControlFlyweight
{
    private static final int INSTRUMENT_ID = 8;
    private static final int TABLE_SLOT = 12;
    private static final int SYMBOL = 16;
    private static final int STATUS = 24;
    public static final int LENGTH = 32;

    @Override
    public int length()
    {
        return LENGTH;
    }

    public int instrumentId()
    {
        return buffer.getInt(offset + INSTRUMENT_ID, LE);
    }

    public SubscriptionFlyweight instrumentId(final int value)
    {
        mutable.putInt(offset + INSTRUMENT_ID, value, LE);
        return this;
    }

    public int tableSlot()
    {
        return buffer.getInt(offset + TABLE_SLOT, LE);
    }

    public SubscriptionFlyweight tableSlot(final int value)
    {
        mutable.putInt(offset + TABLE_SLOT, value, LE);
        return this;
    }

    /** @return the symbol packed as {@code Alpha.pack8}, 0 when none. */
    public long symbol()
    {
        return buffer.getLong(offset + SYMBOL, LE);
    }

    public SubscriptionFlyweight symbol(final long value)
    {
        mutable.putLong(offset + SYMBOL, value, LE);
        return this;
    }

    public int status()
    {
        return buffer.getInt(offset + STATUS, LE);
    }

    public SubscriptionFlyweight status(final int value)
    {
        mutable.putInt(offset + STATUS, value, LE);
        return this;
    }
}
