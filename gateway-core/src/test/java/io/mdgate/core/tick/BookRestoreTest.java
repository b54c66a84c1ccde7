package io.mdgate.core.tick;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A normalizer restored from the ticks of the first k-1 messages of a simulated day, then given messages k..N,
 * must publish exactly the ticks an uninterrupted normalizer publishes for them; without the restore it does not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SAME_THREAD)
class BookRestoreTest
{
    private static final int MESSAGES = 120_000;
    private static Day day;

    @BeforeAll
    static void generate()
    {
        day = Day.generate(new SimulationConfig().seed(11).instruments(40).messages(MESSAGES));
    }

    @Test
    void shouldContinueWithTheTicksOfAnUninterruptedNormalizerAfterARestoreAtAnyMessage()
    {
        final RecordingTickHandler whole = day.normalize(1, MESSAGES, null);
        for (final long k : new long[] { 2, 150, 20_000, 61_234, 100_001, MESSAGES - 5 })
        {
            final int cut = firstTickOf(whole, k);
            final RecordingTickHandler rest = new RecordingTickHandler();
            final Normalizer normalizer = day.normalizer(rest, whole.tick(cut).gatewaySequence());
            final BookRestore restore = new BookRestore(normalizer);
            for (int i = 0; i < cut; i++)
            {
                restore.onTick(whole.tick(i).buffer(), 0);
            }
            assertEquals(0, rest.size(), "a restore publishes nothing");
            day.feed(normalizer, k, MESSAGES);

            assertEquals(whole.size() - cut, rest.size(), "ticks from message " + k);
            for (int i = 0; i < rest.size(); i++)
            {
                final TickDecoder expected = whole.tick(cut + i);
                final TickDecoder actual = rest.tick(i);
                if (!Arrays.equals(expected.buffer().byteArray(), actual.buffer().byteArray()))
                {
                    assertEquals(expected.toString(), actual.toString(), "tick " + i + " after a restore at " + k);
                }
            }
            assertEquals(0, restore.topOfBookMismatches(), "every journaled top of book matches the rebuilt book");
            assertEquals(0, restore.inexactTicks());
            assertTrue(k < 1_000 || restore.orderEvents() > 1_000, "the restore applied the order events");
        }
    }

    @Test
    void shouldPublishOtherTicksWhenTheBooksAreNotRestored()
    {
        final RecordingTickHandler whole = day.normalize(1, MESSAGES, null);
        final long k = 61_234;
        final int cut = firstTickOf(whole, k);
        final RecordingTickHandler rest = day.normalize(k, MESSAGES, whole.tick(cut).gatewaySequence());

        int differing = 0;
        int unknown = 0;
        for (int i = 0; i < Math.min(rest.size(), whole.size() - cut); i++)
        {
            differing += whole.tick(cut + i).toString().equals(rest.tick(i).toString()) ? 0 : 1;
            unknown += rest.tick(i).flags().unknownOrder() ? 1 : 0;
        }
        assertTrue(differing > 1_000 && unknown > 1_000, differing + " ticks differ, " + unknown + " unknown orders");
    }

    @Test
    void shouldRestoreTheInstrumentDirectoryAndEmptyTheBooksAtASessionTick()
    {
        final RecordingTickHandler whole = day.normalize(1, 30_000, null);
        final Normalizer normalizer = day.normalizer(new RecordingTickHandler(), 1);
        final BookRestore restore = new BookRestore(normalizer);
        for (int i = 0; i < whole.size(); i++)
        {
            restore.onTick(whole.tick(i).buffer(), 0);
        }
        final OrderBooks books = normalizer.books();
        assertEquals(40, books.instruments().registered());
        assertEquals(day.generator.symbol(7), books.instruments().symbolText(7));
        assertTrue(books.orderCount() > 100, books.orderCount() + " orders");

        final UnsafeBuffer session = new UnsafeBuffer(new byte[TickEncoder.BLOCK_LENGTH]);
        new TickEncoder().wrap(session, 0).eventType(EventType.SESSION).sessionId(2).exchangeSequence(1);
        restore.onTick(session, 0);
        assertEquals(0, books.orderCount());
        assertEquals(0, books.instruments().registered());
        assertEquals(1, restore.sessions());
    }

    @Test
    void shouldLeaveOutEveryTickAfterTheLastSequenceItWasGiven()
    {
        final RecordingTickHandler whole = day.normalize(1, 30_000, null);
        final Normalizer upTo = day.normalizer(new RecordingTickHandler(), 1);
        final Normalizer all = day.normalizer(new RecordingTickHandler(), 1);
        final BookRestore partial = new BookRestore(upTo).upTo(whole.tick(20_000).gatewaySequence());
        final BookRestore complete = new BookRestore(all);
        for (int i = 0; i < whole.size(); i++)
        {
            partial.onTick(whole.tick(i).buffer(), 0);
            if (i <= 20_000)
            {
                complete.onTick(whole.tick(i).buffer(), 0);
            }
        }
        assertEquals(20_001, partial.ticks());
        assertEquals(complete.orderEvents(), partial.orderEvents());
        assertEquals(all.books().orderCount(), upTo.books().orderCount());
    }

