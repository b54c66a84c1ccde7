package io.mdgate.egress.protocol;

/**
 * SUBSCRIBE, UNSUBSCRIBE and their answer SUBSCRIPTION ({@link ControlMessageDescriptor}): an instrument by id, by
 * symbol ({@link ControlMessageDescriptor#BY_SYMBOL}) or all of them ({@link ControlMessageDescriptor#ALL_INSTRUMENTS}),
 * the table slot given, a status and the {@link SubscriptionView view}. Messages of {@link #LENGTH} or
 * {@link #LOG_ANSWER_LENGTH} bytes (from before views) carry no view and mean {@link SubscriptionView#ALL}; this
 * build sends {@link #VIEW_LENGTH} bytes. Not thread-safe.
 */
public final class SubscriptionFlyweight extends ControlFlyweight
{
    private static final int INSTRUMENT_ID = 8;
    private static final int TABLE_SLOT = 12;
    private static final int SYMBOL = 16;
    private static final int STATUS = 24;
    private static final int FLAGS = 28;
    private static final int NEXT_SEQUENCE = 32;
    private static final int VIEW = 40;
    /** Length of the messages before the shared log and views: no next sequence, no view (view ALL). */
    public static final int LENGTH = 32;
    /** Length of a SUBSCRIPTION granting every instrument through the shared log: it adds the next sequence. */
    public static final int LOG_ANSWER_LENGTH = 40;
    /** Length of every message this build sends: it adds the view (next sequence 0 where it does not apply). */
    public static final int VIEW_LENGTH = 48;

    @Override
    public int length()
    {
        return VIEW_LENGTH;
    }

    /**
     * @param length of the message received.
     * @return the view's code ({@link SubscriptionView#code()}), {@link SubscriptionView#ALL}'s for a message too
     *         short to carry one; a code no view has is the caller's to refuse.
     */
    public int viewCode(final int length)
    {
        return length >= VIEW_LENGTH ? buffer.getByte(offset + VIEW) & 0xFF : SubscriptionView.ALL.code();
    }

    /** Sets the view's code; the message must then be sent with {@link #VIEW_LENGTH} bytes. */
    public SubscriptionFlyweight view(final int code)
    {
        mutable.putByte(offset + VIEW, (byte)code);
        return this;
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

    /** @return {@link ControlMessageDescriptor#SHARED_LOG} or 0. */
    public int flags()
    {
        return buffer.getInt(offset + FLAGS, LE);
    }

    public SubscriptionFlyweight flags(final int value)
    {
        mutable.putInt(offset + FLAGS, value, LE);
        return this;
    }

    /**
     * @return the shared log position the consumer reads from, in a SUBSCRIPTION of every instrument with
     *         {@link ControlMessageDescriptor#SHARED_LOG} (it shares the symbol's field, unused there).
     */
    public long logPosition()
    {
        return symbol();
    }

    public SubscriptionFlyweight logPosition(final long value)
    {
        return symbol(value);
    }

    /**
     * @return in a SUBSCRIPTION granting the shared log ({@link #LOG_ANSWER_LENGTH} bytes), the gateway sequence of
     *         the tick at {@link #logPosition()}.
     */
    public long nextSequence()
    {
        return buffer.getLong(offset + NEXT_SEQUENCE, LE);
    }

    /** Sets the next sequence; the message must then be sent with {@link #LOG_ANSWER_LENGTH} bytes. */
    public SubscriptionFlyweight nextSequence(final long value)
    {
        mutable.putLong(offset + NEXT_SEQUENCE, value, LE);
        return this;
    }
}
