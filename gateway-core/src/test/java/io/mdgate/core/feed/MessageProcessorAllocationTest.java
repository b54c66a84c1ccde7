package io.mdgate.core.feed;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The steady-state promise of the feed path: once warm, MoldUDP64 packet decode, ITCH decode, the books and the
 * normalizer allocate nothing. A warm-up session and a measured session of one million messages are generated
 * and framed into packets before anything is measured; the measured session runs on fresh books built before
 * the measurement starts.
 */
@Timeout(300)
class MessageProcessorAllocationTest
{
    private static final long MEASURED_MESSAGES = 1_000_000;

    private long tickChecksum;
    private long ticks;

    @ParameterizedTest(name = "depth {0}")
    @ValueSource(ints = { 0, 10 })
    void shouldDecodeBookAndNormalizeAMillionMessagesWithoutAllocatingAByte(final int depth)
    {
        final java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "this JVM cannot count allocated bytes");
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);

        final PregeneratedPackets warmUp = PregeneratedPackets.generate(config(11, 300_000));
        final PregeneratedPackets measured = PregeneratedPackets.generate(config(12, MEASURED_MESSAGES));
        final TickHandler handler = this::onTick;

        final Pipeline warm = new Pipeline(handler, depth);
        warm.replay(warmUp);
        warm.replay(warmUp);
        final Pipeline pipeline = new Pipeline(handler, depth);
        ticks = 0;

        final long before = threads.getCurrentThreadAllocatedBytes();
        final long start = System.nanoTime();
        pipeline.replay(measured);
        final long elapsed = System.nanoTime() - start;
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        System.out.println("MessageProcessorAllocationTest (depth " + depth + "): " + measured.messages() +
            " messages in " +
            measured.packets() + " packets, " + ticks + " ticks, " + allocated + " bytes allocated; informally " +
            Math.round(measured.messages() * 1e9 / elapsed) + " msg/s on this (shared) host");
        assertEquals(MEASURED_MESSAGES, pipeline.processor.messageCount());
        assertEquals(0, pipeline.processor.malformedCount());
        assertEquals(0, pipeline.books.orderCapacityExceededCount() + pipeline.books.levelCapacityExceededCount());
        for (final byte type : ItchMessageType.ALL)
        {
            assertTrue(measured.generator().count(type) > 0, "type '" + (char)type + "' should be measured too");
        }
        assertTrue(ticks > MEASURED_MESSAGES, "every message gives at least one tick");
        assertTrue(tickChecksum != 0);
        assertEquals(depth > 0, pipeline.normalizer.levelCount() > MEASURED_MESSAGES / 4,
            "LEVEL ticks published: " + pipeline.normalizer.levelCount());
        assertEquals(0, allocated, "bytes allocated by the feed path in steady state");
    }

    private void onTick(final DirectBuffer buffer, final int offset)
    {
        ticks++;
        tickChecksum += buffer.getLong(offset + TickEncoder.gatewaySequenceEncodingOffset()) ^
            buffer.getInt(offset + TickEncoder.quantityEncodingOffset());
    }

    private static SimulationConfig config(final long seed, final long messages)
    {
        return new SimulationConfig().seed(seed).instruments(200).messages(messages);
    }

    /** Packet decoder, message processor, books and normalizer, as the gateway wires them. */
    private static final class Pipeline
    {
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(1 << 17).maxLevels(1 << 16));
        final MoldUdp64PacketDecoder packets = new MoldUdp64PacketDecoder();
        final MessageProcessor processor;
        final Normalizer normalizer;

        Pipeline(final TickHandler handler, final int depth)
        {
            normalizer = new Normalizer(
                books, new ExchangeClock(SimulationConfig.DEFAULT_SESSION_DATE), handler, 1).depthLevels(depth);
            processor = new MessageProcessor(normalizer).packetDecoder(packets);
        }

        void replay(final PregeneratedPackets session)
        {
            final UnsafeBuffer buffer = session.buffer();
            final int limit = session.limit();
            long receiveTime = 1_735_828_200_000_000_000L;
            int position = 0;
            while (position < limit)
            {
                final int length = PregeneratedPackets.packetLength(buffer, position);
                processor.receiveTimestamp(receiveTime += 1000).lineB((position & 64) != 0);
                packets.decode(buffer, position + 2, length, processor);
                position += 2 + length;
            }
        }
    }
}
