package io.mdgate.consumerc;

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
 * and the top of book it reads at the end the last one published.
 */
class CppWrapperTest
{
    private static final long LAST = 5_000;
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

    @Test
    void shouldConsumeAndDecodeTicksThroughTheCppWrapper() throws Exception
    {
        harness = new PublisherHarness(ShmInstance.context(ShmInstance.unique()), List.of("cpp"),
            context -> context.heartbeatTimeoutNanos(TimeUnit.SECONDS.toNanos(30)));
        final java.nio.file.Path program = NativeBuild.nativeRoot().resolve("test/bin/mdgate-consume-cpp");
        assertTrue(Files.isExecutable(program), program + " is built by the compile phase (CXX_CHECK)");
        process = new NativeProcess("cpp", NativeBuild.RELEASE, List.of(program.toString(),
            "instance=" + harness.shm().instance(), "name=cpp", "token=cpp" + PublisherHarness.TOKEN_SUFFIX,
            "instruments=1,2,3", "until=" + LAST));
        process.awaitLine(true, line -> line.contains("ready"), 60, "ready");

        final List<String> expected = new ArrayList<>();
        for (long sequence = 1; sequence <= LAST; sequence++)
        {
            final UnsafeBuffer tick = tick(sequence);
            harness.publish(tick);
            final int instrument = tick.getShort(TickLayout.INSTRUMENT_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (instrument == 0 || Set.of(1, 2, 3).contains(instrument))
            {
                expected.add(line(tick));
            }
        }
        assertEquals(0, process.awaitExit(60), process.err().toString());
        final List<String> out = process.out();
        assertEquals(expected, out.subList(0, out.size() - 4));
        assertEquals("TOB 1 1 " + (1_000_000 + 4_950) + " " + TopOfBookDescriptor.NULL_PRICE, out.get(out.size() - 4));
        assertEquals("DONE", out.get(out.size() - 1));
    }
}
