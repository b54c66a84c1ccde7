package io.mdgate.consumerc;

import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.protocol.TopOfBookDescriptor;
import io.mdgate.egress.support.PublisherHarness;
import io.mdgate.egress.support.Ticks;
import io.mdgate.egress.transport.shm.ShmInstance;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The C++ wrapper (mdgate/consumer.hpp) and the SBE C++ codec generated from the schema, at work: the build compiles
 * src/test/cpp/mdgate-consume-cpp.cpp with -Wall -Wextra -Werror, and here it consumes instruments 1, 2 and 3 from a
 * publisher, decoding each tick in place with mdgate::sbe::Tick; every field it printed must be the one published,
 * the top of book it reads at the end the last one published, and the depth it reads (L = 5 of the publisher's
 * D = 10) the top 5 levels per side of a DepthBook fed the same LEVEL ticks.
 */
class CppWrapperTest
{
    private static final long LAST = 5_000;
    private static final int DEPTH = 5; // the consumer's L; the publisher keeps D = 10, so the table holds the top 5
    private static final byte EVENT_LEVEL = (byte)EventType.LEVEL.value();
    private PublisherHarness harness;
    private NativeProcess process;

    @AfterEach
    void tearDown()
    {
        if (null != process)
        {
            process.close();
        }
        if (null != harness)
        {
            harness.close();
        }
    }

    private static UnsafeBuffer tick(final long sequence)
    {
        final int instrument = (int)(sequence % 10) + 1;
        if (sequence == LAST)
        {
            return Ticks.systemEvent(sequence, 'C');
        }
        if (sequence % 50 == 0)
        {
            return Ticks.topOfBook(sequence, instrument, Side.BUY, 1_000_000 + (int)sequence, 300, 3);
        }
        if (sequence % 7 == 3)
        {
            // levels come and go: 13 prices a side, a size of 0 removes the price's level
            final long k = sequence / 10; // varies for each instrument's own sequences
            return Ticks.level(sequence, instrument, k % 2 == 0 ? Side.BUY : Side.SELL,
                1_000_000 + (int)(k % 13) * 100, k % 5 * 100, k % 3 + 1, 0);
        }
        return Ticks.add(sequence, instrument, 0);
    }

    private static String line(final UnsafeBuffer tick)
    {
        return tick.getLong(TickLayout.GATEWAY_SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN) + " " +
            (tick.getShort(TickLayout.INSTRUMENT_ID_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF) + " " +
            tick.getByte(TickLayout.EVENT_TYPE_OFFSET) + " " +
            tick.getInt(TickLayout.PRICE_OFFSET, ByteOrder.LITTLE_ENDIAN) + " " +
            (tick.getInt(TickLayout.QUANTITY_OFFSET, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL);
    }

    /** @return the line the program prints for a book of {@link #DEPTH} levels: the top of the 10-level book. */
    private static String depthLine(final int instrument, final DepthBook book)
    {
        final int bids = Math.min(DEPTH, book.levels(DepthBook.BID));
        final int asks = Math.min(DEPTH, book.levels(DepthBook.ASK));
        final StringBuilder line = new StringBuilder("DEPTH " + instrument + " 1 " + bids + " " + asks);
        for (final int side : new int[] {DepthBook.BID, DepthBook.ASK})
        {
            for (int i = 0; i < (side == DepthBook.BID ? bids : asks); i++)
            {
                line.append(' ').append(book.price(side, i)).append(' ').append(book.quantity(side, i)).append(' ')
                    .append(book.orders(side, i));
            }
        }
        return line.toString();
    }

    @Test
    void shouldConsumeAndDecodeTicksThroughTheCppWrapper() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("cpp"),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)));
        final java.nio.file.Path program = NativeBuild.nativeRoot().resolve("test/bin/mdgate-consume-cpp");
        assertTrue(Files.isExecutable(program), program + " is built by the compile phase (CXX_CHECK)");
        process = new NativeProcess("cpp", NativeBuild.RELEASE, List.of(program.toString(),
            "instance=" + harness.shm().instance(), "name=cpp", "token=cpp" + PublisherHarness.TOKEN_SUFFIX,
            "instruments=1,2,3", "until=" + LAST, "depth=" + DEPTH));
        process.awaitLine(true, line -> line.contains("ready"), 60, "ready");

        final List<String> expected = new ArrayList<>();
        final DepthBook[] books = {new DepthBook(10), new DepthBook(10), new DepthBook(10), new DepthBook(10)};
        for (long sequence = 1; sequence <= LAST; sequence++)
        {
            final UnsafeBuffer tick = tick(sequence);
            harness.publish(tick);
            final int instrument = tick.getShort(TickLayout.INSTRUMENT_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (instrument == 0 || Set.of(1, 2, 3).contains(instrument))
            {
                expected.add(line(tick));
            }
            if (instrument >= 1 && instrument <= 3 && tick.getByte(TickLayout.EVENT_TYPE_OFFSET) == EVENT_LEVEL)
            {
                books[instrument].apply(tick, 0);
            }
        }
        assertEquals(0, process.awaitExit(60), process.err().toString());
        final List<String> out = process.out();
        assertEquals(expected, out.subList(0, out.size() - 7));
        assertEquals("TOB 1 1 " + (1_000_000 + 4_950) + " " + TopOfBookDescriptor.NULL_PRICE, out.get(out.size() - 7));
        for (int instrument = 1; instrument <= 3; instrument++)
        {
            final String depth = out.get(out.size() - 7 + 2 * instrument - 1);
            assertEquals(depthLine(instrument, books[instrument]), depth);
            assertTrue(depth.split(" ").length > 10, "the book has levels on both sides: " + depth);
        }
        assertEquals("DONE", out.get(out.size() - 1));
    }
}
