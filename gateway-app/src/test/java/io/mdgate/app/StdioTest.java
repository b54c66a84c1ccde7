package io.mdgate.app;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.mdgate.core.capture.CaptureFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import static io.mdgate.core.capture.CaptureFixtures.GROUP_A;
import static io.mdgate.core.capture.CaptureFixtures.GROUP_B;
import static io.mdgate.core.capture.CaptureFixtures.SESSION;
import static io.mdgate.core.capture.CaptureFixtures.moldPacketOfAdds;
import static io.mdgate.core.capture.CaptureFixtures.udpFrame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -} as stdin or stdout: {@code decode -} reads a capture or ITCH file from stdin whatever its framing and
 * compression, streamed when one pass is enough and otherwise through a temporary copy that is deleted; every path
 * that cannot be stdin or stdout refuses {@code -} with one line; and an unknown option is reported before a
 * missing parameter.
 */
@Timeout(60)
class StdioTest
{
    private static final String LINE_A = "233.54.12.111:26477";
    private static final String LINE_B = "233.54.13.111:26477";

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    static Stream<Arguments> captures()
    {
        final byte[] pcap = new CaptureFixtures.Pcap()
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 3))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 3))
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 4, 2))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 4, 2))
            .toBytes();
        final byte[] pcapng = new CaptureFixtures.PcapNg(ByteOrder.LITTLE_ENDIAN)
            .section()
            .interfaceDescription(1, 65535, 9)
            .enhancedPacket(0, 1_700_000_000_000_000_000L, udpFrame(GROUP_A, CaptureFixtures.PORT,
                moldPacketOfAdds(SESSION, 1, 3)))
            .enhancedPacket(0, 1_700_000_000_000_000_001L, udpFrame(GROUP_B, CaptureFixtures.PORT,
                moldPacketOfAdds(SESSION, 1, 3)))
            .enhancedPacket(0, 1_700_000_000_000_000_002L, udpFrame(GROUP_A, CaptureFixtures.PORT,
                moldPacketOfAdds(SESSION, 4, 2)))
            .toBytes();
        return Stream.of(
            Arguments.of("pcap", pcap, "pcap", false),
            Arguments.of("pcap.gz", CaptureFixtures.gzip(pcap), "pcap", true),
            Arguments.of("pcapng", pcapng, "pcapng", false),
            Arguments.of("pcapng.gz", CaptureFixtures.gzip(pcapng), "pcapng", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void shouldDecodeACaptureFromStdinAsFromItsFileWithOrWithoutItsLinesGiven(
        final String name, final byte[] capture, final String format, final boolean compressed) throws IOException
    {
        final Path file = CaptureFixtures.write(dir, "c." + name, capture);
        final JsonNode fromFile = JsonLines.single(decode(null, null, file.toString(), "--json"));
        final Path spool = Files.createDirectories(dir.resolve("spool"));

        final JsonNode spooled = JsonLines.single(decode(capture, spool, "-", "--json"));
        final JsonNode streamed = JsonLines.single(
            decode(capture, dir.resolve("no-such-spool"), "-", "--json", "--line-a", LINE_A, "--line-b", LINE_B));

        for (final JsonNode fromStdin : List.of(spooled, streamed))
        {
            assertEquals("stdin", fromStdin.get("file").asText());
            assertEquals(format, fromStdin.get("format").asText());
            assertEquals(compressed, fromStdin.get("compressed").asBoolean());
            assertEquals(5, fromStdin.get("messages").asLong(), fromStdin.toString());
            for (final String key : List.of("messages", "counts", "gaps", "firstSequence", "lastSequence", "bytes"))
            {
                assertEquals(fromFile.get(key), fromStdin.get(key), key);
            }
        }
        try (Stream<Path> left = Files.list(spool))
        {
            assertEquals(List.of(), left.toList(), "the copy of stdin is deleted");
        }
    }

    @Test
    void shouldCopyStdinToATemporaryFileOnlyWhenTheLinesOfACaptureAreToBeFound()
    {
        final byte[] capture = new CaptureFixtures.Pcap().udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 3)).toBytes();

        final int exit = execute(capture, dir.resolve("no-such-spool"), "decode", "-");

        assertEquals(1, exit, err.toString());
        assertTrue(err.toString().startsWith("mdgate decode: cannot read stdin: "), err.toString());
    }

    @Test
    void shouldStreamADailyFileFromStdinWhenItsFormatIsGivenAndTakeTheTicksSessionDate()
    {
        final byte[] daily = CaptureFixtures.dailyFile(CaptureFixtures.itch('S', 1), CaptureFixtures.itch('S', 2));

        final String stdout = decode(daily, dir.resolve("no-such-spool"), "-", "--format", "daily", "--json");

        final JsonNode summary = JsonLines.single(stdout);
        assertEquals("daily", summary.get("format").asText());
        assertEquals(2, summary.get("messages").asLong());
    }

    @Test
    void shouldTakeTheSessionDateOfTicksFromACaptureOnStdin()
    {
        final byte[] capture = new CaptureFixtures.Pcap(ByteOrder.BIG_ENDIAN, false, 1)
            .udp(GROUP_A, moldPacketOfAdds(SESSION, 1, 3))
            .udp(GROUP_B, moldPacketOfAdds(SESSION, 1, 3))
            .toBytes();

        final String ticks = decode(CaptureFixtures.gzip(capture), dir.resolve("no-such-spool"), "-", "--ticks",
            "--line-a", LINE_A, "--line-b", LINE_B);

        final List<JsonNode> adds = JsonLines.parse(ticks).stream()
            .filter(t -> "ADD".equals(t.get("event").asText())).toList();
        assertEquals(3, adds.size(), ticks);
        for (final JsonNode add : adds)
        {
            assertEquals(java.time.LocalDate.of(2023, 11, 14), java.time.Instant.ofEpochSecond(0,
                add.get("exchangeTimestamp").asLong()).atZone(io.mdgate.core.tick.ExchangeClock.NEW_YORK)
                .toLocalDate(), "the first packet was captured 2023-11-14 in New York");
        }
    }

    static Stream<Arguments> pathsThatCannotBeStdio()
    {
        return Stream.of(
            Arguments.of(List.of("record", "x.pcap", "--journal", "-"), "mdgate record: --journal -: a directory " +
                "cannot be stdin or stdout; give its path (./- for one named -)"),
            Arguments.of(List.of("replay", "--journal", "-"), "mdgate replay: --journal -: a directory cannot be"),
            Arguments.of(List.of("journal", "info", "-"), "mdgate journal info: DIR -: a directory cannot be"),
            Arguments.of(List.of("publish", "--journal", "-"), "mdgate publish: --journal -: a directory cannot be"),
            Arguments.of(List.of("run", "--config", "-"), "mdgate run: --config -: this file cannot be stdin"),
            Arguments.of(List.of("stat", "--counters", "-"), "mdgate stat: --counters -: this file cannot be"),
            Arguments.of(List.of("errors", "--config", "-"), "mdgate errors: --config -: this file cannot be"),
            Arguments.of(List.of("report", "-"), "mdgate report: PATH -: this path cannot be stdin or stdout"),
            Arguments.of(List.of("demo", "--dir", "-"), "mdgate demo: --dir -: a directory cannot be"),
            Arguments.of(List.of("map", "-c", "-"), "mdgate map: --config -: this file cannot be"),
            Arguments.of(List.of("consume", "--all", "--consumer", "c", "--token", "t", "--shm-dir", "-"),
                "mdgate consume: --shm-dir -: a directory cannot be"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pathsThatCannotBeStdio")
    void shouldRefuseDashForAPathThatCannotBeStdinOrStdoutWithOneLineAndExitCode2(
        final List<String> args, final String firstLine)
    {
        final int exit = execute(null, null, args.toArray(String[]::new));

        assertEquals(2, exit, err.toString());
        final List<String> lines = err.toString().lines().toList();
        assertTrue(lines.get(0).startsWith(firstLine), err.toString());
        assertEquals(2, lines.size(), "the error and the pointer to --help: " + err);
        assertEquals("", out.toString());
    }

    @Test
    void shouldReportAnUnknownOptionBeforeTheMissingFile()
    {
        for (final String command : List.of("decode", "record"))
        {
            err.getBuffer().setLength(0);

            final int exit = execute(null, null, command, "--bogus");

            assertEquals(2, exit, err.toString());
            final List<String> lines = err.toString().lines().toList();
            assertEquals("mdgate " + command + ": Unknown option: '--bogus'", lines.get(0), err.toString());
            assertEquals("Run 'mdgate " + command + " --help' for its options and arguments.",
                lines.get(lines.size() - 1));
        }
    }

    /** @return stdout of {@code mdgate decode ARGS} with stdin holding {@code stdin}; the exit code must be 0. */
    private String decode(final byte[] stdin, final Path spool, final String... args)
    {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        final List<String> all = new ArrayList<>(List.of("decode"));
        all.addAll(List.of(args));
        final int exit = execute(stdin, spool, all.toArray(String[]::new));
        assertEquals(0, exit, err::toString);
        return out.toString();
    }

    private int execute(final byte[] stdin, final Path spool, final String... args)
    {
        final CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        final DecodeCommand decode = commandLine.getSubcommands().get("decode").getCommand();
        decode.stdin = new ByteArrayInputStream(null == stdin ? new byte[0] : stdin);
        decode.spoolDirectory = spool;
        return commandLine.execute(args);
    }
}
