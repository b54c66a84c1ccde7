package io.mdgate.core.tick;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.DepthDiff;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.book.SeededOrderFlow;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The normalizer's LEVEL ticks against the reference emitter ({@link DepthDiff}, which compares the book's top D
 * before and after every message): the same ticks in the same order, placed after the event's own tick and before
 * its top-of-book ticks, over long seeded flows with deep books, replaces and executions, for windows of one level,
 * a few, and more than the deepest side.
 */
@Timeout(120)
class NormalizerDepthTest
{
    private static final int INSTRUMENTS = 4;
    private static final int MESSAGES = 40_000;

    @ParameterizedTest(name = "seed {0}, D {1}")
    @CsvSource({ "3, 1", "3, 2", "2024, 5", "77, 7", "99999, 64" })
    void shouldPublishExactlyTheLevelTicksTheReferenceDerivesFromTheBook(final long seed, final int depth)
    {
        final SeededOrderFlow flow = new SeededOrderFlow(seed, INSTRUMENTS, 600);
        final OrderBooks books = new OrderBooks(
            new BookContext().maxOrders(2048).maxLevels(2048).maxInstruments(8).referenceWindow(1024));
        final RecordingTickHandler ticks = new RecordingTickHandler();
        final Normalizer normalizer = new Normalizer(books, new ExchangeClock(LocalDate.of(2024, 6, 3)), ticks, 1)
            .depthLevels(depth);
        final DepthDiff reference = new DepthDiff(depth, 8);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        long levelTicks = 0;
        long removals = 0;
        int deepest = 0;

        for (int i = 0; i < MESSAGES; i++)
        {
            final int length = flow.next(buffer, 0);
            final int first = ticks.size();
            decoder.decode(buffer, 0, length, normalizer);
            final String where = "seed " + seed + ", D " + depth + ", message " + i + " ('" +
                (char)buffer.getByte(0) + "')";

            final List<DepthDiff.Level> expected = books.lastInstrument() == OrderBooks.NONE ?
                List.of() : reference.diff(books, books.lastInstrument());
            final List<DepthDiff.Level> actual = new ArrayList<>();
            assertNotEquals(EventType.LEVEL, ticks.tick(first).eventType(), where);
            boolean topSeen = false;
            for (int t = first + 1; t < ticks.size(); t++)
            {
                final TickDecoder tick = ticks.tick(t);
                if (tick.eventType() == EventType.TOP_OF_BOOK)
                {
                    topSeen = true;
                    continue;
                }
                assertEquals(EventType.LEVEL, tick.eventType(), where);
                assertTrue(!topSeen, where + ": a LEVEL tick after a top-of-book tick");
                actual.add(new DepthDiff.Level(tick.instrumentId(), tick.side() == Side.BUY ? 'B' : 'S',
                    tick.price().mantissa(), tick.quantity(), tick.matchOrNewReference(),
                    (int)tick.orderReference()));
            }
            assertEquals(expected, actual, where);
            levelTicks += actual.size();
            for (final DepthDiff.Level level : actual)
            {
                removals += level.quantity() == 0 ? 1 : 0;
            }
            for (int instrument = 1; instrument <= INSTRUMENTS; instrument++)
            {
                deepest = Math.max(deepest, Math.max(books.levelCount(instrument, 0), books.levelCount(instrument, 1)));
            }
        }
        assertEquals(levelTicks, normalizer.levelCount());
        assertTrue(removals > 100, "the flow removes levels from the window: " + removals);
        assertTrue(deepest > depth || depth == 64, "the books are deeper than the window: " + deepest);
    }

    @ParameterizedTest(name = "D {0}")
    @CsvSource({ "1", "10", "40" })
    void shouldMatchTheReferenceOnASimulatedDayWithDeepBooks(final int depth)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(new SimulationConfig().seed(11)
            .instruments(20).messages(150_000).ordersPerInstrument(300).priceLevels(512).farOrderShare(0.3)
            .farOrderLevels(200).conclude());
        final OrderBooks books = new OrderBooks(
            new BookContext().maxOrders(1 << 14).maxLevels(1 << 13).maxInstruments(32).referenceWindow(1 << 12));
        final RecordingTickHandler ticks = new RecordingTickHandler();
        final Normalizer normalizer = new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), ticks, 1)
            .depthLevels(depth);
        final DepthDiff reference = new DepthDiff(depth, 32);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        int length;
        int deepest = 0;
        long pushedOut = 0;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            ticks.clear();
            decoder.decode(buffer, 0, length, normalizer);
            final List<DepthDiff.Level> expected = books.lastInstrument() == OrderBooks.NONE ?
                List.of() : reference.diff(books, books.lastInstrument());
            final List<DepthDiff.Level> actual = new ArrayList<>();
            for (int t = 0; t < ticks.size(); t++)
            {
                final TickDecoder tick = ticks.tick(t);
                if (tick.eventType() == EventType.LEVEL)
                {
                    actual.add(new DepthDiff.Level(tick.instrumentId(), tick.side() == Side.BUY ? 'B' : 'S',
                        tick.price().mantissa(), tick.quantity(), tick.matchOrNewReference(),
                        (int)tick.orderReference()));
                }
            }
            assertEquals(expected, actual, "message " + generator.messagesGenerated());
            for (final DepthDiff.Level level : actual)
            {
                pushedOut += level.quantity() == 0 && level.depth() == depth ? 1 : 0;
            }
            if (books.lastInstrument() != OrderBooks.NONE)
            {
                deepest = Math.max(deepest, books.levelCount(books.lastInstrument(), books.lastSide()));
            }
        }
        assertTrue(deepest > 2 * depth, "deep books: " + deepest);
        assertTrue(pushedOut > 10, "levels pushed out of the window: " + pushedOut);
    }

    @Test
    void shouldPublishNoLevelTicksByDefault()
    {
        final SeededOrderFlow flow = new SeededOrderFlow(5, INSTRUMENTS, 200);
        final OrderBooks books = new OrderBooks(
            new BookContext().maxOrders(1024).maxLevels(1024).maxInstruments(8).referenceWindow(1024));
        final RecordingTickHandler ticks = new RecordingTickHandler();
        final Normalizer normalizer = new Normalizer(books, new ExchangeClock(LocalDate.of(2024, 6, 3)), ticks, 1);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < 5_000; i++)
        {
            decoder.decode(buffer, 0, flow.next(buffer, 0), normalizer);
        }
        for (int t = 0; t < ticks.size(); t++)
        {
            assertNotEquals(EventType.LEVEL, ticks.tick(t).eventType());
        }
        assertEquals(0, normalizer.levelCount());
        assertTrue(ticks.size() > 5_000);
    }

    @Test
    void shouldRefuseADepthOutsideItsRange()
    {
        final Normalizer normalizer = new Normalizer(new OrderBooks(new BookContext().maxOrders(8).maxLevels(8)
            .maxInstruments(2).referenceWindow(1024)), new ExchangeClock(LocalDate.of(2024, 6, 3)), new RecordingTickHandler(), 1);

        assertEquals("depth levels must be between 0 and 64, was 65",
            assertThrows(IllegalArgumentException.class, () -> normalizer.depthLevels(65)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> normalizer.depthLevels(-1));
    }
}
