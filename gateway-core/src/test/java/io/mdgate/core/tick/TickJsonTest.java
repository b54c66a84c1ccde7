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
import io.mdgate.core.capture.ReadJson;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

        assertEquals("{\"gatewaySequence\":8,\"exchangeSequence\":42,\"exchangeTimestamp\":1735828200000000000," +
            "\"receiveTimestamp\":5,\"instrument\":3,\"symbol\":\"AAPL\",\"sessionId\":1,\"event\":\"ADD\"," +
            "\"side\":\"B\",\"price\":\"150.0005\",\"quantity\":300,\"orderReference\":99," +
            "\"matchOrNewReference\":0,\"flags\":[]}", lines.get(1));
        assertEquals("{\"gatewaySequence\":9,\"exchangeSequence\":42,\"exchangeTimestamp\":1735828200000000000," +
            "\"receiveTimestamp\":5,\"instrument\":3,\"symbol\":\"AAPL\",\"sessionId\":1," +
            "\"event\":\"TOP_OF_BOOK\",\"side\":\"B\",\"price\":\"150.0005\",\"quantity\":300," +
            "\"orderReference\":0,\"matchOrNewReference\":1,\"flags\":[\"lastInMessage\"]}", lines.get(2));
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

        assertTrue(line.contains("\"symbol\":null"), line);
        assertTrue(line.contains("\"price\":null"), line);
        assertTrue(line.contains("\"flags\":[\"lineB\",\"bookCrossed\",\"unknownOrder\"]"), line);
        assertTrue(line.contains("\"event\":\"BROKEN_TRADE\",\"side\":\"N\""), line);
    }

    @Test
    void shouldNameALevelTickByItsEventType()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        new TickEncoder().wrap(buffer, 0).gatewaySequence(9).instrumentId(3).side(Side.SELL).quantity(700)
            .orderReference(2).matchOrNewReference(4).price().mantissa(1_234_500);
        buffer.putByte(TickEncoder.eventTypeEncodingOffset(), (byte)26);

        final String line = new TickJson(null).format(buffer, 0);

        assertTrue(line.contains("\"event\":\"LEVEL\",\"side\":\"S\",\"price\":\"123.4500\"," +
            "\"quantity\":700,\"orderReference\":2,\"matchOrNewReference\":4"), line);
    }

    @Test
    void shouldWritePricesWithFourDecimals()
    {
        assertEquals("\"0.0001\"", TickJson.price(1, new StringBuilder()).toString());
        assertEquals("\"12.0500\"", TickJson.price(120_500, new StringBuilder()).toString());
        assertEquals("\"-3.1000\"", TickJson.price(-31_000, new StringBuilder()).toString());
        assertEquals("\"214748.3647\"", TickJson.price(Integer.MAX_VALUE, new StringBuilder()).toString());
    }

    @Test
    void shouldWriteWhatJacksonReadsBackFieldByFieldInItsCompactStyle()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final TickEncoder encoder = new TickEncoder().wrap(buffer, 0).gatewaySequence(-2L).exchangeSequence(77)
            .exchangeTimestamp(1_735_828_200_000_000_123L).receiveTimestamp(-5).instrumentId(65_535).sessionId(9)
            .eventType(EventType.REPLACE).quantity(-1).orderReference(Long.MIN_VALUE).matchOrNewReference(3);
        encoder.price().mantissa(-1_234_567);
        encoder.flags().snapshot(true).lineB(true);
        buffer.putByte(TickEncoder.sideEncodingOffset(), (byte)'"');
        final long symbol = 0x41_22_5C_09_5A_E9_20_20L; // A " \\ tab Z e-acute, as Alpha packs 8 bytes

        final String line = new TickJson(instrument -> instrument == 65_535 ? symbol : 0).format(buffer, 0);
        final Map<String, Object> json = ReadJson.parseObject(line);

        assertEquals(List.of("gatewaySequence", "exchangeSequence", "exchangeTimestamp", "receiveTimestamp",
            "instrument", "symbol", "sessionId", "event", "side", "price", "quantity", "orderReference",
            "matchOrNewReference", "flags"), List.copyOf(json.keySet()));
        assertEquals(new java.math.BigInteger("18446744073709551614"), json.get("gatewaySequence"));
        assertEquals(77L, json.get("exchangeSequence"));
        assertEquals(1_735_828_200_000_000_123L, json.get("exchangeTimestamp"));
        assertEquals(-5L, json.get("receiveTimestamp"));
        assertEquals(65_535L, json.get("instrument"));
        assertEquals("A\"\\\tZ\u00e9", json.get("symbol"));
        assertEquals(9L, json.get("sessionId"));
        assertEquals("REPLACE", json.get("event"));
        assertEquals("\"", json.get("side"));
        assertEquals("-123.4567", json.get("price"));
        assertEquals(4_294_967_295L, json.get("quantity"));
        assertEquals(new java.math.BigInteger("9223372036854775808"), json.get("orderReference"));
        assertEquals(3L, json.get("matchOrNewReference"));
        assertEquals(List.of("lineB", "snapshot"), json.get("flags"));
        assertTrue(line.startsWith("{\"gatewaySequence\":18446744073709551614,\"exchangeSequence\":77,"), line);
        assertTrue(line.contains("\"symbol\":\"A\\\"\\\\\\u0009Z\\u00e9\","), line);
        assertTrue(line.contains("\"side\":\"\\u0022\""), line);
    }
}
