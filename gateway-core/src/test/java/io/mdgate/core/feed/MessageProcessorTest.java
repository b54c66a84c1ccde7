package io.mdgate.core.feed;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookInvariants;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.ItchMessageWriter;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.mold.MoldUdp64PacketDecoder;
import io.mdgate.core.mold.MoldUdp64PacketEncoder;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.RecordingTickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class MessageProcessorTest
{
    private static final long STOCK = Alpha.pack8("MSFT");
    private static final long T = 36_000_000_000_000L;

    private final OrderBooks books = new OrderBooks(new BookContext().maxOrders(64).maxLevels(64).maxInstruments(16));
    private final RecordingTickHandler ticks = new RecordingTickHandler();
    private final Normalizer normalizer = new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), ticks, 1);
    private final MoldUdp64PacketDecoder packetDecoder = new MoldUdp64PacketDecoder();
    private final MessageProcessor processor = new MessageProcessor(normalizer).packetDecoder(packetDecoder);
    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
    private final ItchMessageWriter writer = new ItchMessageWriter(message);
    private final UnsafeBuffer packet = new UnsafeBuffer(new byte[1400]);
    private final MoldUdp64PacketEncoder encoder = new MoldUdp64PacketEncoder();

    @Test
    void shouldStampEachTickWithItsMessagesSequenceAndMarkTheEndOfThePacket()
    {
        encoder.wrap(packet, 0, packet.capacity()).session(MoldUdp64Session.of("S1")).sequenceNumber(100);
        append(writer.addOrder(0, 3, T, 1, 'B', 100, STOCK, 2_000_000));
        append(writer.addOrder(0, 3, T, 2, 'B', 100, STOCK, 1_990_000));
        append(writer.delete(0, 3, T, 1));

        assertEquals(3, packetDecoder.decode(packet, 0, encoder.length(), processor));

        final long[] expectedSequences = { 100, 100, 101, 102, 102 };
        assertEquals(expectedSequences.length, ticks.size());
        for (int i = 0; i < ticks.size(); i++)
        {
            final TickDecoder tick = ticks.tick(i);
            assertEquals(expectedSequences[i], tick.exchangeSequence());
            assertEquals(i == ticks.size() - 1, tick.flags().lastInPacket(), "tick " + i);
        }
        assertEquals(EventType.TOP_OF_BOOK, ticks.last().eventType());
        assertEquals(1_990_000, ticks.last().price().mantissa());
        assertEquals(1_990_000, books.bestPrice(3, BookSide.BID));
        assertEquals(3, processor.messageCount());
        BookInvariants.check(books);
    }

    @Test
    void shouldPassReceiveTimeLineAndRecoveryToTheTicksOfTheMessagesThatFollow()
    {
        processor.receiveTimestamp(1_735_828_200_000_000_001L).lineB(true).recovered(true).sessionId(2);

        assertEquals(ItchMessageDecoder.OK, processor.process(message, 0, writer.systemEvent(0, T, 'O'), 9));

        final TickDecoder tick = ticks.last();
        assertEquals(1_735_828_200_000_000_001L, tick.receiveTimestamp());
        assertEquals(9, tick.exchangeSequence());
        assertEquals(2, tick.sessionId());
        assertTrue(tick.flags().lineB());
        assertTrue(tick.flags().recovered());
    }

    @Test
    void shouldCountAMalformedMessageAndPublishNothingForIt()
    {
        final int length = writer.addOrder(0, 3, T, 1, 'B', 100, STOCK, 2_000_000);

        assertEquals(ItchMessageDecoder.LENGTH_MISMATCH, processor.process(message, 0, length - 1, 5));
        message.putByte(0, (byte)'z');
        assertEquals(ItchMessageDecoder.UNKNOWN_TYPE, processor.process(message, 0, length, 6));

        assertEquals(0, ticks.size());
        assertEquals(2, processor.malformedCount());
        assertEquals(1, processor.decoder().lengthMismatchCount());
        assertEquals(0, books.orderCount());
        assertEquals(1, normalizer.nextGatewaySequence());
    }

    private void append(final int length)
    {
        assertTrue(encoder.tryAppend(message, 0, length));
    }
}
