package io.mdgate.core.tick;

import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.ItchMessageWriter;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.itch.Alpha;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TickJsonTest
{
    @Test
    void shouldWriteAnAddAndItsTopOfBookAsJsonLinesWithStableKeys()
    {
        final OrderBooks books = new OrderBooks(new BookContext().maxOrders(8).maxLevels(8).maxInstruments(8));
        final TickJson json = new TickJson(books.instruments());
        final List<String> lines = new ArrayList<>();
        final Normalizer normalizer =
            new Normalizer(books, new ExchangeClock(LocalDate.of(2025, 1, 2)), (b, o) -> lines.add(json.format(b, o)), 7);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ItchMessageWriter writer = new ItchMessageWriter(buffer);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();

        decoder.decode(buffer, 0, writer.stockDirectory(0, 3, 0, Alpha.pack8("AAPL"), 100), normalizer);
        normalizer.exchangeSequence(42).receiveTimestamp(5).sessionId(1);
        decoder.decode(buffer, 0, writer.addOrder(0, 3, 34_200_000_000_000L, 99, 'B', 300, Alpha.pack8("AAPL"),
            1_500_005), normalizer);

        assertEquals("{\"gatewaySequence\": 8, \"exchangeSequence\": 42, \"exchangeTimestamp\": 1735828200000000000, " +
            "\"receiveTimestamp\": 5, \"instrument\": 3, \"symbol\": \"AAPL\", \"sessionId\": 1, \"event\": \"ADD\", " +
            "\"side\": \"B\", \"price\": \"150.0005\", \"quantity\": 300, \"orderReference\": 99, " +
            "\"matchOrNewReference\": 0, \"flags\": []}", lines.get(1));
        assertEquals("{\"gatewaySequence\": 9, \"exchangeSequence\": 42, \"exchangeTimestamp\": 1735828200000000000, " +
            "\"receiveTimestamp\": 5, \"instrument\": 3, \"symbol\": \"AAPL\", \"sessionId\": 1, " +
            "\"event\": \"TOP_OF_BOOK\", \"side\": \"B\", \"price\": \"150.0005\", \"quantity\": 300, " +
            "\"orderReference\": 0, \"matchOrNewReference\": 1, \"flags\": [\"lastInMessage\"]}", lines.get(2));
    }

    @Test
    void shouldWriteANullPriceAnUnknownSymbolAndEveryFlagName()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final TickEncoder encoder = new TickEncoder().wrap(buffer, 0).eventType(EventType.BROKEN_TRADE)
            .side(Side.NONE).instrumentId(9);
        encoder.price().mantissa(Integer.MIN_VALUE);
        encoder.flags().lineB(true).unknownOrder(true).bookCrossed(true);

        final String line = new TickJson(null).format(buffer, 0);

        assertTrue(line.contains("\"symbol\": null"), line);
        assertTrue(line.contains("\"price\": null"), line);
        assertTrue(line.contains("\"flags\": [\"lineB\", \"bookCrossed\", \"unknownOrder\"]"), line);
        assertTrue(line.contains("\"event\": \"BROKEN_TRADE\", \"side\": \"N\""), line);
    }

    @Test
    void shouldNameALevelTickByItsEventType()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        new TickEncoder().wrap(buffer, 0).gatewaySequence(9).instrumentId(3).side(Side.SELL).quantity(700)
            .orderReference(2).matchOrNewReference(4).price().mantissa(1_234_500);
        buffer.putByte(TickEncoder.eventTypeEncodingOffset(), (byte)26);

        final String line = new TickJson(null).format(buffer, 0);

        assertTrue(line.contains("\"event\": \"LEVEL\", \"side\": \"S\", \"price\": \"123.4500\", " +
            "\"quantity\": 700, \"orderReference\": 2, \"matchOrNewReference\": 4"), line);
    }

    @Test
    void shouldWritePricesWithFourDecimals()
    {
        assertEquals("\"0.0001\"", TickJson.price(1, new StringBuilder()).toString());
        assertEquals("\"12.0500\"", TickJson.price(120_500, new StringBuilder()).toString());
        assertEquals("\"-3.1000\"", TickJson.price(-31_000, new StringBuilder()).toString());
        assertEquals("\"214748.3647\"", TickJson.price(Integer.MAX_VALUE, new StringBuilder()).toString());
    }
}
