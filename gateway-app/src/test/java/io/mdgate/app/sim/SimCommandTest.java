package io.mdgate.app.sim;

import io.mdgate.core.capture.Tshark;
import io.mdgate.core.capture.WrittenPcap;
import io.mdgate.core.itch.ItchMessageDecoder;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.itch.ItchMessageType;
import io.mdgate.core.mold.MoldUdp64RequestFlyweight;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SimCommandTest
{
    private static final int GROUP_A = 0xE936_0C6F;
    private static final int GROUP_B = 0xE931_C46F;

    @TempDir
    Path dir;

    record Result(int exitCode, String out, String err)
    {
    }

    static Result sim(final String... args)
    {
        return sim(new SimCommand(), args);
    }

    static Result sim(final SimCommand sim, final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine command = new CommandLine(sim);
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        final int exitCode = command.execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    static long jsonNumber(final String json, final String path)
    {
        final Matcher matcher = Pattern.compile("\"" + path + "\":(-?\\d+)").matcher(json);
        assertTrue(matcher.find(), path + " in " + json);
        return Long.parseLong(matcher.group(1));
    }

    static String jsonObject(final String json, final String key)
    {
        final Matcher matcher = Pattern.compile("\"" + key + "\":(\\{[^{}]*(\\{[^{}]*\\}[^{}]*)*\\})").matcher(json);
        assertTrue(matcher.find(), key + " in " + json);
        return matcher.group(1);
    }

    private static long[] expectedCounts(final long seed, final int instruments, final long messages)
    {
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(seed).instruments(instruments).messages(messages));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        long generated = 0;
        while (generator.next(buffer, 0) > 0)
        {
            generated++;
        }
        assertEquals(messages, generated);
        final long[] counts = new long[256];
        for (final byte type : ItchMessageType.ALL)
        {
            counts[type & 0xFF] = generator.count(type);
        }
        return counts;
    }

    private static void assertCounts(final long[] expected, final long[] actual, final String what)
    {
        for (final byte type : ItchMessageType.ALL)
        {
            assertEquals(expected[type & 0xFF], actual[type & 0xFF], what + " '" + (char)type + "'");
        }
    }

    @Test
    void shouldWriteAPcapWhoseLinesBothDecodeToTheGeneratorsCounts() throws Exception
    {
        final Path file = dir.resolve("s.pcap");
        final Result result = sim("--messages", "200000", "--seed", "3", "--instruments", "50", "--pcap",
            file.toString(), "--json");
        assertEquals(0, result.exitCode(), result.err());

        final long[] expected = expectedCounts(3, 50, 200_000);
        final String counts = jsonObject(result.out(), "counts");
        for (final byte type : ItchMessageType.ALL)
        {
            assertEquals(expected[type & 0xFF], jsonNumber(counts, String.valueOf((char)type)));
        }
        assertEquals(200_000, jsonNumber(result.out(), "messages"));

        final WrittenPcap pcap = WrittenPcap.read(file);
        assertTrue(pcap.datagrams.stream().allMatch(WrittenPcap.Datagram::checksumsValid));
        for (final int group : new int[] { GROUP_A, GROUP_B })
        {
            final List<byte[]> line = pcap.datagrams.stream().filter(d -> d.dstIp() == group)
                .map(WrittenPcap.Datagram::payload).toList();
            final RecordedPackets.Decoded decoded = RecordedPackets.decode(line);
            assertEquals(0, decoded.malformedPackets);
            assertEquals(0, decoded.malformedMessages);
            assertEquals(200_000, decoded.messages.size());
            assertCounts(expected, decoded.counts, "line " + Integer.toHexString(group));
            assertEquals(1, decoded.endOfSession);
            assertTrue(decoded.heartbeats > 0);
            assertEquals(line.size(), jsonNumber(jsonObject(result.out(), "packets"), group == GROUP_A ? "A" : "B"));
        }

        if (null == Tshark.find())
        {
            System.out.println("SKIPPED SimCommandTest tshark check: tshark is not installed");
            return;
        }
        assertEquals(List.of(), Tshark.problems(file, 26477));
    }

    @Test
    void shouldWriteThePcapOrDailyFileToStdoutForDashByteForByteAsTheFileAndTheSummaryToStderr() throws Exception
    {
        for (final String option : List.of("--pcap", "--itch"))
        {
            final Path file = dir.resolve("file" + option);
            final Result toFile = sim("--messages", "20000", "--seed", "5", option, file.toString(), "--json");
            assertEquals(0, toFile.exitCode(), toFile.err());
            final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            final SimCommand command = new SimCommand();
            command.binaryStdout = stdout;

            final Result toStdout = sim(command, "--messages", "20000", "--seed", "5", option, "-", "--json");

            assertEquals(0, toStdout.exitCode(), toStdout.err());
            assertArrayEquals(Files.readAllBytes(file), stdout.toByteArray(), option + " -: the same bytes");
            assertEquals("", toStdout.out(), "stdout holds the data only");
            assertEquals(20_000, io.mdgate.app.JsonLines.single(toStdout.err()).get("messages").asLong());
        }
    }

    @Test
    void shouldShowProgressOnStderrOnlyWhenAskedForOffATerminal()
    {
        final Result shown = sim("--messages", "300000", "--json", "--progress", "--progress-every-ms", "1");
        final Result quiet = sim("--messages", "300000", "--json");

        assertEquals(0, shown.exitCode(), shown.err());
        assertTrue(shown.err().matches("(?s)\\r\\[[#.]{30}\\] +\\d+%  [\\d,]+/300,000 messages  .* messages/s  ETA .*"),
            shown.err());
        assertEquals(300_000, io.mdgate.app.JsonLines.single(shown.out()).get("messages").asLong());
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("", quiet.err(), "no terminal, no --progress: nothing on stderr");
    }

    @Test
    void shouldWriteADailyFileOfTheBareMessages() throws Exception
    {
        final Path file = dir.resolve("s.itch");
        final Result result = sim("--messages", "50000", "--seed", "4", "--instruments", "20", "--itch",
            file.toString());
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(result.out().contains("50,000 messages"), result.out());

        final byte[] bytes = Files.readAllBytes(file);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final ItchMessageDecoder decoder = new ItchMessageDecoder();
        final long[] counts = new long[256];
        final ItchMessageHandler ignore = new ItchMessageHandler()
        {
        };
        int at = 0;
        while (at < bytes.length)
        {
            final int length = ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
            assertEquals(ItchMessageDecoder.OK, decoder.decode(buffer, at + 2, length, ignore));
            counts[bytes[at + 2] & 0xFF]++;
            at += 2 + length;
        }
        assertCounts(expectedCounts(4, 20, 50_000), counts, "daily file");
    }

    @Test
    void shouldWriteTheDeepBooksTheDepthOptionsAskFor() throws Exception
    {
        final Path file = dir.resolve("deep.itch");
        final Result result = sim("--messages", "50000", "--seed", "4", "--instruments", "20",
            "--orders-per-instrument", "300", "--price-levels", "512", "--far-order-share", "0.4",
            "--far-order-levels", "200", "--itch", file.toString());
        assertEquals(0, result.exitCode(), result.err());

        final ItchSessionGenerator generator = new ItchSessionGenerator(new SimulationConfig().seed(4).instruments(20)
            .messages(50_000).ordersPerInstrument(300).priceLevels(512).farOrderShare(0.4).farOrderLevels(200));
        final ByteArrayOutputStream expected = new ByteArrayOutputStream();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        int length;
        while ((length = generator.next(buffer, 0)) > 0)
        {
            expected.write(length >> 8);
            expected.write(length);
            expected.write(buffer.byteArray(), 0, length);
        }
        assertArrayEquals(expected.toByteArray(), Files.readAllBytes(file));
    }

    @Test
    void shouldInjectTheSameCountedFaultsForTheSameSeed()
    {
        final String[] args = { "--messages", "100000", "--seed", "6", "--instruments", "20", "--loss-a", "0.02",
            "--loss-b", "0.01", "--loss-burst", "4", "--reorder", "0.01", "--duplicate", "0.01", "--corrupt", "0.005",
            "--json" };
        final Result first = sim(args);
        final Result second = sim(args);
        args[5] = "7";
        final Result other = sim(args);
        assertEquals(0, first.exitCode(), first.err());

        final String faults = jsonObject(first.out(), "faults");
        assertEquals(faults, jsonObject(second.out(), "faults"));
        assertEquals(jsonObject(first.out(), "packets"), jsonObject(second.out(), "packets"));
        assertNotEquals(faults, jsonObject(other.out(), "faults"));
        final String lineA = jsonObject(faults, "A");
        final String lineB = jsonObject(faults, "B");
        for (final String key : new String[] { "lost", "reordered", "duplicated", "corrupted" })
        {
            assertTrue(jsonNumber(lineA, key) > 0, "line A " + key + " in " + lineA);
            assertTrue(jsonNumber(lineB, key) > 0, "line B " + key + " in " + lineB);
        }
        assertTrue(jsonNumber(lineA, "lost") > jsonNumber(lineB, "lost"));
    }

    @Test
    void shouldRefuseBadArgumentsWithExitCodeTwoAndSayWhatIsWrong()
    {
        final String pcap = dir.resolve("x.pcap").toString();
        final String itch = dir.resolve("x.itch").toString();
        final Object[][] cases = {
            { new String[] { "--pcap", pcap, "--itch", itch }, "choose one output" },
            { new String[] { "--messages", "10" }, "too few" },
            { new String[] { "--loss-a", "2" }, "from 0 to 1" },
            { new String[] { "--itch", itch, "--loss-a", "0.1" }, "--itch writes bare messages" },
            { new String[] { "--send", "no-such-if0" }, "no network interface named 'no-such-if0'" },
            { new String[] { "--send", "lo", "--group-a", "10.0.0.1:5000" }, "multicast groups" },
            { new String[] { "--group-b", "233.1.2:80" }, "--group-b" },
            { new String[] { "--session", "ELEVENCHARS" }, "--session" },
            { new String[] { "--mtu", "50" }, "--mtu" },
            { new String[] { "--messages", "lots" }, "lots" },
            { new String[] { "--date", "2025-13-01" }, "--date" },
            { new String[] { "--answer-limit", "0", "--serve-retransmits", "0" }, "--answer-limit" },
            { new String[] { "--messages", "5000000", "--rate", "10" }, "past the end of the trading day" },
            { new String[] { "--pacing", "park" }, "--pacing must be spin or sleep, was 'park'" },
            { new String[] { "--far-order-share", "2" }, "farOrderShare must be between 0 and 1, was 2.0" },
            { new String[] { "--far-order-share", "0.1", "--far-order-levels", "200" },
                "farOrderLevels must be between 25 and 96" },
        };
        for (final Object[] testCase : cases)
        {
            final Result result = sim((String[])testCase[0]);
            assertEquals(2, result.exitCode(), String.join(" ", (String[])testCase[0]));
            assertTrue(result.err().contains((String)testCase[1]), result.err());
            assertTrue(result.err().contains("Usage:"), "usage follows the message");
        }
        assertTrue(Files.notExists(dir.resolve("x.pcap")));
    }

    @Test
    void shouldServeReRequestsForTheSessionItGenerated() throws Exception
    {
        final int port;
        try (DatagramChannel probe = DatagramChannel.open())
        {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            port = ((InetSocketAddress)probe.getLocalAddress()).getPort();
        }
        final CompletableFuture<Result> run = CompletableFuture.supplyAsync(() -> sim("--messages", "20000",
            "--seed", "8", "--instruments", "10", "--session", "RETXTEST", "--serve-retransmits", String.valueOf(port),
            "--answer-limit", "7", "--linger-ms", "3000", "--json"));

        final UnsafeBuffer request = new UnsafeBuffer(new byte[MoldUdp64RequestFlyweight.LENGTH]);
        new MoldUdp64RequestFlyweight().wrap(request, 0).session(MoldUdp64Session.of("RETXTEST"))
            .sequenceNumber(19_990).requestedCount(50);
        byte[] answer = null;
        try (DatagramChannel client = DatagramChannel.open())
        {
            client.bind(new InetSocketAddress("127.0.0.1", 0));
            client.configureBlocking(false);
            final ByteBuffer received = ByteBuffer.allocate(2_048);
            for (int attempt = 0; attempt < 200 && null == answer && !run.isDone(); attempt++)
            {
                client.send(ByteBuffer.wrap(request.byteArray()), new InetSocketAddress("127.0.0.1", port));
                Thread.sleep(20);
                if (null != client.receive(received))
                {
                    answer = new byte[received.position()];
                    received.flip().get(answer);
                }
            }
        }
        final Result result = run.get(60, TimeUnit.SECONDS);
        assertEquals(0, result.exitCode(), result.err());
        assertTrue(null != answer, "no answer from the re-request server");

        final RecordedPackets.Decoded decoded = RecordedPackets.decode(List.of(answer));
        assertEquals(7, decoded.messages.size());
        assertEquals(19_990L, decoded.sequences.get(0));
        final ItchSessionGenerator generator = new ItchSessionGenerator(
            new SimulationConfig().seed(8).instruments(10).messages(20_000));
        final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);
        for (int i = 1; i < 19_990; i++)
        {
            generator.next(message, 0);
        }
        final int length = generator.next(message, 0);
        final byte[] expected = new byte[length];
        message.getBytes(0, expected);
        assertArrayEquals(expected, decoded.messages.get(0));
        final String retransmit = jsonObject(result.out(), "retransmit");
        assertTrue(jsonNumber(retransmit, "answered") >= 1, retransmit);
        assertTrue(jsonNumber(retransmit, "limited") >= 1, retransmit);
        assertEquals(7, jsonNumber(retransmit, "answerLimit"));
    }

    @Test
    void shouldEndALongLingerWhenAskedAndStillSummarize() throws Exception
    {
        final SimCommand command = new SimCommand();
        new CommandLine(command).parseArgs("--messages", "2000", "--seed", "8", "--instruments", "10",
            "--session", "LINGERS", "--serve-retransmits", "0", "--linger-ms", "600000", "--json");
        final AtomicBoolean lingering = new AtomicBoolean(true);
        final SimulationRun run = new SimulationRun(command.settings()).lingerWhile(lingering::get);
        final long started = System.nanoTime();
        final CompletableFuture<SimSummary> summary = CompletableFuture.supplyAsync(run::run);

        final UnsafeBuffer request = new UnsafeBuffer(new byte[MoldUdp64RequestFlyweight.LENGTH]);
        new MoldUdp64RequestFlyweight().wrap(request, 0).session(MoldUdp64Session.of("LINGERS"))
            .sequenceNumber(1_990).requestedCount(5);
        boolean answered = false;
        try (DatagramChannel client = DatagramChannel.open())
        {
            client.bind(new InetSocketAddress("127.0.0.1", 0));
            client.configureBlocking(false);
            final ByteBuffer received = ByteBuffer.allocate(2_048);
            for (int attempt = 0; attempt < 1_000 && !answered && !summary.isDone(); attempt++)
            {
                final int port = run.retransmitPort();
                if (port > 0)
                {
                    client.send(ByteBuffer.wrap(request.byteArray()), new InetSocketAddress("127.0.0.1", port));
                }
                Thread.sleep(20);
                answered = null != client.receive(received);
            }
        }
        assertTrue(answered, "the re-request server answered nothing while lingering");
        assertTrue(!summary.isDone(), "the run ended before it was asked to, in a linger of 600 s");

        lingering.set(false);
        final SimSummary result = summary.get(30, TimeUnit.SECONDS);
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(120), "the linger was not ended early");
        assertEquals(2_000, result.lastSequence());
        assertTrue(result.retransmit().answered() >= 1, result.toJson());
    }
}
