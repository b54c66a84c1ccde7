package io.mdgate.core.tick;

import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The top D price levels per side of every book, as {@link EventType#LEVEL} ticks: what a depth view built from an
 * empty state needs to equal the books. A LEVEL tick names its level by price, so the ticks may be applied in any
 * order to an empty view of D or more levels per side. Used after a restart, where the books were rebuilt from the
 * journal: the egress's depth records are set from it rather than from the journaled LEVEL ticks, which a run with
 * another D wrote.
 * <p>
 * The ticks are not published and take no gateway sequence of their own: each carries the sequence and exchange time
 * of the state it describes (the last journaled tick), as a table stamp does. Allocates one 64-byte buffer per
 * instance; nothing per tick. Threading: one thread, the books' owner.
 */
public final class DepthImage
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[TickBatch.TICK_LENGTH]);
    private final TickEncoder encoder = new TickEncoder();

    /**
     * Hands the image to {@code handler}, instrument by instrument, bids then asks, best first.
     *
     * @param books             the books to describe.
     * @param levels            D, the levels per side (0: nothing).
     * @param sessionId         the gateway's number of the session the books are of.
     * @param gatewaySequence   the gateway sequence of the state described (the last tick applied to the books).
     * @param exchangeTimestamp the exchange time of that state.
     * @param handler           takes each tick; the buffer is reused for the next.
     * @return LEVEL ticks handed over.
     */
    public long write(final OrderBooks books, final int levels, final int sessionId, final long gatewaySequence,
        final long exchangeTimestamp, final TickHandler handler)
    {
        long written = 0;
        for (int instrument = 1, end = books.maxInstruments(); instrument < end; instrument++)
        {
            for (int side = BookSide.BID; side <= BookSide.ASK; side++)
            {
                final int held = Math.min(levels, books.levelCount(instrument, side));
                for (int depth = 0; depth < held; depth++)
                {
                    encode(books, instrument, side, depth, sessionId, gatewaySequence, exchangeTimestamp);
                    handler.onTick(buffer, 0);
                    written++;
                }
            }
        }
        return written;
    }

    private void encode(final OrderBooks books, final int instrument, final int side, final int depth,
        final int sessionId, final long gatewaySequence, final long exchangeTimestamp)
    {
        final long price = books.depthPrice(instrument, side, depth);
        final long size = books.depthSize(instrument, side, depth);
        final boolean rescaled = price < 0 || price > TickBatch.MAX_PRICE;
        short flags = TickBatch.LAST_IN_MESSAGE;
        if (rescaled)
        {
            flags |= TickBatch.PRICE_RESCALED;
        }
        if (size > TickBatch.MAX_QUANTITY)
        {
            flags |= TickBatch.QUANTITY_SATURATED;
        }
        encoder.wrap(buffer, 0)
            .gatewaySequence(gatewaySequence)
            .exchangeSequence(0)
            .exchangeTimestamp(exchangeTimestamp)
            .receiveTimestamp(0)
            .orderReference(depth)
            .matchOrNewReference(books.depthOrderCount(instrument, side, depth))
            .quantity(Math.min(size, TickBatch.MAX_QUANTITY))
            .instrumentId(instrument)
            .sessionId(sessionId)
            .eventType(EventType.LEVEL)
            .side(side == BookSide.BID ? Side.BUY : Side.SELL)
            .price().mantissa((int)(rescaled ? TickBatch.MAX_PRICE : price));
        buffer.putShort(TickEncoder.flagsEncodingOffset(), flags, TickEncoder.BYTE_ORDER);
    }
}
