package io.mdgate.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.core.capture.CaptureFixtures;
import io.mdgate.core.capture.ReadJson;
import io.mdgate.core.capture.SampleFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Path;
import java.util.Map;

import static io.mdgate.core.capture.CaptureFixtures.GROUP_A;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_B;
import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.dailyFile;
import static io.mdgate.core.capture.CaptureFixtures.gzip;
import static io.mdgate.core.capture.CaptureFixtures.itch;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.capture.CaptureFixtures.write;
import static io.mdgate.core.capture.CaptureFixtures.zeroPrefixedFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecodeCommandTest
{
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args)
    {
        final CommandLine command = new CommandLine(new DecodeCommand());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command.execute(args);
    }

    private Path twoLineCapture()
    {
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 3))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 3))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 6, 1))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 6, 1))
            .toBytes();
        return write(dir, "ab.pcap", capture);
    }

    @Test
    void shouldPrintOneJsonObjectWithTheStableKeysForACapture()
    {
        assertEquals(0, run(twoLineCapture().toString(), "--json"));

        final Map<String, Object> json = ReadJson.parseObject(out.toString().trim());
        assertEquals(4L, json.get("messages"));
        assertEquals(Map.of("A", 4L), nonZero(json.get("counts")));
        assertEquals(0L, json.get("malformed"));
        assertEquals(1L, json.get("gaps"));
        assertEquals(1L, json.get("firstSequence"));
        assertEquals(6L, json.get("lastSequence"));
        assertEquals(4L, json.get("duplicates"));
        assertEquals("", err.toString());
    }

    @Test
    void shouldDecodeTheRealSessionAndExitZeroWhenTheFirstPacketIsDamagedAndCountSequenceZeroAsMalformed()
    {
        final byte[] damaged = moldPacketOfAdds(SESSION, 1, 3);
        damaged[0] = (byte)0x80;
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, damaged)
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 3))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 0, 2))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 3))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 4, 1))
            .toBytes();

        assertEquals(0, run(write(dir, "damaged.pcap", capture).toString(), "--json"));

        final Map<String, Object> json = ReadJson.parseObject(out.toString().trim());
        assertEquals(4L, json.get("messages"));
        assertEquals(SESSION, json.get("session"));
        assertEquals(2L, json.get("malformed"), "the damaged first packet and the sequence-0 packet");
        assertEquals(1L, json.get("unsequencedPackets"));
        assertEquals(1L, json.get("firstSequence"));
        assertEquals(4L, json.get("lastSequence"));
        assertEquals(0L, json.get("gaps"));
    }

    @Test
    void shouldPrintAGapTickWhereTheFeedSessionDeclaresAHoleLost()
    {
        assertEquals(0, run(twoLineCapture().toString(), "--ticks", "--session-date", "2025-01-02"));

        final List<Map<String, Object>> gaps = out.toString().lines().filter(l -> l.startsWith("{"))
            .map(ReadJson::parseObject).filter(t -> "GAP".equals(t.get("event"))).toList();
        assertEquals(1, gaps.size(), out.toString());
        assertEquals(4L, gaps.get(0).get("exchangeSequence"));
    }

    @Test
    void shouldAcceptOnlyTheSessionGivenWithSessionAndCountTheOthersAsDropped()
    {
        final byte[] capture = new CaptureFixtures.Pcap()
            .udp(GROUP_A, moldPacketOfAdds("OTHERSESS1", 1, 2))
            .udp(GROUP_A, moldPacketOfAdds("OTHERSESS1", 3, 2))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 7, 1))
            .toBytes();
        final Path file = write(dir, "two-sessions.pcap", capture);

        assertEquals(0, run(file.toString(), "--json"));
        final Map<String, Object> byCount = ReadJson.parseObject(out.toString().trim());
        assertEquals("OTHERSESS1", byCount.get("session"), "without --session: the name in the most packets");
        assertEquals(true, byCount.get("sessionAcceptedAtEnd"));
        out.getBuffer().setLength(0);

        assertEquals(0, run(file.toString(), "--json", "--session", SESSION));
        final Map<String, Object> json = ReadJson.parseObject(out.toString().trim());
        assertEquals(SESSION, json.get("session"));
        assertEquals(false, json.get("sessionAcceptedAtEnd"));
        assertEquals(1L, json.get("messages"));
        assertEquals(7L, json.get("firstSequence"));
        assertEquals(Map.of("OTHERSESS1", 2L), json.get("otherSessions"));
    }

    @Test
    void shouldExitWithTwoForASessionNameLongerThanTenCharacters()
    {
        assertEquals(2, run(twoLineCapture().toString(), "--session", "ELEVENCHARS"));
        assertTrue(err.toString().lines().findFirst().orElse("").contains("--session ELEVENCHARS"), err.toString());
    }

    @Test
    void shouldExitWithTwoForASessionOnAFileThatIsNotACapture()
    {
        final Path file = write(dir, "day.itch", dailyFile(itch('S', 1)));
        assertEquals(2, run(file.toString(), "--session", SESSION));
        assertTrue(err.toString().contains("captures only"), err.toString());
    }

    @Test
    void shouldExitWithTwoForFeedSettingsTheSessionCannotTake()
    {
        assertEquals(2, run(twoLineCapture().toString(), "--reorder-window", "0"));
        assertTrue(err.toString().contains("--reorder-window 0 is outside 1.."), err.toString());
    }

    @Test
    void shouldPrintTheCountsAsTextByDefault()
    {
        final Path file = write(dir, "day.itch.gz", gzip(dailyFile(itch('S', 1), itch('A', 2), itch('A', 3))));

        assertEquals(0, run(file.toString()));

        final String text = out.toString();
        assertTrue(text.matches("(?s).*messages\\s+3\\R.*"), text);
        assertTrue(text.matches("(?s).*A  Add Order\\s+2\\R.*"), text);
        assertTrue(text.contains("daily, gzip"), text);
    }

    @Test
    void shouldReadTheFormatItIsGiven()
    {
        final Path file = write(dir, "z.itch", zeroPrefixedFile(itch('S', 1), itch('P', 2)));

        assertEquals(0, run("--format", "zero-prefixed", "--json", file.toString()));
        assertEquals(2L, ReadJson.parseObject(out.toString().trim()).get("messages"));
    }

    @Test
    void shouldTakeTheLinesGiven()
    {
        assertEquals(0, run(twoLineCapture().toString(), "--json",
            "--line-a", "233.54.13.111:26477", "--line-b", "233.54.12.111:26477"));

        final Map<String, Object> json = ReadJson.parseObject(out.toString().trim());
        @SuppressWarnings("unchecked")
        final Map<String, Object> lines = (Map<String, Object>)json.get("lines");
        assertEquals(Map.of("destination", "233.54.13.111:26477", "packets", 2L), lines.get("A"));
    }

    @Test
    void shouldExitWithTwoNamingTheFileWhenItDoesNotExist()
    {
        final Path missing = dir.resolve("missing.pcap");

        assertEquals(2, run(missing.toString()));
        assertTrue(err.toString().contains("cannot read " + missing + ": no such file"), err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void shouldExitWithTwoWhenTheFileIsADirectory()
    {
        assertEquals(2, run(dir.toString()));
        assertTrue(err.toString().contains("directory"), err.toString());
    }

    @Test
    void shouldExitWithOneListingTheAcceptedFormatsForAnUnknownFile()
    {
        final Path file = write(dir, "notes.txt", "plain words".getBytes());

        assertEquals(1, run(file.toString()));
        assertTrue(err.toString().contains(file.toString()), err.toString());
        assertTrue(err.toString().contains("pcapng"), err.toString());
        assertTrue(err.toString().contains("daily"), err.toString());
    }

    @Test
    void shouldExitWithTwoForAMalformedLineAddress()
    {
        assertEquals(2, run(twoLineCapture().toString(), "--line-a", "233.54.12:26477", "--line-b", "1.2.3.4:5"));
        assertTrue(err.toString().contains("GROUP:PORT"), err.toString());
    }

    @Test
    void shouldExitWithTwoForOneLineWithoutTheOther()
    {
        assertEquals(2, run(twoLineCapture().toString(), "--line-a", "233.54.12.111:26477"));
        assertTrue(err.toString().contains("--line-b"), err.toString());
    }

    @Test
    void shouldExitWithTwoForLineAddressesOnAFileThatIsNotACapture()
    {
        final Path file = write(dir, "day.itch", dailyFile(itch('S', 1)));
        assertEquals(2, run(file.toString(), "--line-a", "1.1.1.1:1", "--line-b", "2.2.2.2:2"));
        assertTrue(err.toString().contains("captures only"), err.toString());
    }

    @Test
    void shouldExitWithTwoForAnUnknownFormatSayingWhichAreKnown()
    {
        assertEquals(2, run("--format", "csv", twoLineCapture().toString()));
        assertTrue(err.toString().contains("expected auto, daily, zero-prefixed or pcap"), err.toString());
    }

    @Test
    void shouldExitWithTwoWithoutAFile()
    {
        assertEquals(2, run("--json"));
        assertTrue(err.toString().contains("FILE"), err.toString());
    }

    @Test
    void shouldPrintOneTickLinePerTickWithContiguousGatewaySequences()
    {
        assertEquals(0, run(twoLineCapture().toString(), "--ticks", "--session-date", "2025-01-02"));

        final List<String> tickLines = out.toString().lines().filter(l -> l.startsWith("{")).toList();
        final List<Map<String, Object>> adds = new ArrayList<>();
        for (int i = 0; i < tickLines.size(); i++)
        {
            final Map<String, Object> tick = ReadJson.parseObject(tickLines.get(i));
            assertEquals(i + 1L, tick.get("gatewaySequence"), tickLines.get(i));
            if ("ADD".equals(tick.get("event")))
            {
                adds.add(tick);
            }
        }
        assertEquals(List.of(1L, 2L, 3L, 6L), adds.stream().map(t -> t.get("exchangeSequence")).toList());
        assertTrue(err.toString().contains("messages       4"), err.toString());
    }

    @Test
    void shouldTakeTheSessionDateFromTheCapturesFirstPacketWhenNoneIsGiven() throws Exception
    {
        final byte[] capture = new CaptureFixtures.Pcap(java.nio.ByteOrder.BIG_ENDIAN, false, 1)
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 3))
            .toBytes();
        for (final Path file : List.of(write(dir, "be.pcap", capture), write(dir, "be.pcap.gz", gzip(capture))))
        {
            out.getBuffer().setLength(0);
            assertEquals(0, run(file.toString(), "--ticks"), err::toString);

            final ObjectMapper mapper = new ObjectMapper();
            final List<Long> times = out.toString().lines().map(l -> readTree(mapper, l))
                .filter(t -> "ADD".equals(t.get("event").asText()))
                .map(t -> t.get("exchangeTimestamp").asLong()).toList();
            assertEquals(3, times.size(), out::toString);
            for (final long time : times)
            {
                assertEquals(java.time.LocalDate.of(2023, 11, 14), java.time.Instant.ofEpochSecond(0, time)
                    .atZone(io.mdgate.core.tick.ExchangeClock.NEW_YORK).toLocalDate(), file + ": the first packet " +
                    "was captured 2023-11-14 17:13 New York time");
            }
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode readTree(final ObjectMapper mapper, final String line)
    {
        try
        {
            return mapper.readTree(line);
        }
        catch (final java.io.IOException ex)
        {
            throw new AssertionError("not JSON: " + line, ex);
        }
    }

    @Test
    void shouldPrintOnlyTickJsonOnStdoutWithTicksAndTheSummaryOnStderr() throws Exception
    {
        assertEquals(0, run(twoLineCapture().toString(), "--ticks", "--session-date", "2025-01-02"));

        final ObjectMapper mapper = new ObjectMapper();
        final List<String> lines = out.toString().lines().toList();
        assertTrue(lines.size() >= 4, out::toString);
        for (final String line : lines)
        {
            assertTrue(mapper.readTree(line).isObject(), line);
        }
        assertTrue(err.toString().contains("messages       4"), err.toString());
    }

    @Test
    void shouldListTheBestBidAndOfferOfTheMostActiveInstrumentsWithBook()
    {
        final Path pcap = dir.resolve("sim.pcap");
        assertEquals(0, Main.commandLine().execute(
            "sim", "--messages", "20000", "--seed", "3", "--instruments", "5", "--pcap", pcap.toString()));

        assertEquals(0, run(pcap.toString(), "--book", "--top", "3", "--json"));

        final List<String> lines = out.toString().lines().toList();
        assertEquals(1, lines.size(), out.toString());
        final Map<String, Object> summary = ReadJson.parseObject(lines.get(0));
        assertEquals(20000L, summary.get("messages"));
        final List<?> book = (List<?>)summary.get("book");
        assertEquals(3, book.size(), lines.get(0));
        final JsonNode strict = JsonFields.oneObjectLine(out.toString()).get("book");
        for (final JsonNode entry : strict)
        {
            assertEquals(List.of("instrument", "symbol", "activity", "tradingState", "bid", "ask"),
                JsonFields.names(entry), lines.get(0));
            assertEquals(List.of("price", "size", "orders", "levels"), JsonFields.names(entry.get("bid")));
        }
        for (final Object entry : book)
        {
            final Map<?, ?> bid = (Map<?, ?>)((Map<?, ?>)entry).get("bid");
            final Map<?, ?> ask = (Map<?, ?>)((Map<?, ?>)entry).get("ask");
            assertTrue(new java.math.BigDecimal((String)bid.get("price")).compareTo(
                new java.math.BigDecimal((String)ask.get("price"))) < 0, lines.get(0));
        }
    }

    @Test
    void shouldPrintTheSummaryAndTheBookAsOneCompactObjectWithEveryKeyInItsOrderAndTheElapsedTimeAsWritten()
    {
        assertEquals(0, run(twoLineCapture().toString(), "--json", "--book", "--top", "2"));

        final ObjectNode json = JsonFields.oneObjectLine(out.toString());
        assertEquals(List.of("messages", "counts", "malformed", "gaps", "firstSequence", "lastSequence",
            "missingMessages", "duplicates", "duplicatePackets", "packets", "heartbeats", "endOfSession",
            "malformedDetail", "gapRanges", "lines", "session", "sessionAcceptedAtEnd", "otherSessions",
            "sessionChanges", "unsequencedPackets", "heldPackets", "capture", "file", "format", "compressed",
            "compressedStreamTruncated", "bytes", "elapsedMillis", "messagesPerSecond", "book"),
            JsonFields.names(json));
        assertEquals(4, json.get("messages").longValue());
        assertTrue(json.get("endOfSession").isBoolean(), out.toString());
        assertEquals(SESSION, json.get("session").textValue());
        assertTrue(json.get("book").isArray(), out.toString());
        assertTrue(out.toString().matches("(?s).*,\"elapsedMillis\":\\d+\\.\\d{3},.*"), out.toString());
    }

    @Test
    void shouldRefuseATopOfZero()
    {
        assertEquals(2, run(twoLineCapture().toString(), "--book", "--top", "0"));
        assertTrue(err.toString().contains("--top 0"), err.toString());
    }

    @Test
    void shouldPrintTheRitchSampleCountsExactly()
    {
        final Path sample = SampleFiles.require("DecodeCommandTest", "RITCH_ex20101224.TEST_ITCH_50.gz");

        assertEquals(0, run(sample.toString(), "--json"));

        final Map<String, Object> json = ReadJson.parseObject(out.toString().trim());
        assertEquals(Map.of("S", 6L, "R", 3L, "H", 3L, "A", 4997L, "F", 3L, "E", 198L, "X", 45L, "D", 1745L,
            "U", 12L, "P", 5000L), nonZero(json.get("counts")));
        assertEquals(12_012L, json.get("messages"));
        assertEquals(0L, json.get("malformed"));
    }

    @Test
    void shouldReportTheGapInTheMultiplePacketsSample()
    {
        final Path sample = SampleFiles.require("DecodeCommandTest",
            "omi/Nasdaq/Nasdaq.Equities.TotalView.Itch.v5.0/Multiple.Packets.pcap");

        assertEquals(0, run(sample.toString()));
        assertTrue(out.toString().matches("(?s).*gaps\\s+1 \\(4244620 messages missing\\).*"), out.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> nonZero(final Object counts)
    {
        final Map<String, Long> present = new java.util.TreeMap<>();
        ((Map<String, Object>)counts).forEach((type, count) ->
        {
            if ((Long)count != 0)
            {
                present.put(type, (Long)count);
            }
        });
        return present;
    }
}
