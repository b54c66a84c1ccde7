package io.mdgate.core.tick;

import io.mdgate.core.book.InstrumentDirectory;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class SymbolDirectoryTest
{
    private static final int TICKS_PER_ROUND = 60_000;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[TickEncoder.BLOCK_LENGTH]);
    private final TickEncoder encoder = new TickEncoder();

    @Test
    void shouldNameEachInstrumentFromItsInstrumentTickAndForgetThemAllAtASessionTick()
    {
        final SymbolDirectory directory = new SymbolDirectory();
        directory.onTick(tick(EventType.SESSION, 0, 0, 1), 0);
        directory.onTick(tick(EventType.INSTRUMENT, 3, Alpha.pack8("AAPL"), 1), 0);
        directory.onTick(tick(EventType.INSTRUMENT, 65_535, Alpha.pack8("ZZZZ"), 1), 0);
        directory.onTick(tick(EventType.ADD, 4, 77, 1), 0);

        assertEquals(Alpha.pack8("AAPL"), directory.symbol(3));
        assertEquals(Alpha.pack8("ZZZZ"), directory.symbol(65_535));
        assertEquals(InstrumentDirectory.NO_SYMBOL, directory.symbol(4), "an ADD names nothing");
        assertEquals(InstrumentDirectory.NO_SYMBOL, directory.symbol(65_536));
        assertEquals(2, directory.named());

        directory.onTick(tick(EventType.INSTRUMENT, 3, Alpha.pack8("MSFT"), 1), 0);
        assertEquals(Alpha.pack8("MSFT"), directory.symbol(3), "a later Stock Directory renames");
        assertEquals(2, directory.named());

        directory.onTick(tick(EventType.SESSION, 0, 0, 2), 0);
        assertEquals(InstrumentDirectory.NO_SYMBOL, directory.symbol(3), "a new session reuses stock locates");
        assertEquals(InstrumentDirectory.NO_SYMBOL, directory.symbol(65_535));
        assertEquals(0, directory.named());
        assertEquals(2, directory.sessionChanges());
    }

    @Test
    void shouldWriteTheSymbolWithoutTrailingSpacesAndEscapedAsJson()
    {
        final SymbolDirectory directory = new SymbolDirectory();
        final TickJson json = new TickJson(directory);
        directory.onTick(tick(EventType.INSTRUMENT, 5, Alpha.pack8("BRK A"), 1), 0);
        directory.onTick(tick(EventType.INSTRUMENT, 6, Alpha.pack8("A\"B\\C\u0001"), 1), 0);

        assertTrue(json.format(tick(EventType.ADD, 5, 1, 1), 0).contains("\"instrument\":5,\"symbol\":\"BRK A\","),
            json.format(buffer, 0));
        assertTrue(json.format(tick(EventType.ADD, 6, 1, 1), 0)
            .contains("\"symbol\":\"A\\\"B\\\\C\\u0001\","), json.format(buffer, 0));
        assertTrue(json.format(tick(EventType.ADD, 7, 1, 1), 0).contains("\"symbol\":null,"),
            json.format(buffer, 0));
    }

    /**
     * Per tick, not one byte: every measured round of 60,000 ticks allocates less than a byte a tick (the smallest
     * object is 16), which leaves room for what the JIT may allocate once on the thread while it compiles.
     */
    @Test
    void shouldFeedTheDirectoryAndWriteJsonLinesWithoutAllocatingPerTick()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "the JVM cannot measure thread allocation");
        threads.setThreadAllocatedMemoryEnabled(true);
        final SymbolDirectory directory = new SymbolDirectory();
        final TickJson json = new TickJson(directory);
        final StringBuilder line = new StringBuilder(512);
        final long thread = Thread.currentThread().getId();

        long length = 0;
        for (int round = 0; round < 3; round++)
        {
            length += writeLines(directory, json, line);
        }
        for (int round = 0; round < 3; round++)
        {
            final long before = threads.getThreadAllocatedBytes(thread);
            length += writeLines(directory, json, line);
            final long allocated = threads.getThreadAllocatedBytes(thread) - before;
            assertTrue(allocated < TICKS_PER_ROUND, allocated + " bytes allocated writing " + TICKS_PER_ROUND +
                " ticks in round " + round);
        }
        assertTrue(length > 6L * TICKS_PER_ROUND * 200, "lines written: " + length + " characters");
    }

    private long writeLines(final SymbolDirectory directory, final TickJson json, final StringBuilder line)
    {
        final long symbol = Alpha.pack8("SYM");
        long length = 0;
        for (int i = 0; i < TICKS_PER_ROUND / 3; i++)
        {
            length += write(directory, json, line, tick(EventType.INSTRUMENT, i % 500, symbol, 1));
            length += write(directory, json, line, tick(EventType.ADD, i % 500, 100_000 + i, 1));
            length += write(directory, json, line, tick(EventType.TOP_OF_BOOK, i % 700, 0, 1));
        }
        return length;
    }

    private static int write(
        final SymbolDirectory directory, final TickJson json, final StringBuilder line, final UnsafeBuffer tick)
    {
        directory.onTick(tick, 0);
        line.setLength(0);
        return json.appendTo(tick, 0, line).length();
    }

    private UnsafeBuffer tick(final EventType type, final int instrument, final long orderReference, final int session)
    {
        encoder.wrap(buffer, 0).gatewaySequence(orderReference + 1).exchangeSequence(9)
            .exchangeTimestamp(1_735_828_200_000_000_000L).receiveTimestamp(1_735_828_200_000_000_500L)
            .orderReference(orderReference).matchOrNewReference(0).quantity(100).instrumentId(instrument)
            .sessionId(session).eventType(type).side(Side.BUY).price().mantissa(1_500_005);
        return buffer;
    }
}
