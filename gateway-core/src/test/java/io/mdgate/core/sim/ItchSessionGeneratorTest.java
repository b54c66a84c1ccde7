package io.mdgate.core.sim;

import io.mdgate.core.itch.CrossTradeFlyweight;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.itch.StockTradingActionFlyweight;
import io.mdgate.core.itch.SystemEventFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ItchSessionGeneratorTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));

    private static SimulationConfig config(final long seed, final int instruments, final long messages)
    {
        return new SimulationConfig().seed(seed).instruments(instruments).messages(messages);
    }

    /** Runs a whole session, decoding every message into the handler; returns the decoder for its counters. */
    private ItchMessageDecoder run(final ItchSessionGenerator generator, final ItchMessageHandler handler)
    {
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        int length;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            decoder.decode(buffer, 0, length, handler);
        }
        return decoder;
    }

    private long digest(final SimulationConfig config)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config);
        final CRC32 crc = new CRC32();
        final byte[] bytes = new byte[64];
        int length;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            buffer.getBytes(0, bytes, 0, length);
            crc.update(bytes, 0, length);
        }
        return crc.getValue();
    }

    @Test
    void shouldWriteTheSameBytesForTheSameSeedAndDifferentBytesForAnother()
    {
        final long first = digest(config(7, 50, 200_000));
        assertEquals(first, digest(config(7, 50, 200_000)));
        assertNotEquals(first, digest(config(8, 50, 200_000)));
    }

    @Test
    void shouldProduceEveryOneOfThe23TypesInAMillionMessagesThatAllDecode()
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config(1, 100, 1_000_000));
        final long[] decoded = new long[256];
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        int length;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, 0, length, new ItchMessageHandler()
            {
            }));
            decoded[buffer.getByte(0) & 0xFF]++;
        }

        assertEquals(1_000_000, generator.messagesGenerated());
        assertEquals(0, decoder.malformedCount());
        assertEquals(23, generator.typesSeen());
        long total = 0;
        for (final byte type : ItchMessageType.ALL)
        {
            assertTrue(generator.count(type) > 0, "no '" + (char)type + "' messages");
            assertEquals(decoded[type & 0xFF], generator.count(type), "count of '" + (char)type + "'");
            total += generator.count(type);
        }
        assertEquals(1_000_000, total);
        assertEquals(0, generator.next(buffer, 0));
    }

    @Test
    void shouldLetAddsDominateThenDeletes()
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config(3, 100, 300_000));
        while (generator.next(buffer, 0) > 0)
        {
            generator.messagesGenerated();
        }
        final long adds = generator.count((byte)'A') + generator.count((byte)'F');
        final long deletes = generator.count((byte)'D');
        assertTrue(adds > deletes, adds + " adds vs " + deletes + " deletes");
        for (final byte type : new byte[]{ 'U', 'E', 'X', 'C', 'P' })
        {
            assertTrue(deletes > generator.count(type), "deletes vs '" + (char)type + "'");
        }
        assertTrue(generator.count((byte)'E') > generator.count((byte)'C'));
    }

    @Test
    void shouldProduceEveryTypeEvenInAShortSession()
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config(11, 20, 5_000));
        final ItchMessageDecoder decoder = run(generator, new ItchMessageHandler()
        {
        });
        assertEquals(5_000, decoder.decodedCount());
        assertEquals(23, generator.typesSeen());
    }

    @Test
    void shouldOnlyReferenceLiveOrdersAndKeepEveryBookUncrossed()
    {
        final SessionChecker checker = new SessionChecker();
        final ItchSessionGenerator generator = new ItchSessionGenerator(config(5, 40, 1_000_000));
        final ItchMessageDecoder decoder = run(generator, checker);

        assertEquals(List.of(), checker.violations);
        assertEquals(1_000_000, checker.messages);
        assertEquals(0, decoder.malformedCount());
        assertTrue(checker.crossedChecks > 400_000);
        assertTrue(checker.liveOrders() > 40 * 20, "books stay populated: " + checker.liveOrders());
        assertEquals(40, checker.directory.size());
        checker.tradingState.forEach((locate, state) -> assertEquals('T', (char)state, "locate " + locate));
    }

    @Test
    void shouldFollowTheTradingDayWithNonDecreasingTimestamps()
    {
        final List<Character> systemEvents = new ArrayList<>();
        final long[] openAt = { -1 };
        final SessionChecker checker = new SessionChecker()
        {
            @Override
            public void onSystemEvent(final SystemEventFlyweight m)
            {
                super.onSystemEvent(m);
                systemEvents.add(m.eventCode());
                if (m.eventCode() == 'Q')
                {
                    openAt[0] = m.timestamp();
                }
            }
        };
        run(new ItchSessionGenerator(config(2, 30, 50_000)), checker);

        assertEquals(List.of('O', 'S', 'Q', 'M', 'E', 'C'), systemEvents);
        assertEquals(SimulationConfig.MARKET_OPEN_NANOS, openAt[0]);
        assertEquals(List.of(), checker.violations);
    }

    @Test
    void shouldResumeEveryHaltedInstrumentAfterAHaltCross()
    {
        final int instruments = 25;
        final List<String> actions = new ArrayList<>();
        final SessionChecker checker = new SessionChecker()
        {
            @Override
            public void onStockTradingAction(final StockTradingActionFlyweight m)
            {
                super.onStockTradingAction(m);
                actions.add(m.stockLocate() + ":" + m.tradingState());
            }

            @Override
            public void onCrossTrade(final CrossTradeFlyweight m)
            {
                super.onCrossTrade(m);
                if (m.crossType() == 'H')
                {
                    actions.add(m.stockLocate() + ":cross");
                }
            }
        };
        run(new ItchSessionGenerator(config(4, instruments, 400_000).eventIntervalMessages(2_000)), checker);

        final List<String> halts = actions.subList(instruments, actions.size());
        assertTrue(halts.size() >= 12, "halts seen: " + halts);
        for (int i = 0; i < halts.size(); )
        {
            final String locate = halts.get(i).split(":")[0];
            final boolean luld = halts.get(i).endsWith(":P");
            final List<String> expected = luld ?
                List.of(locate + ":P", locate + ":cross", locate + ":T") :
                List.of(locate + ":H", locate + ":Q", locate + ":cross", locate + ":T");
            assertEquals(expected, halts.subList(i, Math.min(halts.size(), i + expected.size())));
            i += expected.size();
        }
        assertEquals(List.of(), checker.violations);
        checker.tradingState.forEach((locate, state) -> assertEquals('T', (char)state, "locate " + locate));
    }

    @Test
    void shouldRunAtTheSteadyRateAndFasterInTheOpeningBurst()
    {
        final long steady = flowDuration(new SimulationConfig().seed(9).instruments(10).messages(200_000)
            .messagesPerSecond(100_000));
        final long burst = flowDuration(new SimulationConfig().seed(9).instruments(10).messages(200_000)
            .messagesPerSecond(100_000).rateProfile(RateProfile.OPENING_BURST).burstMultiplier(10)
            .burstDecayNanos(TimeUnit.SECONDS.toNanos(1)));

        final double flowMessages = 200_000 - SimulationConfig.fixedMessages(10) + 10;
        assertEquals(flowMessages / 100_000 * 1e9, steady, 0.02e9);
        // Messages by time T under rate r(1 + 9e^(-t/1s)) are r(T + 9(1 - e^(-T))): solve for the flow's count.
        double low = 0;
        double high = 10;
        for (int i = 0; i < 60; i++)
        {
            final double mid = (low + high) / 2;
            final double count = 100_000 * (mid + 9 * (1 - Math.exp(-mid)));
            low = count < flowMessages ? mid : low;
            high = count < flowMessages ? high : mid;
        }
        assertEquals(low * 1e9, burst, low * 1e9 * 0.05, "burst flow duration");
    }

    private long flowDuration(final SimulationConfig config)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config);
        while (generator.next(buffer, 0) > 0)
        {
            if (buffer.getByte(0) == 'S' && buffer.getByte(11) == 'M')
            {
                return generator.timestamp() - SimulationConfig.MARKET_OPEN_NANOS;
            }
        }
        return -1;
    }

    @Test
    void shouldNotAllocateWhileGenerating()
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config(6, 100, 3_000_000));
        for (int i = 0; i < 500_000; i++)
        {
            generator.next(buffer, 0);
        }
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long threadId = Thread.currentThread().getId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        long lengths = 0;
        for (int i = 0; i < 1_000_000; i++)
        {
            lengths += generator.next(buffer, 0);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;

        assertTrue(lengths > 19_000_000);
        assertEquals(0, allocated, "bytes allocated over 1,000,000 messages");
    }

    @Test
    void shouldStartWithTheMarketWideEventsAndTheDirectory()
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(config(1, 3, 1_000));
        final byte[] expected = { 'S', 'V', 'R', 'H', 'Y', 'L', 'L', 'R', 'H', 'Y', 'L', 'L', 'R', 'H', 'Y', 'L', 'L',
            'S', 'I', 'I', 'I', 'S', 'Q', 'Q', 'Q' };
        final byte[] actual = new byte[expected.length];
        for (int i = 0; i < expected.length; i++)
        {
            generator.next(buffer, 0);
            actual[i] = buffer.getByte(0);
        }
        assertArrayEquals(expected, actual);
        assertEquals(3, generator.count((byte)'R'));
        assertTrue(generator.symbol(1).compareTo(generator.symbol(2)) < 0, "locates follow the alphabet");
    }
}
