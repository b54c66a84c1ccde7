package io.mdgate.app.journal;

import io.mdgate.core.itch.Alpha;
import io.mdgate.core.tick.TickJson;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.Side;
import io.mdgate.core.tick.sbe.TickEncoder;
import io.mdgate.core.tick.sbe.TickFlagsEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.LocalDate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalToolsTest
{
    private static final long OPEN = 1_735_828_200_000_000_000L;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "1735828200000000000, 1735828200000000000",
        "2025-01-02T14:30:00Z, 1735828200000000000",
        "2025-01-02T09:30:00.000000001-05:00, 1735828200000000001",
        "2025-01-02T09:30:00, 1735828200000000000",
        "09:30:00.5, 1735828200500000000",
        "09:30, 1735828200000000000" })
    void shouldReadEveryAcceptedTimeForm(final String text, final long expected)
    {
        assertEquals(expected, TimeArgument.parse(text).epochNanos(LocalDate.of(2025, 1, 2)));
    }

    @Test
    void shouldTakeATimeOfDayOnTheGivenDayInNewYorkAcrossDaylightSaving()
    {
        final TimeArgument open = TimeArgument.parse("09:30");
        assertTrue(open.isTimeOfDay());
        assertEquals(1_751_463_000_000_000_000L, open.epochNanos(LocalDate.of(2025, 7, 2)));
        assertFalse(TimeArgument.parse("2025-01-02T09:30:00Z").isTimeOfDay());
    }

    @ParameterizedTest
    @ValueSource(strings = { "yesterday", "25:00", "2025-13-01T00:00:00Z", "" })
    void shouldRefuseATimeItCannotReadNamingTheAcceptedForms(final String text)
    {
        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> TimeArgument.parse(text));
        assertTrue(refused.getMessage().contains("nanoseconds since the epoch"), refused.getMessage());
    }

    @Test
    void shouldDrawTheBarWithPercentageRateAndTimeLeft()
    {
        final ProgressBar bar = ProgressBar.on(new java.io.PrintWriter(new java.io.StringWriter()), "ticks", 1_000_000);
        final String line = bar.line(250_000, 500_000_000L);
        assertTrue(line.startsWith("[########......................]  25%  250,000/1,000,000 ticks"), line);
        assertTrue(line.contains("500.0k ticks/s"), line);
        assertTrue(line.endsWith("ETA 0:01"), line);
    }

    @Test
    void shouldWriteACsvRowWithTheSameValuesAsTheJsonLine()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final TickEncoder encoder = new TickEncoder().wrap(buffer, 0)
            .gatewaySequence(42).exchangeSequence(7).exchangeTimestamp(OPEN).receiveTimestamp(OPEN + 5)
            .orderReference(99).matchOrNewReference(100).quantity(300).instrumentId(12).sessionId(1)
            .eventType(EventType.EXECUTE_WITH_PRICE).side(Side.SELL);
        encoder.price().mantissa(1_234_500);
        buffer.putShort(TickEncoder.flagsEncodingOffset(),
            (short)(TickFlagsEncoder.lastInMessage((short)0, true) | TickFlagsEncoder.nonPrintable((short)0, true)),
            TickEncoder.BYTE_ORDER);

        final String row = new TickCsv(null).appendTo(buffer, 0, new StringBuilder()).toString();
        final String named = new TickCsv(instrument -> instrument == 12 ? Alpha.pack8("BRK A") : 0)
            .appendTo(buffer, 0, new StringBuilder()).toString();
        final String quoted = new TickCsv(instrument -> Alpha.pack8("A,\"B"))
            .appendTo(buffer, 0, new StringBuilder()).toString();

        assertEquals("42,7," + OPEN + "," + (OPEN + 5) + ",12,,1,EXECUTE_WITH_PRICE,S,123.4500,300,99,100," +
            "lastInMessage|nonPrintable", row);
        assertEquals(row.replace(",12,,1,", ",12,BRK A,1,"), named);
        assertEquals(row.replace(",12,,1,", ",12,\"A,\"\"B\",1,"), quoted);
        final String json = new TickJson(null).format(buffer, 0);
        assertTrue(json.contains("\"price\":\"123.4500\"") && json.contains("\"event\":\"EXECUTE_WITH_PRICE\""), json);
    }
}
