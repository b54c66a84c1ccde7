package io.mdgate.app.egress;

import com.fasterxml.jackson.databind.JsonNode;
import io.mdgate.app.JsonLines;
import org.junit.jupiter.api.AfterEach;
import io.mdgate.app.journal.RecordCommand;
import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.sim.ItchSessionGenerator;
import io.mdgate.core.sim.SimulationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

class EgressCommandsTest
{
    private static final Path SHM = Path.of("/dev/shm");
    private final String instance = "mdgt-app-" + ProcessHandle.current().pid() + "-" + System.nanoTime() % 100000;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() throws IOException
    {
        threads.shutdownNow();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(SHM, instance + "-*"))
        {
            for (final Path file : files)
            {
                Files.deleteIfExists(file);
            }
        }
    }

    private static final class Run
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine;

        Run(final Object command)
        {
            commandLine = new CommandLine(command);
            commandLine.setOut(new PrintWriter(out, true));
            commandLine.setErr(new PrintWriter(err, true));
        }

        int execute(final String... args)
        {
            return commandLine.execute(args);
        }
    }

    @Test
    void shouldPublishAGeneratedSessionToTwoConsumersOnePrintingTicksOneStatistics() throws Exception
    {
        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--token", "everything=t1", "--token", "three=t2", "--messages", "30000", "--rate", "200000",
            "--wait-consumers", "2", "--linger-ms", "1500", "--instruments", "20"));
        final Run all = new Run(new ConsumeCommand());
        final Future<Integer> allConsumer = threads.submit(() -> all.execute("--shm-instance", instance,
            "--consumer", "everything", "--token", "t1", "--all", "--stats", "--stats-interval-ms", "200",
            "--duration", "4"));
        final Run three = new Run(new ConsumeCommand());
        final Future<Integer> threeConsumer = threads.submit(() -> three.execute("--shm-instance", instance,
            "--consumer", "three", "--token", "t2", "--instruments", "1,2,3", "--count", "200"));

        assertEquals(0, threeConsumer.get(60, TimeUnit.SECONDS), three.err.toString());
        assertEquals(0, allConsumer.get(60, TimeUnit.SECONDS), all.err.toString());
        assertEquals(0, publisher.get(60, TimeUnit.SECONDS), publish.err.toString());

        final List<String> ticks = lines(three.out);
        assertEquals(200, ticks.size());
        for (final String tick : ticks)
        {
            assertTrue(tick.startsWith("{\"gatewaySequence\":"), tick);
            final int instrument = Integer.parseInt(tick.replaceAll(".*\"instrument\":(\\d+).*", "$1"));
            assertTrue(instrument <= 3, "only instruments 1, 2, 3 and market-wide events: " + tick);
        }
        assertSymbols(ticks, 20, false);
        final List<String> stats = lines(all.out);
        assertTrue(stats.size() >= 2, stats.toString());
        assertTrue(stats.get(stats.size() - 2).matches("rate \\d+ ticks/s \\| delivered \\d+ .*unrecovered 0, laps \\d+ " +
            "\\| latency us p50 .* p99 .* p99.9 .* max .*"), stats.get(stats.size() - 2));
        assertTrue(stats.get(stats.size() - 1).startsWith("total: "), stats.get(stats.size() - 1));
        assertTrue(publish.out.toString().contains("30000 messages ->"), publish.out.toString());
        assertTrue(publish.out.toString().contains("consumers welcomed 2"), publish.out.toString());
    }

    /**
     * {@code --clock-offset-ns} moves the consumer's clock: a consumer told the publisher's clock is 2 s ahead times
     * every tick 2 s later than one on the same host told nothing; and the {@code total} line at the end counts every
     * tick the interval lines timed.
     */
    @Test
    void shouldTimeTicksOnTheClockTheOffsetGivesAndEndWithATotalLine() throws Exception
    {
        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--token", "plain=t1", "--token", "shifted=t2", "--messages", "20000", "--rate", "20000",
            "--wait-consumers", "2", "--linger-ms", "1000", "--instruments", "10"));
        final Run plain = new Run(new ConsumeCommand());
        final Future<Integer> plainConsumer = threads.submit(() -> plain.execute("--shm-instance", instance,
            "--consumer", "plain", "--token", "t1", "--all", "--stats", "--stats-interval-ms", "300",
            "--duration", "3"));
        final Run shifted = new Run(new ConsumeCommand());
        final Future<Integer> shiftedConsumer = threads.submit(() -> shifted.execute("--shm-instance", instance,
            "--consumer", "shifted", "--token", "t2", "--all", "--stats", "--stats-interval-ms", "300",
            "--duration", "3", "--clock-offset-ns", "2000000000"));

        assertEquals(0, plainConsumer.get(60, TimeUnit.SECONDS), plain.err.toString());
        assertEquals(0, shiftedConsumer.get(60, TimeUnit.SECONDS), shifted.err.toString());
        assertEquals(0, publisher.get(60, TimeUnit.SECONDS), publish.err.toString());
        final double plainP50 = totalLatency(lines(plain.out), "p50");
        final double shiftedP50 = totalLatency(lines(shifted.out), "p50");
        assertTrue(plainP50 >= 0 && plainP50 < 1_000_000, "one host, one clock: p50 " + plainP50 + " us");
        assertTrue(shiftedP50 >= 2_000_000 && shiftedP50 < 3_000_000, "2 s later: p50 " + shiftedP50 + " us");
        for (final Run run : List.of(plain, shifted))
        {
            final List<String> stats = lines(run.out);
            final String total = stats.get(stats.size() - 1);
            final long timedInIntervals = stats.subList(0, stats.size() - 1).stream()
                .mapToLong(line -> Long.parseLong(line.replaceAll(".*\\((\\d+) timed\\)$", "$1"))).sum();
            final long timedInTotal = Long.parseLong(total.replaceAll(".*\\((\\d+) timed\\)$", "$1"));
            assertTrue(timedInTotal >= timedInIntervals && timedInTotal > 10_000, "the total counts the whole run, " +
                "the last part interval too: " + timedInTotal + " against " + timedInIntervals + " in " + stats);
        }
    }

    private static double totalLatency(final List<String> stats, final String percentile)
    {
        final String total = stats.get(stats.size() - 1);
        assertTrue(total.matches("total: \\d+\\.\\d s \\| delivered \\d+ \\(last seq \\d+\\) \\| gaps \\d+, " +
            "recoveries \\d+/\\d+, unrecovered 0, laps \\d+ \\| latency us p50 [0-9.]+ p99 [0-9.]+ p99.9 [0-9.]+ max " +
            "[0-9.]+ \\(\\d+ timed\\)"), total);
        return Double.parseDouble(total.replaceAll(".* " + percentile.replace(".", "\\.") + " ([0-9.]+) .*", "$1"));
    }

    @Test
    void shouldPrintOnlyTickObjectsOnStdoutWithSymbolsAndTheSummaryOnStderr() throws Exception
    {
        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--token", "jq=t1", "--messages", "20000", "--rate", "200000", "--wait-consumers", "1",
            "--linger-ms", "1000", "--instruments", "10"));
        final Run consume = new Run(new ConsumeCommand());

        final int exit = consume.execute("--shm-instance", instance, "--consumer", "jq", "--token", "t1", "--all",
            "--count", "300");

        assertEquals(0, exit, consume.err.toString());
        assertEquals(0, publisher.get(60, TimeUnit.SECONDS), publish.err.toString());
        final List<JsonNode> ticks = JsonLines.parse(consume.out.toString());
        assertEquals(300, ticks.size());
        assertTrue(ticks.stream().allMatch(t -> t.has("gatewaySequence") && t.has("symbol")), consume.out::toString);
        assertTrue(consume.err.toString().startsWith("mdgate consume: "), consume.err.toString());
    }

    @Test
    void shouldPublishAJournalAndRecoverFromItSoAConsumerGetsEverySequence(@TempDir final Path dir) throws Exception
    {
        final Path pcap = dir.resolve("s.pcap");
        final Path journal = dir.resolve("journal");
        assertEquals(0, new Run(new SimCommand()).execute("--messages", "20000", "--instruments", "10",
            "--pcap", pcap.toString()));
        final Run record = new Run(new RecordCommand());
        assertEquals(0, record.execute(pcap.toString(), "--journal", journal.toString()), record.err.toString());

        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--journal", journal.toString(), "--token", "late=t1", "--rate", "50000", "--wait-consumers", "1",
            "--linger-ms", "3000"));
        final Run late = new Run(new ConsumeCommand());
        final Future<Integer> consumer = threads.submit(() -> late.execute("--shm-instance", instance,
            "--consumer", "late", "--token", "t1", "--all", "--resume-from", "1", "--duration", "10"));

        assertEquals(0, publisher.get(60, TimeUnit.SECONDS), publish.err.toString());
        assertEquals(0, consumer.get(60, TimeUnit.SECONDS), late.err.toString());
        final List<String> ticks = lines(late.out);
        final long published = Long.parseLong(publish.out.toString().replaceAll("(?s).*last sequence (\\d+).*", "$1"));
        assertTrue(published > 20000, publish.out.toString());
        assertEquals(published, ticks.size(), late.err.toString());
        for (int i = 0; i < ticks.size(); i++)
        {
            assertTrue(ticks.get(i).startsWith("{\"gatewaySequence\":" + (i + 1) + ","), ticks.get(i));
        }
        assertSymbols(ticks, 10, true);
    }

    @Test
    void shouldFailWithExitCodeOneWhenTheTokenIsWrong() throws Exception
    {
        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--token", "someone=right", "--messages", "2000", "--wait-consumers", "1", "--wait-ms", "3000"));
        final Run consume = new Run(new ConsumeCommand());

        final int exit = consume.execute("--shm-instance", instance, "--consumer", "someone", "--token", "wrong",
            "--all", "--connect-timeout-ms", "5000");

        assertEquals(1, exit);
        assertTrue(consume.err.toString().contains("refused"), consume.err.toString());
        assertEquals(1, publisher.get(30, TimeUnit.SECONDS), "nobody connected within --wait-ms");
    }

    @Test
    void shouldGiveAConsumeWithViewDepthNoOrderEventsAndWithViewOrdersSome() throws Exception
    {
        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--token", "depth=t1", "--token", "orders=t2", "--messages", "20000", "--rate", "200000",
            "--wait-consumers", "2", "--linger-ms", "1500", "--instruments", "5"));
        final Run depth = new Run(new ConsumeCommand());
        final Future<Integer> depthConsumer = threads.submit(() -> depth.execute("--shm-instance", instance,
            "--consumer", "depth", "--token", "t1", "--instruments", "1,2,3,4,5", "--view", "depth", "--count", "300"));
        final Run orders = new Run(new ConsumeCommand());
        final Future<Integer> ordersConsumer = threads.submit(() -> orders.execute("--shm-instance", instance,
            "--consumer", "orders", "--token", "t2", "--all", "--view", "orders", "--count", "300"));

        assertEquals(0, depthConsumer.get(60, TimeUnit.SECONDS), depth.err.toString());
        assertEquals(0, ordersConsumer.get(60, TimeUnit.SECONDS), orders.err.toString());
        assertEquals(0, publisher.get(60, TimeUnit.SECONDS), publish.err.toString());
        final List<String> depthTicks = lines(depth.out);
        assertEquals(300, depthTicks.size());
        for (final String tick : depthTicks)
        {
            assertFalse(tick.matches(".*\"event\":\"(ADD|EXECUTE|EXECUTE_WITH_PRICE|CANCEL|DELETE|REPLACE)\".*"),
                "view depth takes no order event: " + tick);
        }
        assertTrue(depthTicks.stream().anyMatch(tick -> tick.contains("\"event\":\"TOP_OF_BOOK\"")));
        assertTrue(lines(orders.out).stream().anyMatch(tick -> tick.contains("\"event\":\"ADD\"")));
    }

    @Test
    void shouldGiveALateConsumeWithSnapshotTheBookFirstThenLiveTicksFromTheSnapshotsSequence() throws Exception
    {
        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--token", "early=t1", "--token", "late=t2", "--messages", "40000", "--rate", "20000",
            "--wait-consumers", "1", "--linger-ms", "1500", "--instruments", "5"));
        final Run early = new Run(new ConsumeCommand());
        final Future<Integer> earlyConsumer = threads.submit(() -> early.execute("--shm-instance", instance,
            "--consumer", "early", "--token", "t1", "--all", "--stats", "--stats-interval-ms", "100", "--duration", "5"));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!early.out.toString().matches("(?s).*last seq \\d{5,}.*") && System.nanoTime() < deadline)
        {
            Thread.sleep(20); // until the early consumer has seen 10,000 ticks
        }
        final Run late = new Run(new ConsumeCommand());
        final int exit = late.execute("--shm-instance", instance, "--consumer", "late", "--token", "t2",
            "--instruments", "1,2,3,4,5", "--snapshot", "--count", "500");

        assertEquals(0, exit, late.err.toString());
        assertEquals(0, earlyConsumer.get(60, TimeUnit.SECONDS), early.err.toString());
        assertEquals(0, publisher.get(60, TimeUnit.SECONDS), publish.err.toString());
        final List<String> ticks = lines(late.out);
        int snapshotTicks = 0;
        while (snapshotTicks < ticks.size() && ticks.get(snapshotTicks).contains("\"snapshot\""))
        {
            snapshotTicks++;
        }
        assertTrue(snapshotTicks > 0, "the snapshot comes first: " + ticks.get(0));
        final long s = sequenceOf(ticks.get(0));
        assertTrue(s >= 10_000, "the consumer joined late, at " + s);
        assertTrue(ticks.subList(0, snapshotTicks).stream().anyMatch(tick -> tick.contains("\"event\":\"ADD\"")),
            "the live orders as ADD ticks");
        final Map<Integer, Long> parts = new HashMap<>();
        long previous = s;
        for (final String tick : ticks.subList(0, snapshotTicks))
        {
            assertTrue(sequenceOf(tick) >= previous, "parts in sequence order: " + tick);
            previous = sequenceOf(tick);
            assertEquals(previous, parts.computeIfAbsent(instrumentOf(tick), i -> sequenceOf(tick)),
                "each instrument's part at one sequence S(i): " + tick);
        }
        assertEquals(500, ticks.size() - snapshotTicks, "--count counts the live ticks");
        previous = 0;
        for (final String tick : ticks.subList(snapshotTicks, ticks.size()))
        {
            assertFalse(tick.contains("\"snapshot\""), tick);
            assertTrue(sequenceOf(tick) > previous, "live ticks in order, each once: " + tick);
            assertTrue(sequenceOf(tick) > parts.getOrDefault(instrumentOf(tick), 0L),
                "an instrument's live ticks after its S(i): " + tick);
            previous = sequenceOf(tick);
        }
        assertTrue(late.err.toString().contains("snapshots 1 (" + snapshotTicks + " ticks"), late.err.toString());
        assertSymbols(ticks, 5, true);
    }

    @Test
    void shouldGiveALateLiveConsumeTheSymbolsOfInstrumentsNamedBeforeItJoinedFromTheDirectory() throws Exception
    {
        final Run publish = new Run(new PublishCommand());
        final Future<Integer> publisher = threads.submit(() -> publish.execute("--shm-instance", instance,
            "--token", "early=t1", "--token", "late=t2", "--token", "blind=t3", "--messages", "40000", "--rate",
            "20000", "--wait-consumers", "1", "--linger-ms", "1500", "--instruments", "5"));
        final Run early = new Run(new ConsumeCommand());
        final Future<Integer> earlyConsumer = threads.submit(() -> early.execute("--shm-instance", instance,
            "--consumer", "early", "--token", "t1", "--all", "--stats", "--stats-interval-ms", "100", "--duration", "5"));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!early.out.toString().matches("(?s).*last seq \\d{5,}.*") && System.nanoTime() < deadline)
        {
            Thread.sleep(20); // until the early consumer has seen 10,000 ticks: the directory went by long ago
        }
        final Run blind = new Run(new ConsumeCommand());
        final Future<Integer> blindConsumer = threads.submit(() -> blind.execute("--shm-instance", instance,
            "--consumer", "blind", "--token", "t3", "--all", "--no-directory", "--count", "500"));
        final Run late = new Run(new ConsumeCommand());
        final int exit = late.execute("--shm-instance", instance, "--consumer", "late", "--token", "t2", "--all",
            "--count", "500");

        assertEquals(0, exit, late.err.toString());
        assertEquals(0, blindConsumer.get(60, TimeUnit.SECONDS), blind.err.toString());
        assertEquals(0, earlyConsumer.get(60, TimeUnit.SECONDS), early.err.toString());
        assertEquals(0, publisher.get(60, TimeUnit.SECONDS), publish.err.toString());
        final List<String> ticks = lines(late.out);
        assertTrue(ticks.size() >= 500, "--count 500, a poll may give a few more: " + ticks.size());
        final long first = sequenceOf(ticks.get(0));
        assertTrue(first >= 10_000, "the consumer joined late, at " + first);
        for (int i = 0; i < ticks.size(); i++)
        {
            assertFalse(ticks.get(i).contains("\"snapshot\""), "the directory is not printed: " + ticks.get(i));
            assertEquals(first + i, sequenceOf(ticks.get(i)), "every live sequence once, in order");
        }
        assertSymbols(ticks, 5, true);
        assertTrue(late.err.toString().contains("directory of 5 symbols"), late.err.toString());
        assertTrue(lines(blind.out).stream().anyMatch(tick -> instrumentOf(tick) != 0 && tick.contains("\"symbol\":null")),
            "without the directory the same late join names nothing: " + lines(blind.out).get(0));
    }

    /**
     * Every tick of an instrument carries the symbol the simulator (seed 1, as publish and sim default to) gave its
     * locate, from the INSTRUMENT ticks the consumer read (live, recovered or in the snapshot) or the publisher's
     * answer; market-wide ticks none.
     *
     * @param fromFirst whether the consumer read each instrument's INSTRUMENT tick before its other ticks. When not
     *                  (it subscribed while the directory went by), the ticks read before the publisher's answer
     *                  (which a poll reads after the ring) have none, but once one has its symbol every later one has.
     */
    private static void assertSymbols(final List<String> ticks, final int instruments, final boolean fromFirst)
    {
        final ItchSessionGenerator simulator =
            new ItchSessionGenerator(new SimulationConfig().seed(1).instruments(instruments).conclude());
        final Set<Integer> named = new HashSet<>();
        for (final String tick : ticks)
        {
            final int instrument = instrumentOf(tick);
            final String symbol = tick.replaceAll(".*\"symbol\":(null|\"([^\"]*)\"),.*", "$2");
            if (instrument == 0 || fromFirst || named.contains(instrument) || !symbol.isEmpty())
            {
                assertEquals(instrument == 0 ? "" : simulator.symbol(instrument), symbol, tick);
            }
            if (!symbol.isEmpty())
            {
                named.add(instrument);
            }
        }
        assertTrue(!fromFirst || named.size() == instruments, "instruments named: " + named);
    }

    private static long sequenceOf(final String tick)
    {
        return Long.parseLong(tick.replaceAll("^\\{\"gatewaySequence\":(\\d+),.*", "$1"));
    }

    private static int instrumentOf(final String tick)
    {
        return Integer.parseInt(tick.replaceAll(".*\"instrument\":(\\d+),.*", "$1"));
    }

    @Test
    void shouldRefuseAConsumeWithAnUnknownViewNamingTheViews()
    {
        final Run bad = new Run(new ConsumeCommand());
        assertEquals(2, bad.execute("--consumer", "a", "--token", "b", "--all", "--view", "levels"));
        assertTrue(bad.err.toString().startsWith("--view must be all, top, depth or orders, was 'levels'"),
            bad.err.toString());
    }

    @Test
    void shouldRefuseAConsumeWithoutASubscription()
    {
        final Run none = new Run(new ConsumeCommand());
        assertEquals(2, none.execute("--consumer", "a", "--token", "b"));
        assertTrue(none.err.toString().contains("--all, or --symbols and/or --instruments"), none.err.toString());
    }

    @Test
    void shouldRefuseAPublishWithoutAnyConsumerToken()
    {
        final Run publish = new Run(new PublishCommand());
        assertEquals(2, publish.execute("--shm-instance", instance));
        assertTrue(publish.err.toString().contains("no consumer is allowed"), publish.err.toString());
    }

    private static List<String> lines(final StringWriter writer)
    {
        final List<String> lines = new ArrayList<>();
        for (final String line : writer.toString().split("\\R"))
        {
            if (!line.isBlank())
            {
                lines.add(line);
            }
        }
        return lines;
    }
}
