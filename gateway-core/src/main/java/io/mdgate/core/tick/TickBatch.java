package io.mdgate.core.tick;

import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Price4Encoder;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The ticks derived from one ITCH message, staged in a preallocated cache-aligned buffer so the last one can be
 * marked {@code lastInMessage} before any is published, then handed to the {@link TickHandler} in order. Holds the
 * per-message context (exchange sequence, receive time, session, line and recovery flags) and assigns gateway
 * sequences, which are continuous from the first one configured. Allocation-free after construction.
 * Not thread-safe.
 */
final class TickBatch
{
    static final int TICK_LENGTH = TickEncoder.BLOCK_LENGTH;
    /** The event itself, up to three LEVEL ticks and a top-of-book tick for each side. */
    static final int MAX_TICKS = 6;
    /** Mantissa written when an event has no price, the schema's null value. */
    static final int NULL_PRICE = Price4Encoder.mantissaNullValue();
    /** Largest price a tick carries: 214,748.3647. */
    static final long MAX_PRICE = Price4Encoder.mantissaMaxValue();
    /** Largest quantity a tick carries; the next value up is the schema's null. */
    static final long MAX_QUANTITY = TickEncoder.quantityMaxValue();

    static final short LINE_B = TickFlagsEncoder.lineB((short)0, true);
    static final short RECOVERED = TickFlagsEncoder.recovered((short)0, true);
    static final short LAST_IN_MESSAGE = TickFlagsEncoder.lastInMessage((short)0, true);
    static final short LAST_IN_PACKET = TickFlagsEncoder.lastInPacket((short)0, true);
    static final short NON_PRINTABLE = TickFlagsEncoder.nonPrintable((short)0, true);
    static final short QUANTITY_SATURATED = TickFlagsEncoder.quantitySaturated((short)0, true);
    static final short PRICE_RESCALED = TickFlagsEncoder.priceRescaled((short)0, true);
    static final short BOOK_CROSSED = TickFlagsEncoder.bookCrossed((short)0, true);
    static final short UNKNOWN_ORDER = TickFlagsEncoder.unknownOrder((short)0, true);

    /** Price(8) has four more implied decimals than Price(4). */
    private static final long PRICE8_PER_PRICE4 = 10_000;
    private static final int FLAGS_OFFSET = TickEncoder.flagsEncodingOffset();
    private static final ByteOrder ORDER = TickEncoder.BYTE_ORDER;