    @Test
    void shouldCountATopOfBookTickTheRebuiltBookDisagreesWith()
    {
        final RecordingTickHandler whole = day.normalize(1, 30_000, null);
        final BookRestore restore = new BookRestore(day.normalizer(new RecordingTickHandler(), 1));
        int dropped = -1;
        for (int i = 0; i < whole.size(); i++)
        {
            final TickDecoder tick = whole.tick(i);
            if (dropped < 0 && i > 10_000 && tick.eventType() == EventType.ADD)
            {
                dropped = i;
                continue;
            }
            restore.onTick(whole.tick(i).buffer(), 0);
        }
        assertNotEquals(0, restore.topOfBookMismatches(), "an add left out of the rebuild shows");
    }

    @Test
    void shouldPublishTheTopOfBookATornMessageLostWithTheNextEventOfItsInstrument()
    {
        final RecordingTickHandler whole = day.normalize(1, MESSAGES, null);
        int torn = 50_000;
        while (!(isOrderEvent(whole.tick(torn)) && !whole.tick(torn).flags().lastInMessage() &&
            whole.tick(torn + 1).eventType() == EventType.TOP_OF_BOOK))
        {
            torn++;
        }
        final TickDecoder lost = whole.tick(torn + 1);
        final int instrument = lost.instrumentId();
        final long k = lost.exchangeSequence() + 1;
        final RecordingTickHandler rest = new RecordingTickHandler();
        final Normalizer normalizer = day.normalizer(rest, lost.gatewaySequence());
        final BookRestore restore = new BookRestore(normalizer);
        for (int i = 0; i <= torn; i++)
        {
            restore.onTick(whole.tick(i).buffer(), 0);
        }
        day.feed(normalizer, k, MESSAGES);

        int next = torn + 2;
        while (!(isOrderEvent(whole.tick(next)) && whole.tick(next).instrumentId() == instrument))
        {
            next++;
        }
        final long m = whole.tick(next).exchangeSequence();
        assertEquals(lastTopOfBook(whole, instrument, lost.side(), m), lastTopOfBook(rest, instrument, lost.side(), m),
            "the top of book the torn message lost is published with the instrument's next event, message " + m);
        final int fromWhole = firstTickOf(whole, m + 1);
        final int fromRest = firstTickOf(rest, m + 1);
        assertEquals(whole.size() - fromWhole, rest.size() - fromRest);
        for (int i = 0; i < rest.size() - fromRest; i++)
        {
            assertEquals(withoutGatewaySequence(whole.tick(fromWhole + i)), withoutGatewaySequence(rest.tick(fromRest + i)),
                "tick " + i + " after message " + m);
        }
    }

    @Test
    void shouldPublishTheLevelTicksATornMessageLostWithTheNextOrderEventOfItsInstrument()
    {
        final int depth = 5;
        final RecordingTickHandler whole = new RecordingTickHandler();
        day.feed(day.normalizer(whole, 1).depthLevels(depth), 1, MESSAGES);
        int torn = 40_000;
        while (!(isOrderEvent(whole.tick(torn)) && whole.tick(torn + 1).eventType() == EventType.LEVEL &&
            whole.tick(torn + 2).eventType() == EventType.LEVEL))
        {
            torn++;
        }
        torn++;
        final long k = whole.tick(torn).exchangeSequence() + 1;
        final RecordingTickHandler rest = new RecordingTickHandler();
        int firstLost = torn + 1;
        final Normalizer normalizer = day.normalizer(rest, whole.tick(firstLost).gatewaySequence()).depthLevels(depth);
        final BookRestore restore = new BookRestore(normalizer);
        final DepthBook[] consumer = new DepthBook[64];
        for (int i = 0; i < consumer.length; i++)
        {
            consumer[i] = new DepthBook(depth);
        }
        for (int i = 0; i <= torn; i++)
        {
            restore.onTick(whole.tick(i).buffer(), 0);
            apply(consumer, whole.tick(i));
        }
        assertEquals(0, restore.depthMismatches(), "the journaled LEVEL ticks are the ones the rebuild gives");
        assertTrue(normalizer.pendingDepthTicks() > 0, "the torn message lost LEVEL ticks");
        day.feed(normalizer, k, MESSAGES);
        for (int i = 0; i < rest.size(); i++)
        {
            apply(consumer, rest.tick(i));
        }

        assertEquals(0, normalizer.pendingDepthTicks(), "published with a later order event of the instrument");
        final OrderBooks books = normalizer.books();
        for (int instrument = 1; instrument < 64; instrument++)
        {
            for (int side = 0; side <= 1; side++)
            {
                final int levels = Math.min(depth, books.levelCount(instrument, side));
                assertEquals(levels, consumer[instrument].levels(side), "instrument " + instrument + " side " + side);
                for (int d = 0; d < levels; d++)
                {
                    assertEquals(books.depthPrice(instrument, side, d), consumer[instrument].price(side, d));
                    assertEquals(books.depthSize(instrument, side, d), consumer[instrument].quantity(side, d));
                    assertEquals(books.depthOrderCount(instrument, side, d), consumer[instrument].orders(side, d));
                }
            }
        }
    }

