package io.mdgate.bench;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.itch.AddOrderFlyweight;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.OrderCancelFlyweight;
import io.mdgate.core.itch.OrderDeleteFlyweight;
import io.mdgate.core.itch.OrderExecutedFlyweight;
import io.mdgate.core.itch.OrderReplaceFlyweight;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.util.concurrent.TimeUnit;

/**
 * Messages per second on one thread over a generated 10M-message ITCH 5.0 session in daily-file framing, on
 * each {@link BenchDay} ({@code -p day=standard} or {@code -p day=deep}):
 * <ul>
 *   <li>{@code decodeOnly}: frame, dispatch and read the fields of every message (no state);</li>
 *   <li>{@code decodeBookNormalize}: frame, decode, maintain every order book and write every normalized
 *       tick (the work of the gateway's feed core per message), one message at a time;</li>
 *   <li>{@code decodeBookNormalizePackets}: the same day in MoldUDP64 datagrams of up to
 *       {@link #MESSAGES_PER_PACKET} messages through the feed's packet decoder, as a line delivers it: each
 *       packet's order records are touched before its messages are processed, so their cache misses overlap.</li>
 * </ul>
 * Each invocation runs the whole session once from empty books, so the score is messages/s over a full day
 * shape (directory, opening, continuous trading, close), not a hot loop over one message. The deep day's books
 * get the capacities {@link BenchDay#books()} names; the standard day's the defaults.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ItchPipelineBenchmark
{
    static final int MESSAGES = BenchDay.MESSAGES;
    /** Messages per datagram of {@code decodeBookNormalizePackets}; a full 1,500-byte datagram holds about 40. */
    static final int MESSAGES_PER_PACKET = 16;

    @Param({ "standard", "deep" })
    public String day;

    /** The books' reference window in records ({@code [book] reference_window}); 0 for the day's own. */
    @Param({ "0" })
    public int window;

    private BenchDay shape;
    private UnsafeBuffer file;
    private MoldPacketDay packets;
    private final MoldUdp64PacketDecoder packetDecoder = new MoldUdp64PacketDecoder();
    private OrderBooks books;
    private MessageProcessor processor;
    private final FieldReader fieldReader = new FieldReader();
    private final ItchMessageDecoder decoder = new ItchMessageDecoder();
    private final TickConsumer ticks = new TickConsumer();

    @Setup(Level.Trial)
    public void loadFile() throws IOException
    {
        shape = BenchDay.named(day);
        file = GeneratedItchFile.load(shape.simulation()).buffer();
        packets = MoldPacketDay.frame(file, MESSAGES, MESSAGES_PER_PACKET);
    }

    /**
     * Empty books per pass over the day (replaying the same order references twice is not a feed): allocated once
     * per trial, as a gateway allocates them once at start, and emptied before each pass, so no pass pays for the
     * previous one's garbage.
     */
    @Setup(Level.Invocation)
    public void emptyBooks()
    {
        if (books == null)
        {
            final BookContext context = shape.books();
            if (window > 0)
            {
                context.referenceWindow(window);
            }
            books = new OrderBooks(context.conclude());
        }
        else
        {
            books.clear();
        }
        final Normalizer normalizer = new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), ticks, 1);
        processor = new MessageProcessor(normalizer).packetDecoder(packetDecoder);
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long decodeOnly()
    {
        final UnsafeBuffer buffer = file;
        final ItchMessageDecoder decoder = this.decoder;
        final FieldReader reader = fieldReader;
        final int end = buffer.capacity();
        int offset = 0;
        int messages = 0;
        while (offset < end && messages < MESSAGES)
        {
            final int length = buffer.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            decoder.decode(buffer, offset + 2, length, reader);
            offset += 2 + length;
            messages++;
        }
        return reader.sum + messages;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long decodeBookNormalize()
    {
        final UnsafeBuffer buffer = file;
        final MessageProcessor processor = this.processor;
        final int end = buffer.capacity();
        int offset = 0;
        long sequence = 1;
        while (offset < end && sequence <= MESSAGES)
        {
            final int length = buffer.getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
            processor.onMessage(buffer, offset + 2, length, sequence++);
            offset += 2 + length;
        }
        return ticks.sum;
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long decodeBookNormalizePackets()
    {
        final UnsafeBuffer buffer = packets.packets();
        final MoldUdp64PacketDecoder decoder = packetDecoder;
        final MessageProcessor processor = this.processor;
        final int end = packets.length();
        int offset = 0;
        while (offset < end)
        {
            final int length = buffer.getShort(offset, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
            decoder.decode(buffer, offset + 2, length, processor);
            offset += 2 + length;
        }
        return ticks.sum;
    }

    /** Reads the fields a consumer of each order message would need, so decoding is not optimised away. */
    static final class FieldReader implements ItchMessageHandler
    {
        long sum;

        @Override
        public void onAddOrder(final AddOrderFlyweight message)
        {
            sum += message.orderReference() + message.shares() + message.price() + message.stock() +
                message.side() + message.timestamp() + message.stockLocate();
        }

        @Override
        public void onOrderExecuted(final OrderExecutedFlyweight message)
        {
            sum += message.orderReference() + message.executedShares() + message.matchNumber() + message.timestamp();
        }

        @Override
        public void onOrderCancel(final OrderCancelFlyweight message)
        {
            sum += message.orderReference() + message.cancelledShares() + message.timestamp();
        }

        @Override
        public void onOrderDelete(final OrderDeleteFlyweight message)
        {
            sum += message.orderReference() + message.timestamp();
        }

        @Override
        public void onOrderReplace(final OrderReplaceFlyweight message)
        {
            sum += message.originalOrderReference() + message.newOrderReference() + message.shares() +
                message.price() + message.timestamp();
        }
    }

    /** Touches every tick's gateway sequence and event type, as a ring writer would read them. */
    static final class TickConsumer implements TickHandler
    {
        long sum;

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            sum += buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN) + buffer.getByte(offset + 62);
        }
    }
}
