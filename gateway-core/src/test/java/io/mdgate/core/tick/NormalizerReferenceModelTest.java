package io.mdgate.core.tick;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.book.ReferenceBook;
import io.mdgate.core.book.SeededOrderFlow;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.LocalDate;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks the normalizer's top-of-book ticks against a plain-collections oracle over a long seeded flow: after each
 * message there is a top-of-book tick for exactly the sides whose best price or size moved, carrying the oracle's
 * best level, and the message's ticks are numbered without gaps and end with the only {@code lastInMessage}.
 */
@Timeout(120)
class NormalizerReferenceModelTest
{
    private static final int INSTRUMENTS = 4;
    private static final int MESSAGES = 50_000;
    private static final int NULL_PRICE = Integer.MIN_VALUE;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 3, 2024, 99_999_999_999L })
    void shouldPublishTopOfBookExactlyWhenTheReferenceBestChanges(final long seed)
    {
        System.out.println("NormalizerReferenceModelTest seed " + seed);
        final SeededOrderFlow flow = new SeededOrderFlow(seed, INSTRUMENTS, 400);
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1024).maxLevels(1024).maxInstruments(8));
        final RecordingTickHandler ticks = new RecordingTickHandler();
        final Normalizer normalizer = new Normalizer(books, new ExchangeClock(LocalDate.of(2024, 6, 3)), ticks, 1);
        final ReferenceBook reference = new ReferenceBook();
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ReferenceBook.Level[] previousBest = new ReferenceBook.Level[(INSTRUMENTS + 1) * 2];
        long expectedSequence = 1;
        long crossedTicks = 0;

        for (int i = 0; i < MESSAGES; i++)
        {
            final int length = flow.next(buffer, 0);
            final int first = ticks.size();
            normalizer.exchangeSequence(i);
            decoder.decode(buffer, 0, length, normalizer);
            decoder.decode(buffer, 0, length, reference);
            final String where = "seed " + seed + ", message " + i + " ('" + (char)buffer.getByte(0) + "')";

            assertTrue(ticks.size() > first, where);
            assertNotEquals(EventType.TOP_OF_BOOK, ticks.tick(first).eventType(), where);
            for (int t = first; t < ticks.size(); t++)
            {
                final TickDecoder tick = ticks.tick(t);
                assertEquals(expectedSequence++, tick.gatewaySequence(), where);
                assertEquals(i, tick.exchangeSequence(), where);
                assertEquals(t == ticks.size() - 1, tick.flags().lastInMessage(), where);
                crossedTicks += tick.flags().bookCrossed() ? 1 : 0;
            }

            final boolean[] published = new boolean[previousBest.length];
            for (int t = first + 1; t < ticks.size(); t++)
            {
                final TickDecoder tick = ticks.tick(t);
                assertEquals(EventType.TOP_OF_BOOK, tick.eventType(), where);
                final int side = tick.side() == Side.BUY ? BookSide.BID : BookSide.ASK;
                final int index = tick.instrumentId() * 2 + side;
                assertFalse(published[index], where + ": two top-of-book ticks for one side");
                published[index] = true;
                final ReferenceBook.Level best = reference.best(tick.instrumentId(), side);
                assertEquals(best == null ? NULL_PRICE : best.price(), tick.price().mantissa(), where);
                assertEquals(best == null ? 0 : best.size(), tick.quantity(), where);
                assertEquals(best == null ? 0 : best.orders(), tick.matchOrNewReference(), where);
            }

            for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
            {
                for (int side = BookSide.BID; side <= BookSide.ASK; side++)
                {
                    final int index = instrument * 2 + side;
                    final ReferenceBook.Level best = reference.best(instrument, side);
                    final boolean moved = !sameTop(previousBest[index], best);
                    assertEquals(moved, published[index], where + ", instrument " + instrument + " side " + side);
                    previousBest[index] = best;
                }
            }
        }
        assertEquals(expectedSequence, normalizer.nextGatewaySequence());
        System.out.println("top-of-book ticks " + normalizer.topOfBookCount() + ", crossed ticks " + crossedTicks);
        assertTrue(normalizer.topOfBookCount() > MESSAGES / 10, "the flow should move the top of book often");
        assertTrue(crossedTicks > 0, "the flow should cross books now and then");
    }

    private static boolean sameTop(final ReferenceBook.Level before, final ReferenceBook.Level after)
    {
        if (before == null || after == null)
        {
            return Objects.equals(before, after);
        }
        return before.price() == after.price() && before.size() == after.size();
    }
}