    private static void apply(final DepthBook[] consumer, final TickDecoder tick)
    {
        if (tick.eventType() == EventType.LEVEL)
        {
            consumer[tick.instrumentId()].apply(tick.buffer(), 0);
        }
    }

    private static boolean isOrderEvent(final TickDecoder tick)
    {
        final EventType type = tick.eventType();
        return (type == EventType.ADD || type == EventType.EXECUTE || type == EventType.EXECUTE_WITH_PRICE ||
            type == EventType.CANCEL || type == EventType.DELETE || type == EventType.REPLACE) &&
            !tick.flags().unknownOrder();
    }

    /** @return price, size and order count of the last TOP_OF_BOOK tick of that side up to message m. */
    private static String lastTopOfBook(final RecordingTickHandler ticks, final int instrument,
        final io.mdgate.core.tick.sbe.Side side, final long m)
    {
        String last = "none";
        for (int i = 0; i < ticks.size() && ticks.tick(i).exchangeSequence() <= m; i++)
        {
            final TickDecoder tick = ticks.tick(i);
            if (tick.eventType() == EventType.TOP_OF_BOOK && tick.instrumentId() == instrument && tick.side() == side)
            {
                last = tick.price().mantissa() + " x " + tick.quantity() + " (" + tick.matchOrNewReference() +
                    " orders)";
            }
        }
        return last;
    }

    private static String withoutGatewaySequence(final TickDecoder tick)
    {
        final String text = tick.toString();
        return text.replaceFirst("gatewaySequence=\\d+", "");
    }

    private static int firstTickOf(final RecordingTickHandler ticks, final long exchangeSequence)
    {
        for (int i = 0; i < ticks.size(); i++)
        {
            if (ticks.tick(i).exchangeSequence() >= exchangeSequence)
            {
                return i;
            }
        }
        throw new AssertionError("no tick of message " + exchangeSequence);
    }

    /** A simulated day's messages, kept to be normalized whole or from any message on. */
    static final class Day
    {
        final ItchSessionGenerator generator;
        final UnsafeBuffer messages;
        final int[] offsets;
        final int count;

        private Day(final ItchSessionGenerator generator, final UnsafeBuffer messages, final int[] offsets,
            final int count)
        {
            this.generator = generator;
            this.messages = messages;
            this.offsets = offsets;
            this.count = count;
        }

        static Day generate(final SimulationConfig config)
        {
            final ItchSessionGenerator generator = new ItchSessionGenerator(config);
            final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(
                Math.toIntExact(config.messages() * ItchSessionGenerator.MAX_MESSAGE_LENGTH)));
            final int[] offsets = new int[Math.toIntExact(config.messages()) + 1];
            int count = 0;
            int position = 0;
            int length;
            while ((length = generator.next(buffer, position)) > 0)
            {
                offsets[count++] = position;
                position += length;
            }
            offsets[count] = position;
            return new Day(generator, buffer, offsets, count);
        }

        Normalizer normalizer(final TickHandler handler, final long firstGatewaySequence)
        {
            final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1 << 16).maxLevels(1 << 15)
                .maxInstruments(64));
            return new Normalizer(books, new ExchangeClock(generator.config().sessionDate()), handler,
                firstGatewaySequence).sessionId(1);
        }

        /** Normalizes messages from..to (1-based) with a fresh normalizer starting at that gateway sequence. */
        RecordingTickHandler normalize(final long from, final long to, final Long firstGatewaySequence)
        {
            final RecordingTickHandler ticks = new RecordingTickHandler();
            feed(normalizer(ticks, firstGatewaySequence == null ? 1 : firstGatewaySequence), from, to);
            return ticks;
        }

        void feed(final Normalizer normalizer, final long from, final long to)
        {
            final MessageProcessor processor = new MessageProcessor(normalizer);
            for (long sequence = from; sequence <= Math.min(to, count); sequence++)
            {
                final int at = offsets[(int)sequence - 1];
                processor.process(messages, at, offsets[(int)sequence] - at, sequence);
            }
        }
    }
}