    private final UnsafeBuffer buffer =
        new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_TICKS * TICK_LENGTH, TICK_LENGTH));
    private final TickEncoder encoder = new TickEncoder();

    private int count;
    private long nextGatewaySequence;
    private long exchangeSequence;
    private long exchangeTimestamp;
    private long receiveTimestamp;
    private int sessionId;
    private short contextFlags;
    private boolean lastInPacket;
    private long published;
    private int journaledTicks;
    private long journaledSequence;
    private long journaledMismatches;

    TickBatch(final long firstGatewaySequence)
    {
        this.nextGatewaySequence = firstGatewaySequence;
    }

    void exchangeSequence(final long value)
    {
        exchangeSequence = value;
    }

    void receiveTimestamp(final long value)
    {
        receiveTimestamp = value;
    }

    void sessionId(final int value)
    {
        sessionId = value;
    }

    void lineB(final boolean value)
    {
        contextFlags = value ? (short)(contextFlags | LINE_B) : (short)(contextFlags & ~LINE_B);
    }

    void recovered(final boolean value)
    {
        contextFlags = value ? (short)(contextFlags | RECOVERED) : (short)(contextFlags & ~RECOVERED);
    }

    void lastInPacket(final boolean value)
    {
        lastInPacket = value;
    }

    long nextGatewaySequence()
    {
        return nextGatewaySequence;
    }

    long published()
    {
        return published;
    }

    /** @return the exchange timestamp of the message staged last, 0 before the first. */
    long exchangeTimestamp()
    {
        return exchangeTimestamp;
    }

    /**
     * Starts the ticks of a new message, dropping any that were staged and not published. The exchange timestamp
     * never goes back: an earlier one than the last is raised to the last.
     */
    void begin(final long exchangeTimestampNanos)
    {
        count = 0;
        exchangeTimestamp = Math.max(exchangeTimestampNanos, exchangeTimestamp);
    }

    /**
     * After a crash between the ticks of one message: the next batch of that exchange sequence is the same message
     * normalized again, and its first {@code ticks} are already journaled, under the gateway sequences just before
     * this batch's next one. Its staged ticks take those sequences again and only the rest are handed on. A batch
     * of another sequence, or of a GAP or SESSION tick, or one with no more ticks than were journaled, is numbered
     * after them instead (the journal keeps the partial message; counted in {@link #journaledMismatches()}).
     */
    void resumeWithin(final int ticks, final long exchangeSequenceOfThem)
    {
        journaledTicks = ticks;
        journaledSequence = exchangeSequenceOfThem;
        nextGatewaySequence -= ticks;
    }

    /** @return partial messages a restart could not complete (see {@link #resumeWithin}): 0 or 1. */
    long journaledMismatches()
    {
        return journaledMismatches;
    }

    /** @param value the exchange timestamp of the last tick before this batch's first, e.g. from a journal. */
    void lastExchangeTimestamp(final long value)
    {
        exchangeTimestamp = value;
    }

    /**
     * Stages a tick with the common fields set and the others empty: no references, null price, zero quantity,
     * side NONE. The returned encoder stays on it until the next call.
     */
    TickEncoder add(final EventType type, final int instrument)
    {
        encoder.wrap(buffer, count * TICK_LENGTH)
            .gatewaySequence(nextGatewaySequence++)
            .exchangeSequence(exchangeSequence)
            .exchangeTimestamp(exchangeTimestamp)
            .receiveTimestamp(receiveTimestamp)
            .orderReference(0)
            .matchOrNewReference(0)
            .quantity(0)
            .instrumentId(instrument)
            .sessionId(sessionId)
            .eventType(type)
            .side(Side.NONE)
            .price().mantissa(NULL_PRICE);
        buffer.putShort(count * TICK_LENGTH + FLAGS_OFFSET, contextFlags, ORDER);
        count++;
        return encoder;
    }

    /** Adds flag bits to the tick staged last. */
    void flag(final short bits)
    {
        final int at = (count - 1) * TICK_LENGTH + FLAGS_OFFSET;
        buffer.putShort(at, (short)(buffer.getShort(at, ORDER) | bits), ORDER);
    }

    /** Sets the staged tick's price from a Price(4) value, capped and flagged {@code priceRescaled} if too large. */
    void price(final long price4)
    {
        if (price4 < 0 || price4 > MAX_PRICE)
        {
            flag(PRICE_RESCALED);
            encoder.price().mantissa((int)MAX_PRICE);
        }
        else
        {
            encoder.price().mantissa((int)price4);
        }
    }

    /** Sets the staged tick's quantity, capped and flagged {@code quantitySaturated} if it does not fit. */
    void quantity(final long value)
    {
        encoder.quantity(saturate(value));
    }

    /** @return the value if it fits a tick's quantity, else the largest one, flagging the staged tick. */
    long saturate(final long value)
    {
        if (value < 0 || value > MAX_QUANTITY)
        {
            flag(QUANTITY_SATURATED);
            return MAX_QUANTITY;
        }
        return value;
    }

    /**
     * @param price8 ITCH Price(8), u64.
     * @return the price rounded half up to 4 decimals; flags the staged tick {@code priceRescaled} if inexact.
     */
    long rescale(final long price8)
    {
        final long remainder = Long.remainderUnsigned(price8, PRICE8_PER_PRICE4);
        if (remainder != 0)
        {
            flag(PRICE_RESCALED);
        }
        return Long.divideUnsigned(price8, PRICE8_PER_PRICE4) + (remainder >= PRICE8_PER_PRICE4 / 2 ? 1 : 0);
    }

    /** @return the staged ticks. */
    int count()
    {
        return count;
    }

    /**
     * Marks the last staged tick {@code lastInMessage} (and {@code lastInPacket} when the message ends its packet),
     * marks every tick {@code bookCrossed} if asked, and hands them to the handler in order.
     */
    void publish(final boolean bookCrossed, final TickHandler handler)
    {
        final int last = count - 1;
        final int first = journaledTicks == 0 ? 0 : completeJournaled();
        for (int i = first; i <= last; i++)
        {
            final int offset = i * TICK_LENGTH;
            int bits = buffer.getShort(offset + FLAGS_OFFSET, ORDER);
            if (bookCrossed)
            {
                bits |= BOOK_CROSSED;
            }
            if (i == last)
            {
                bits |= lastInPacket ? LAST_IN_MESSAGE | LAST_IN_PACKET : LAST_IN_MESSAGE;
            }
            buffer.putShort(offset + FLAGS_OFFSET, (short)bits, ORDER);
            handler.onTick(buffer, offset);
        }
        published += count - first;
        count = 0;
    }

    /**
     * The first batch after {@link #resumeWithin}: either the message the journal holds the first ticks of, whose
     * staged ticks up to those are not handed on again, or anything else, renumbered after them.
     *
     * @return the index of the first staged tick to hand on.
     */
    private int completeJournaled()
    {
        final int journaled = journaledTicks;
        journaledTicks = 0;
        final int type = buffer.getByte(TickEncoder.eventTypeEncodingOffset()) & 0xFF;
        if (exchangeSequence == journaledSequence && count > journaled && type != EventType.GAP.value() &&
            type != EventType.SESSION.value())
        {
            return journaled;
        }
        journaledMismatches++;
        for (int i = 0; i < count; i++)
        {
            final int at = i * TICK_LENGTH + TickEncoder.gatewaySequenceEncodingOffset();
            buffer.putLong(at, buffer.getLong(at, ORDER) + journaled, ORDER);
        }
        nextGatewaySequence += journaled;
        return 0;
    }
}
