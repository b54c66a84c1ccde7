package io.mdgate.egress.snapshot;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.book.SeededOrderFlow;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.time.LocalDate;

/**
 * Test support: the ticks of a seeded ITCH session ({@link SeededOrderFlow}) through a {@link Normalizer} that
 * publishes depth, numbered from gateway sequence 1, held in memory for publishing and for computing what a view
 * takes.
 */
public final class SnapshotDay
{
    /** Enough instruments that a snapshot built a few parts a duty cycle spans many cycles. */
    static final int INSTRUMENTS = 24;
    static final int DEPTH = 5;
    private static final short LAST_IN_MESSAGE = TickFlagsEncoder.lastInMessage((short)0, true);
    static final BookContext BOOKS = new BookContext().maxOrders(8192).maxLevels(8192).maxInstruments(1024)
        .referenceWindow(1 << 16);

    private final ExpandableDirectByteBuffer ticks = new ExpandableDirectByteBuffer(1 << 20);
    private int count;

    SnapshotDay(final long seed, final int messages)
    {
        this(seed, messages, 700);
    }

    /** @param maxLiveOrders the flow deletes instead of adding once this many orders are live (at most 8,192). */
    SnapshotDay(final long seed, final int messages, final int maxLiveOrders)
    {
        final SeededOrderFlow flow = new SeededOrderFlow(seed, INSTRUMENTS, maxLiveOrders);
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(8192).maxLevels(8192).maxInstruments(1024)
            .referenceWindow(1 << 16));
        final Normalizer normalizer = new Normalizer(books, new ExchangeClock(LocalDate.of(2026, 12, 1)),
            (buffer, offset) -> ticks.putBytes(count++ * TickLayout.LENGTH, buffer, offset, TickLayout.LENGTH), 1)
            .depthLevels(DEPTH);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        for (int m = 0; m < messages; m++)
        {
            decoder.decode(message, 0, flow.next(message, 0), normalizer);
        }
    }

    /** @return ticks, the last one's sequence. */
    int count()
    {
        return count;
    }

    /** @return the tick of gateway sequence {@code sequence} (1-based), as a buffer over its 64 bytes. */
    UnsafeBuffer tick(final long sequence)
    {
        return new UnsafeBuffer(ticks, (int)(sequence - 1) * TickLayout.LENGTH, TickLayout.LENGTH);
    }

    /** @return whether a consumer of {@code view} on instruments 1..INSTRUMENTS takes tick {@code sequence}. */
    boolean takes(final SubscriptionView view, final long sequence)
    {
        return takes(view, Subset.EVERY, sequence);
    }

    /** @return whether a consumer of {@code view} on the instruments of {@code subset} takes tick {@code sequence}. */
    boolean takes(final SubscriptionView view, final Subset subset, final long sequence)
    {
        final int at = (int)(sequence - 1) * TickLayout.LENGTH;
        final int instrument = instrument(sequence);
        return instrument == TickLayout.MARKET_WIDE ||
            subset.has(instrument) && view.takes(ticks.getByte(at + TickLayout.EVENT_TYPE_OFFSET));
    }

    /**
     * @return the first sequence from {@code sequence} on whose tick ends its message (the last tick at most): where
     *         a publisher held back stops between messages, not inside one (the publisher would then take a snapshot
     *         part inside it once its bounded wait for the message's end ran out).
     */
    long messageEnd(final long sequence)
    {
        long end = sequence;
        while (end < count && (ticks.getShort((int)(end - 1) * TickLayout.LENGTH + TickLayout.FLAGS_OFFSET,
            ByteOrder.LITTLE_ENDIAN) & LAST_IN_MESSAGE) == 0)
        {
            end++;
        }
        return end;
    }

    /** @return the instrument of tick {@code sequence}. */
    int instrument(final long sequence)
    {
        final int at = (int)(sequence - 1) * TickLayout.LENGTH;
        return ticks.getShort(at + TickLayout.INSTRUMENT_ID_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    /** Instruments a consumer subscribes to, one by one. */
    public enum Subset
    {
        /** 1..INSTRUMENTS. */
        EVERY,
        /** The odd ones. */
        ODD,
        /** The first five. */
        FIRST_FIVE;

        boolean has(final int instrument)
        {
            return instrument >= 1 && instrument <= INSTRUMENTS && switch (this)
            {
                case EVERY -> true;
                case ODD -> (instrument & 1) == 1;
                case FIRST_FIVE -> instrument <= 5;
            };
        }
    }
}
