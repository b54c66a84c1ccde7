package io.mdgate.journal;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Test support: a simulated day framed into MoldUDP64 packets of session {@link #SESSION}, and the pipeline a gateway
 * runs them through (FeedSession, MessageProcessor, Normalizer), so a test can normalize the day uninterrupted or
 * stop it at a message and carry on with another normalizer.
 */
final class SimulatedFeed
{
    static final String SESSION = "SIM0000001";
    static final int MAX_PACKET = 1400;
    /** Receive time of packet i: this plus i microseconds. */
    static final long FIRST_RECEIVE_NANOS = TestTicks.OPEN_NANOS;

    final SimulationConfig config;
    final List<byte[]> packets = new ArrayList<>();
    final long messages;

    SimulatedFeed(final SimulationConfig config)
    {
        this.config = config;
        final ItchSessionGenerator generator = new ItchSessionGenerator(config);
        final UnsafeBuffer packet = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_PACKET));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[ItchSessionGenerator.MAX_MESSAGE_LENGTH]);
        final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();
        final byte[] session = MoldUdp64Session.of(SESSION);
        encoder.wrap(packet, 0, MAX_PACKET).session(session).sequenceNumber(1);
        int length;
        while ((length = generator.next(message, 0)) > 0)
        {
            if (!encoder.tryAppend(message, 0, length))
            {
                final long next = encoder.nextSequenceNumber();
                packets.add(bytes(packet, encoder.length()));
                encoder.wrap(packet, 0, MAX_PACKET).session(session).sequenceNumber(next);
                encoder.tryAppend(message, 0, length);
            }
        }
        packets.add(bytes(packet, encoder.length()));
        messages = generator.messagesGenerated();
    }

    static OrderBooks books()
    {
        return new OrderBooks(new BookContext().maxOrders(1 << 16).maxLevels(1 << 15).maxInstruments(256));
    }

    Normalizer normalizer(final OrderBooks books, final TickHandler handler, final long firstGatewaySequence)
    {
        return new Normalizer(books, new ExchangeClock(config.sessionDate()), handler, firstGatewaySequence)
            .sessionId(1);
    }

    /**
     * Runs the packets through a feed session into the normalizer.
     *
     * @param firstSequence the first exchange sequence the session delivers (1, or where a restart resumes).
     * @param stopAt        messages from this sequence on are not normalized (a crash), Long.MAX_VALUE for none.
     */
    void run(final Normalizer normalizer, final long firstSequence, final long stopAt)
    {
        run(normalizer, new FeedSession.Context().firstSequence(firstSequence), stopAt);
    }

    /** Runs the packets through a feed session that resumes where the journal says the feed stood, as run does. */
    void resume(final Normalizer normalizer, final ResumePoint point)
    {
        run(normalizer, new FeedSession.Context().firstSequence(1)
            .resume(point.sessionName(), point.sessionNumber(), point.nextExchangeSequence()), Long.MAX_VALUE);
    }

    private void run(final Normalizer normalizer, final FeedSession.Context context, final long stopAt)
    {
        final MessageProcessor processor = new MessageProcessor(normalizer);
        final MoldUdp64MessageHandler messages = (buffer, offset, length, sequence) ->
        {
            if (sequence < stopAt)
            {
                processor.onMessage(buffer, offset, length, sequence);
            }
        };
        final FeedSession session = new FeedSession(context
            .messageHandler(messages)
            .gapHandler(processor)
            .packetContextHandler(processor));
        processor.packetDecoder(session.decoder());
        for (int i = 0; i < packets.size(); i++)
        {
            final byte[] packet = packets.get(i);
            session.onPacket(FeedLines.A, new UnsafeBuffer(packet), 0, packet.length, FIRST_RECEIVE_NANOS + i * 1_000L);
        }
    }

    /** Publishes the SESSION tick a normalizer gives when the gateway accepts the session. */
    static void sessionTick(final TickHandler handler, final long gatewaySequence, final int number)
    {
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[TickEncoder.BLOCK_LENGTH]);
        final UnsafeBuffer name = new UnsafeBuffer(MoldUdp64Session.of(SESSION));
        new TickEncoder().wrap(tick, 0)
            .gatewaySequence(gatewaySequence)
            .exchangeSequence(1)
            .exchangeTimestamp(0)
            .receiveTimestamp(FIRST_RECEIVE_NANOS)
            .orderReference(name.getLong(0, ByteOrder.LITTLE_ENDIAN))
            .matchOrNewReference(name.getShort(8, ByteOrder.LITTLE_ENDIAN) & 0xFFFF)
            .quantity(0)
            .instrumentId(0)
            .sessionId(number)
            .eventType(EventType.SESSION)
            .side(Side.NONE)
            .price().mantissa(Integer.MIN_VALUE);
        tick.putShort(TickEncoder.flagsEncodingOffset(), (short)4, ByteOrder.LITTLE_ENDIAN);
        handler.onTick(tick, 0);
    }

    /** @return the 64 bytes with what a restart may change cleared: receive time and the lineB/recovered flags. */
    static byte[] comparable(final DirectBuffer buffer, final int offset)
    {
        final byte[] copy = new byte[TickEncoder.BLOCK_LENGTH];
        buffer.getBytes(offset, copy);
        final UnsafeBuffer view = new UnsafeBuffer(copy);
        view.putLong(TickEncoder.receiveTimestampEncodingOffset(), 0, ByteOrder.LITTLE_ENDIAN);
        final int flags = TickEncoder.flagsEncodingOffset();
        view.putShort(flags, (short)(view.getShort(flags, ByteOrder.LITTLE_ENDIAN) & ~0b11), ByteOrder.LITTLE_ENDIAN);
        return copy;
    }

    private static byte[] bytes(final UnsafeBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
