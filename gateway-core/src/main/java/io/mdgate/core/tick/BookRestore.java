package io.mdgate.core.tick;

import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.InstrumentDirectory;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Price4Encoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Rebuilds a fresh normalizer's books, instrument directory and last published top of book from the ticks its
 * predecessor journaled in the current session, so that after a restart the ticks it makes from the following
 * messages are the ones an uninterrupted normalizer would have made (receive times and line flags aside).
 * <p>
 * Each tick of an order event is applied to the books as the original message was: ADD (instrument, reference,
 * side, shares, price), EXECUTE and EXECUTE_WITH_PRICE (reference, executed shares), CANCEL (reference, cancelled
 * shares), DELETE (reference), REPLACE (original and new reference, shares, price); events flagged
 * {@code unknownOrder} changed nothing and are skipped. INSTRUMENT and TRADING_STATUS ticks restore the directory;
 * each TOP_OF_BOOK tick sets what the normalizer last published for its side, and is checked against the rebuilt
 * book ({@link #topOfBookMismatches()}: 0 when the rebuild is exact). A SESSION tick empties everything, as a
 * session change does. Other ticks do not touch the books.
 * <p>
 * What a tick cannot carry is counted, not guessed: an order event whose price or shares the tick had to cap
 * ({@code priceRescaled}, {@code quantitySaturated}) is applied with the capped value ({@link #inexactTicks()}).
 * A message whose last ticks were lost to a crash (its event tick journaled, not its top-of-book tick) leaves the
 * published top as journaled: the next event of that instrument publishes the top that changed. Its LEVEL ticks
 * that were lost are worked out from the rebuilt book (what the message published, less what the journal holds)
 * and published with the next order event of that instrument, before its own, so a consumer's depth is whole
 * again; each journaled LEVEL tick is checked against the rebuild ({@link #depthMismatches()}). Give the normalizer
 * the depth the journaling run published: a different D leaves consumers' depth to a snapshot.
 * <p>
 * Use: {@code new Normalizer(books, clock, journal, next)}, feed the session's journaled ticks from its SESSION tick
 * to this restore's {@link #onTick}, then start the feed. Give the normalizer books of the same capacities as
 * before. Allocation-free per tick. Threading: the normalizer's thread, before it normalizes.
 */
public final class BookRestore implements TickHandler
{
    private static final ByteOrder ORDER = TickEncoder.BYTE_ORDER;
    private static final int GATEWAY_SEQUENCE_OFFSET = TickEncoder.gatewaySequenceEncodingOffset();
    private static final int EXCHANGE_SEQUENCE_OFFSET = TickEncoder.exchangeSequenceEncodingOffset();
    private static final int REFERENCE_OFFSET = TickEncoder.orderReferenceEncodingOffset();
    private static final int MATCH_OFFSET = TickEncoder.matchOrNewReferenceEncodingOffset();
    private static final int PRICE_OFFSET = TickEncoder.priceEncodingOffset();
    private static final int QUANTITY_OFFSET = TickEncoder.quantityEncodingOffset();
    private static final int INSTRUMENT_OFFSET = TickEncoder.instrumentIdEncodingOffset();
    private static final int FLAGS_OFFSET = TickEncoder.flagsEncodingOffset();
    private static final int EVENT_TYPE_OFFSET = TickEncoder.eventTypeEncodingOffset();
    private static final int SIDE_OFFSET = TickEncoder.sideEncodingOffset();
    private static final int NULL_PRICE = Price4Encoder.mantissaNullValue();
    private static final short CAPPED = (short)(TickBatch.PRICE_RESCALED | TickBatch.QUANTITY_SATURATED);
    private static final EventType[] TYPES = new EventType[256];

    static
    {
        for (final EventType type : EventType.values())
        {
            if (type != EventType.NULL_VAL)
            {
                TYPES[type.value()] = type;
            }
        }
    }

    private final Normalizer normalizer;
    private final OrderBooks books;
    private final InstrumentDirectory instruments;
    private long ticks;
    private long orderEvents;
    private long inexactTicks;
    private long topOfBookMismatches;
    private long depthMismatches;
    private long sessions;
    private long lastExchangeSequence;

    /**
     * @param normalizer a normalizer that has not normalized yet; its books and directory are rebuilt.
     */
    private long lastGatewaySequence = Long.MAX_VALUE;

    public BookRestore(final Normalizer normalizer)
    {
        this.normalizer = normalizer;
        this.books = normalizer.books();
        this.instruments = books.instruments();
    }

    /**
     * Leaves out every tick after this gateway sequence: the ticks of a message a crash left partly journaled, which
     * the normalizer makes again from the feed ({@link Normalizer#resume(int, long, int, long)}).
     *
     * @return this.
     */
    public BookRestore upTo(final long lastGatewaySequence)
    {
        this.lastGatewaySequence = lastGatewaySequence;
        return this;
    }

    @Override
    public void onTick(final DirectBuffer buffer, final int offset)
    {
        if (buffer.getLong(offset + GATEWAY_SEQUENCE_OFFSET, ORDER) > lastGatewaySequence)
        {
            return;
        }
        ticks++;
        if ((buffer.getShort(offset + FLAGS_OFFSET, ORDER) & TickBatch.LAST_IN_MESSAGE) != 0)
        {
            onTickOf(buffer, offset);
            normalizer.messageEnded();
            return;
        }
        onTickOf(buffer, offset);
    }

    private void onTickOf(final DirectBuffer buffer, final int offset)
    {
        lastExchangeSequence = buffer.getLong(offset + EXCHANGE_SEQUENCE_OFFSET, ORDER);
        final EventType type = TYPES[buffer.getByte(offset + EVENT_TYPE_OFFSET) & 0xFF];
        if (type == null)
        {
            return;
        }
        switch (type)
        {
            case ADD, EXECUTE, EXECUTE_WITH_PRICE, CANCEL, DELETE, REPLACE ->
            {
                if (orderEvent(type, buffer, offset))
                {
                    normalizer.markTopRestored(books.lastInstrument());
                    normalizer.expectDepth();
                }
            }
            case LEVEL ->
            {
                if (!normalizer.journaledLevel(price(buffer, offset),
                    buffer.getInt(offset + QUANTITY_OFFSET, ORDER) & 0xFFFF_FFFFL,
                    buffer.getLong(offset + MATCH_OFFSET, ORDER), buffer.getLong(offset + REFERENCE_OFFSET, ORDER)))
                {
                    depthMismatches++;
                }
            }
            case TOP_OF_BOOK -> topOfBook(buffer, offset);
            case INSTRUMENT -> instruments.symbol(instrument(buffer, offset), buffer.getLong(offset + REFERENCE_OFFSET,
                ORDER));
            case TRADING_STATUS -> instruments.tradingState(instrument(buffer, offset),
                (char)buffer.getLong(offset + MATCH_OFFSET, ORDER));
            case SESSION ->
            {
                sessions++;
                normalizer.reset();
            }
            default ->
            {
                // trades, status and gap ticks do not touch the books
            }
        }
    }

    /** @return the normalizer being restored. */
    public Normalizer normalizer()
    {
        return normalizer;
    }

    /** @return ticks given to the restore. */
    public long ticks()
    {
        return ticks;
    }

    /** @return order events applied to the books (those flagged unknownOrder are not). */
    public long orderEvents()
    {
        return orderEvents;
    }

    /** @return order events applied with a price or share count the tick had capped: the rebuild may differ there. */
    public long inexactTicks()
    {
        return inexactTicks;
    }

    /** @return TOP_OF_BOOK ticks that disagree with the rebuilt book at that point: 0 when the rebuild is exact. */
    public long topOfBookMismatches()
    {
        return topOfBookMismatches;
    }

    /** @return LEVEL ticks that are not the ones the rebuilt book gives at that point: 0 when the rebuild is exact. */
    public long depthMismatches()
    {
        return depthMismatches;
    }

    /** @return SESSION ticks seen (each emptied the books). */
    public long sessions()
    {
        return sessions;
    }

    /** @return the exchange sequence of the last tick given, 0 before the first. */
    public long lastExchangeSequence()
    {
        return lastExchangeSequence;
    }

    /** @return whether the event was applied to the books. */
    private boolean orderEvent(final EventType type, final DirectBuffer buffer, final int offset)
    {
        final short flags = buffer.getShort(offset + FLAGS_OFFSET, ORDER);
        if ((flags & TickBatch.UNKNOWN_ORDER) != 0)
        {
            return false;
        }
        if ((flags & CAPPED) != 0)
        {
            inexactTicks++;
        }
        orderEvents++;
        final long reference = buffer.getLong(offset + REFERENCE_OFFSET, ORDER);
        final long shares = buffer.getInt(offset + QUANTITY_OFFSET, ORDER) & 0xFFFF_FFFFL;
        switch (type)
        {
            case ADD -> books.add(instrument(buffer, offset), reference, (char)buffer.getByte(offset + SIDE_OFFSET),
                shares, price(buffer, offset));
            case EXECUTE, EXECUTE_WITH_PRICE -> books.execute(reference, shares);
            case CANCEL -> books.cancel(reference, shares);
            case DELETE -> books.delete(reference);
            default -> books.replace(reference, buffer.getLong(offset + MATCH_OFFSET, ORDER), shares,
                price(buffer, offset));
        }
        return true;
    }

    private void topOfBook(final DirectBuffer buffer, final int offset)
    {
        final int instrument = instrument(buffer, offset);
        final int side = BookSide.of((char)buffer.getByte(offset + SIDE_OFFSET));
        if (side == BookSide.INVALID)
        {
            topOfBookMismatches++;
            return;
        }
        final short flags = buffer.getShort(offset + FLAGS_OFFSET, ORDER);
        final long bookPrice = books.bestPrice(instrument, side);
        final long bookSize = books.bestSize(instrument, side);
        final long price = (flags & TickBatch.PRICE_RESCALED) != 0 ? bookPrice : price(buffer, offset);
        final long size = (flags & TickBatch.QUANTITY_SATURATED) != 0 ? bookSize :
            buffer.getInt(offset + QUANTITY_OFFSET, ORDER) & 0xFFFF_FFFFL;
        if (price != bookPrice || size != bookSize ||
            buffer.getLong(offset + MATCH_OFFSET, ORDER) != books.bestOrderCount(instrument, side))
        {
            topOfBookMismatches++;
        }
        normalizer.restorePublishedTopOfBook(instrument, side, price, size);
    }

    private static int instrument(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + INSTRUMENT_OFFSET, ORDER) & 0xFFFF;
    }

    /** @return the tick's price as a book holds it: {@link OrderBooks#NO_PRICE} when null. */
    private static long price(final DirectBuffer buffer, final int offset)
    {
        final int mantissa = buffer.getInt(offset + PRICE_OFFSET, ORDER);
        return mantissa == NULL_PRICE ? OrderBooks.NO_PRICE : mantissa;
    }
}
