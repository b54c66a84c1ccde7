package io.mdgate.app.run;

import io.mdgate.app.feed.LoopbackMulticast;
import io.mdgate.app.sim.SimCommand;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.BookSide;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.depth.DepthBook;
import io.mdgate.core.tick.BookRestore;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.core.tick.sbe.TickDecoder;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TopOfBookReader;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.transport.shm.ShmContext;
import io.mdgate.egress.transport.shm.ShmTransport;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.TickReplay;
import io.mdgate.runtime.LoopbackGatewayConfig;
import io.mdgate.runtime.counters.CountersFile;
import io.mdgate.runtime.counters.CountersFileException;
import io.mdgate.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunCommandTest
{
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldRefuseAnInvalidConfigurationBeforeStartingAnything() throws Exception
    {
        final Path config = dir.resolve("bad.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "bad", "239.255.9.1:5000", "239.255.9.2:5000", 5001,
            LoopbackGatewayConfig.twoCores()).replace("gap_wait_ms = 2", "gap_wait_ms = -4"));
        final int exit = new CommandLine(new RunCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("--config", config.toString());
        assertEquals(RunCommand.EXIT_INVALID, exit);
        assertTrue(err.toString().contains("refusing to start"), err.toString());
        assertTrue(err.toString().contains("gap_wait_ms"), err.toString());
        assertFalse(Files.exists(dir.resolve("counters")), "nothing started");
    }

    @Test
    void shouldFailAtOnceSayingHowToGetAnRdmaDeviceWhenTheVerbsEgressHasNone() throws Exception
    {
        org.junit.jupiter.api.Assumptions.assumeFalse(Files.isDirectory(Path.of("/sys/class/infiniband")) &&
            Files.list(Path.of("/sys/class/infiniband")).findAny().isPresent(), "this host has an RDMA device");
        final Path config = dir.resolve("verbs.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "verbs", "239.255.9.1:5000", "239.255.9.2:5000",
            5001, LoopbackGatewayConfig.twoCores()).replace("transport = \"shm\"",
            "transport = \"verbs\"\nrdma_address = \"10.77.0.1:7471\""));
        final int exit = new CommandLine(new RunCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("--config", config.toString(), "--no-pin");
        assertNotEquals(0, exit, err.toString());
        assertTrue(err.toString().contains("no RDMA device"), err.toString());
        assertTrue(err.toString().contains("rdma link add"), "says how to get Soft-RoCE: " + err);
    }

    /** Hugepages required where there are none: refused before anything runs, the reason on stderr's first line. */
    @Test
    void shouldRefuseToStartWhenHugepagesAreRequiredAndTheDirectoryIsNoHugetlbfs() throws Exception
    {
        Files.createDirectories(dir.resolve("shm"));
        final Path plain = Files.createDirectories(dir.resolve("not-huge"));
        final Path config = dir.resolve("huge.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "huge-" + ProcessHandle.current().pid(),
            "239.255.9.1:5000", "239.255.9.2:5000", 5001, LoopbackGatewayConfig.oneCore())
            .replace("transport = \"shm\"", "transport = \"shm\"\nhugepages = \"required\"\nhugepage_dir = \"" +
                plain + "\""));
        final int exit = new CommandLine(new RunCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("--config", config.toString(), "--no-pin");
        assertEquals(RunCommand.EXIT_FAILED, exit, err.toString());
        final String first = err.toString().lines().findFirst().orElse("");
        assertTrue(first.startsWith("mdgate run: could not start: [egress]: hugepages = \"required\" but " + plain +
            " is not on a hugetlbfs mount of 2 MiB pages"), err.toString());
        assertTrue(first.contains("deploy/tune-host.sh --hugepages N --apply"), err.toString());
    }

    /**
     * A port on an interface that does not exist fails on its core, inside the agent framework's wrapper: the first
     * line on stderr must still be the reason and what would be right, not the wrapper.
     */
    @Test
    void shouldSayFirstWhyTheGatewayCouldNotStart() throws Exception
    {
        Files.createDirectories(dir.resolve("shm"));
        final Path config = dir.resolve("no-such-interface.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "nif-" + ProcessHandle.current().pid(),
            "239.255.9.1:5000", "239.255.9.2:5000", 5001, LoopbackGatewayConfig.oneCore())
            .replace("interface = \"lo\"", "interface = \"mdg-nosuch0\""));
        final int exit = new CommandLine(new RunCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("--config", config.toString(), "--no-pin");
        assertEquals(RunCommand.EXIT_FAILED, exit, err.toString());
        final String first = err.toString().lines().findFirst().orElse("");
        assertTrue(first.startsWith("mdgate run: could not start: core "), err.toString());
        assertTrue(first.contains("network interface 'mdg-nosuch0' does not exist; interfaces up on this host: ") &&
            first.contains("lo"), "the reason and the interfaces that would do, first: " + err);
        assertFalse(err.toString().contains("CompositeAgent"), "no wrapper text: " + err);
    }

    @Test
    void shouldRefuseACoreMapThatLeavesAnAgentOut() throws Exception
    {
        final Path config = dir.resolve("map.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "map", "239.255.9.1:5000", "239.255.9.2:5000", 5001,
            LoopbackGatewayConfig.twoCores().replace("\"journal\", ", "")));
        final int exit = new CommandLine(new RunCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("--config", config.toString());
        assertEquals(RunCommand.EXIT_INVALID, exit);
        assertTrue(err.toString().contains("journal"), err.toString());
        assertFalse(Files.exists(dir.resolve("counters")), "nothing started");
    }

    private static final int DEPTH = 5;
    private static final int INSTRUMENTS = 20;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = { "run-to-completion", "pipeline" })
    @Timeout(120)
    void shouldRunASessionThroughToTheJournalAndLeaveCountersThatAgree(final String shape) throws Exception
    {
        final NetworkInterface lo = NetworkInterface.getByName("lo");
        final String prefix = "239.255." + (1 + ProcessHandle.current().pid() % 250) + ".";
        final String problem = null == lo ? "no loopback interface named lo" :
            LoopbackMulticast.problem(lo, prefix + 230);
        if (null != problem)
        {
            System.out.println("SKIPPED RunCommandTest: " + problem);
        }
        Assumptions.assumeTrue(null == problem, problem);
        final String groupA = prefix + 231 + ":" + LoopbackMulticast.freePort();
        final String groupB = prefix + 232 + ":" + LoopbackMulticast.freePort();
        final int retransmitPort = LoopbackMulticast.freePort();
        Files.createDirectories(dir.resolve("shm"));
        final Path config = dir.resolve("gw.toml");
        Files.writeString(config, LoopbackGatewayConfig.toml(dir, "run-test-" + ProcessHandle.current().pid(),
            groupA, groupB, retransmitPort, "pipeline".equals(shape) ? LoopbackGatewayConfig.twoCores() :
            LoopbackGatewayConfig.oneCore()) + "\n[book]\ndepth_levels = " + DEPTH + "\n");

        final RunCommand run = new RunCommand();
        final CompletableFuture<Integer> gateway = CompletableFuture.supplyAsync(() -> new CommandLine(run)
            .setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("--config", config.toString(), "--no-pin"));
        awaitRunning(dir.resolve("counters"), gateway, err);
        final EgressConsumer consumer = EgressConsumer.connect(new ShmTransport(new ShmContext()
            .directory(dir.resolve("shm")).instance("run-test-" + ProcessHandle.current().pid()).conclude()),
            new ConsumerContext().name("c1").token("token-1").reconnect(false));
        consumer.subscribeAll();
        final long[] received = { 0 };
        final DepthBook[] streamed = new DepthBook[INSTRUMENTS + 1];
        for (int i = 0; i <= INSTRUMENTS; i++)
        {
            streamed[i] = new DepthBook(DEPTH);
        }
        final TickHandler count = (buffer, offset) ->
        {
            received[0]++;
            final TickDecoder tick = new TickDecoder().wrap(buffer, offset, TickDecoder.BLOCK_LENGTH,
                TickDecoder.SCHEMA_VERSION);
            if (tick.eventType() == EventType.LEVEL)
            {
                streamed[tick.instrumentId()].apply(buffer, offset);
            }
        };
        // The subscription takes effect when the egress agent answers it; ticks published before that are not the
        // consumer's (on a loaded host that answer can come after the feed started).
        final Runnable poll = () -> consumer.poll(count, 1024);
        final long answered = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (consumer.subscriptionsAwaitingAnswer() > 0 && System.nanoTime() < answered)
        {
            poll.run();
        }
        assertEquals(0, consumer.subscriptionsAwaitingAnswer(), "the publisher answered the subscription");

        final int messages = 20_000;
        final StringWriter simOut = new StringWriter();
        // The simulator runs beside the test thread, which keeps reading, as a consumer must (a silent one is dropped).
        final CompletableFuture<Integer> sim = CompletableFuture.supplyAsync(() -> new CommandLine(new SimCommand())
            .setOut(new PrintWriter(simOut)).setErr(new PrintWriter(simOut)).execute("--messages", String.valueOf(messages), "--seed", "5",
                "--instruments", String.valueOf(INSTRUMENTS), "--rate", "20000", "--send", "lo", "--group-a", groupA, "--group-b", groupB,
                "--max-idle-ms", "5", "--loss-a", "0.02", "--loss-b", "0.02", "--serve-retransmits",
                String.valueOf(retransmitPort), "--linger-ms", "1500"));
        while (!sim.isDone())
        {
            poll.run();
        }
        assertEquals(0, sim.get(), simOut.toString());

        final CountersSnapshot live = awaitQuiet(dir.resolve("counters"));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (consumer.lastDeliveredSequence() < live.value("session.ticks") && System.nanoTime() < deadline)
        {
            poll.run();
        }
        assertEquals(live.value("session.ticks"), received[0], "the consumer got every tick; counters: " + live.values());

        // A late joiner, at the end of the day: the depth view of every instrument, from a snapshot.
        final EgressConsumer depthConsumer = EgressConsumer.connect(new ShmTransport(new ShmContext()
            .directory(dir.resolve("shm")).instance("run-test-" + ProcessHandle.current().pid()).conclude()),
            new ConsumerContext().name("c2").token("token-2").reconnect(false));
        for (int i = 1; i <= INSTRUMENTS; i++)
        {
            depthConsumer.subscribe(i, SubscriptionView.DEPTH);
        }
        final DepthBook[] joined = new DepthBook[INSTRUMENTS + 1];
        for (int i = 0; i <= INSTRUMENTS; i++)
        {
            joined[i] = new DepthBook(DEPTH);
        }
        final long[] orderEventsInDepthView = { 0 };
        final TickHandler late = (buffer, offset) ->
        {
            final TickDecoder tick = new TickDecoder().wrap(buffer, offset, TickDecoder.BLOCK_LENGTH,
                TickDecoder.SCHEMA_VERSION);
            final EventType type = tick.eventType();
            orderEventsInDepthView[0] += type == EventType.ADD || type == EventType.DELETE ? 1 : 0;
            if (type == EventType.LEVEL)
            {
                joined[tick.instrumentId()].apply(buffer, offset);
            }
        };
        final long joinBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (depthConsumer.subscriptionsAwaitingAnswer() > 0 && System.nanoTime() < joinBy)
        {
            depthConsumer.poll(late, 1024);
            poll.run();
        }
        depthConsumer.requestSnapshot();
        while ((depthConsumer.isSnapshotPending() || depthConsumer.counters().snapshots() == 0) &&
            System.nanoTime() < joinBy)
        {
            depthConsumer.poll(late, 1024);
            poll.run();
        }
        assertEquals(1, depthConsumer.counters().snapshots(), "the late joiner got its snapshot");
        assertEquals(live.value("session.ticks"), depthConsumer.snapshotSequence(),
            "the snapshot is of the last tick published");
        assertEquals(DEPTH, depthConsumer.depthLevels(), "the publisher keeps the depth the gateway publishes");
        assertEquals(0, orderEventsInDepthView[0], "the depth view takes no order events");
        final DepthBook[] tabled = new DepthBook[INSTRUMENTS + 1];
        for (int i = 1; i <= INSTRUMENTS; i++)
        {
            final DepthBook view = new DepthBook();
            assertEquals(TopOfBookReader.READ, depthConsumer.depth(i, view), "depth table of instrument " + i);
            tabled[i] = new DepthBook(DEPTH);
            view.copyTo(tabled[i]);
        }
        run.stop();
        assertEquals(0, gateway.get(60, TimeUnit.SECONDS), err.toString());
        final long told = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (consumer.isConnected() && System.nanoTime() < told)
        {
            poll.run();
        }
        assertFalse(consumer.isConnected(), "the consumer was told the gateway stopped");
        consumer.close();
        depthConsumer.close();
        assertTrue(out.toString().contains("mdgate run: stopped"), out.toString());

        try (CountersFile file = CountersFile.open(dir.resolve("counters")))
        {
            final CountersSnapshot s = file.snapshot();
            System.out.println("run: " + out.toString().trim());
            assertEquals(CountersSnapshot.State.STOPPED, s.state());
            assertEquals(messages, s.value("feed.messages.delivered"), "every message, losses recovered");
            assertEquals(0, s.value("feed.gaps.lost"));
            assertTrue(s.value("feed.gaps.opened") > 0, "the lines lost packets");
            final long ticks = s.value("session.ticks");
            assertTrue(ticks >= messages, "a tick or more per message");
            assertEquals(ticks, s.value("journal.ticks"), "the journal holds every tick");
            assertEquals(ticks, s.value("journal.position"), "and reports them journaled");
            assertEquals(ticks, s.value("egress.ticks_published"), "the egress published every tick");
            assertEquals(0, s.value("egress.input_gaps"), "the egress was handed every sequence");
            assertEquals(0, s.value("gateway.errors"), err.toString());
            assertEquals(s.value("ingress.p0.0.packets"), s.value("feed.A.packets") + s.value("feed.B.packets"));
            assertTrue(s.value("latency.ingress_to_session.samples") > 0);
            assertTrue(s.value("book.orders") > 100, "live orders on the books: " + s.value("book.orders"));
            assertTrue(s.value("book.levels") > 20 && s.value("book.levels") <= s.value("book.orders"));
            assertEquals(0, s.value("book.displaced_orders"), "a 20,000-message day fits the reference window");
            assertEquals(0, s.value("book.unknown_orders") + s.value("book.refused"));
            assertTrue(s.value("latency.ingress_to_journal.samples") > 0);
            assertTrue(live.value("latency.ingress_to_session.p99_ns") > 0, "percentiles published while running");
            for (final String stage : new String[] { "ingress_to_session", "ingress_to_journal", "ingress_to_egress" })
            {
                assertEquals(0, s.value("latency." + stage + ".negative"), stage + ": one clock for every stage");
            }
            try (JournalReader reader = JournalReader.open(dir.resolve("journal"));
                TickReplay replay = reader.newTickReplay())
            {
                assertEquals(1, replay.firstSequence());
                assertEquals(ticks, replay.lastSequence());
                assertEquals(ticks, replay.count());
                assertTrue(s.value("session.level_ticks") > 1000, "the gateway published depth");
                final OrderBooks books = new OrderBooks(new BookContext().referenceWindow(1 << 16));
                final BookRestore rebuild = new BookRestore(new Normalizer(books,
                    new ExchangeClock(java.time.LocalDate.of(2025, 1, 2)), (b, o) -> { }, 1));
                replay.replay(1, ticks, rebuild);
                for (int i = 1; i <= INSTRUMENTS; i++)
                {
                    for (int side = BookSide.BID; side <= BookSide.ASK; side++)
                    {
                        final int levels = Math.min(DEPTH, books.levelCount(i, side));
                        final String where = "instrument " + i + " side " + side;
                        assertEquals(levels, streamed[i].levels(side), where + ": LEVEL ticks at the consumer");
                        assertEquals(levels, joined[i].levels(side), where + ": the late joiner's snapshot");
                        assertEquals(levels, tabled[i].levels(side), where + ": the depth table");
                        for (int d = 0; d < levels; d++)
                        {
                            assertEquals(books.depthPrice(i, side, d), streamed[i].price(side, d), where);
                            assertEquals(books.depthSize(i, side, d), streamed[i].quantity(side, d), where);
                            assertEquals(books.depthOrderCount(i, side, d), streamed[i].orders(side, d), where);
                            assertEquals(books.depthPrice(i, side, d), joined[i].price(side, d), where);
                            assertEquals(books.depthSize(i, side, d), joined[i].quantity(side, d), where);
                            assertEquals(books.depthOrderCount(i, side, d), joined[i].orders(side, d), where);
                            assertEquals(books.depthPrice(i, side, d), tabled[i].price(side, d), where);
                            assertEquals(books.depthSize(i, side, d), tabled[i].quantity(side, d), where);
                        }
                    }
                }
            }
        }
        assertTrue(Files.size(dir.resolve("hlog").resolve("run-test-" + ProcessHandle.current().pid() +
            "-ingress_to_session.hlog")) > 0, "latency log written");

        // Restarted on the same journal with fewer depth levels and no feed: a late joiner's tables and snapshot
        // still hold every instrument as the journal left it, the depth cut to the new D.
        final Path lessDepth = dir.resolve("gw-less-depth.toml");
        Files.writeString(lessDepth, LoopbackGatewayConfig.toml(dir, "run-test-" + ProcessHandle.current().pid(),
            groupA, groupB, retransmitPort, "pipeline".equals(shape) ? LoopbackGatewayConfig.twoCores() :
            LoopbackGatewayConfig.oneCore()).replace("[egress]\n", "[egress]\norder_snapshots = true\n") +
            "\n[book]\ndepth_levels = " + (DEPTH - 2) + "\n");
        restartAndJoinLate(lessDepth, DEPTH - 2);
    }

    /**
     * Runs the gateway again on the journal of the first run, feeds it nothing, and checks what a consumer that joins
     * it sees: the top-of-book and depth tables and a snapshot of every instrument (its depth at the restarted
     * gateway's D, and, with order snapshots on, every live order) equal to the books rebuilt from the journal.
     */
    private void restartAndJoinLate(final Path config, final int depth) throws Exception
    {
        final OrderBooks books = new OrderBooks(new BookContext().referenceWindow(1 << 16));
        final long ticks;
        try (JournalReader reader = JournalReader.open(dir.resolve("journal"));
            TickReplay replay = reader.newTickReplay())
        {
            ticks = replay.lastSequence();
            replay.replay(1, ticks, new BookRestore(new Normalizer(books,
                new ExchangeClock(java.time.LocalDate.of(2025, 1, 2)), (b, o) -> { }, 1)));
        }
        Files.delete(dir.resolve("counters")); // so that the wait below sees the new run's file, not the last one's
        final StringWriter restartOut = new StringWriter();
        final StringWriter restartErr = new StringWriter();
        final RunCommand run = new RunCommand();
        final CompletableFuture<Integer> gateway = CompletableFuture.supplyAsync(() -> new CommandLine(run)
            .setOut(new PrintWriter(restartOut)).setErr(new PrintWriter(restartErr))
            .execute("--config", config.toString(), "--no-pin"));
        EgressConsumer joiner = null;
        try
        {
            awaitRunning(dir.resolve("counters"), gateway, restartErr);
            assertTrue(restartErr.toString().contains("resuming session") &&
                restartErr.toString().contains("egress records rebuilt"), restartErr + " / " + restartOut);
            joiner = EgressConsumer.connect(new ShmTransport(new ShmContext()
                .directory(dir.resolve("shm")).instance("run-test-" + ProcessHandle.current().pid()).conclude()),
                new ConsumerContext().name("c2").token("token-2").reconnect(false));
            for (int i = 1; i <= INSTRUMENTS; i++)
            {
                joiner.subscribe(i, SubscriptionView.ALL);
            }
            final long[] adds = new long[INSTRUMENTS + 1];
            final long[][] addedShares = new long[INSTRUMENTS + 1][2];
            final DepthBook[] snapshot = new DepthBook[INSTRUMENTS + 1];
            for (int i = 0; i <= INSTRUMENTS; i++)
            {
                snapshot[i] = new DepthBook(depth);
            }
            final TickHandler levels = (buffer, offset) ->
            {
                final TickDecoder tick = new TickDecoder().wrap(buffer, offset, TickDecoder.BLOCK_LENGTH,
                    TickDecoder.SCHEMA_VERSION);
                if (tick.eventType() == EventType.LEVEL)
                {
                    snapshot[tick.instrumentId()].apply(buffer, offset);
                }
                else if (tick.eventType() == EventType.ADD)
                {
                    adds[tick.instrumentId()]++;
                    addedShares[tick.instrumentId()][tick.side() == io.mdgate.core.tick.sbe.Side.BUY ? BookSide.BID :
                        BookSide.ASK] += tick.quantity();
                }
            };
            final long joinBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (joiner.subscriptionsAwaitingAnswer() > 0 && System.nanoTime() < joinBy)
            {
                joiner.poll(levels, 1024);
            }
            joiner.requestSnapshot();
            while ((joiner.isSnapshotPending() || joiner.counters().snapshots() == 0) && System.nanoTime() < joinBy)
            {
                joiner.poll(levels, 1024);
            }
            assertEquals(1, joiner.counters().snapshots(), "the joiner got a snapshot after the restart");
            assertEquals(ticks, joiner.snapshotSequence(), "of the last journaled tick");
            assertEquals(depth, joiner.depthLevels(), "the restarted gateway's D");
            final io.mdgate.egress.protocol.TopOfBookFlyweight top = new io.mdgate.egress.protocol.TopOfBookFlyweight();
            for (int i = 1; i <= INSTRUMENTS; i++)
            {
                final DepthBook table = new DepthBook();
                assertEquals(books.orderCount(i), adds[i], "instrument " + i + ": an ADD per live order in the snapshot");
                assertEquals(TopOfBookReader.READ, joiner.depth(i, table), "depth table of instrument " + i);
                assertEquals(TopOfBookReader.READ, joiner.topOfBook(i, top), "top-of-book table of instrument " + i);
                for (int side = BookSide.BID; side <= BookSide.ASK; side++)
                {
                    final int held = Math.min(depth, books.levelCount(i, side));
                    final String where = "after the restart, instrument " + i + " side " + side;
                    long shares = 0;
                    for (int d = 0; d < books.levelCount(i, side); d++)
                    {
                        shares += books.depthSize(i, side, d);
                    }
                    assertEquals(shares, addedShares[i][side], where + ": the snapshot's orders hold the side's shares");
                    assertEquals(held, table.levels(side), where + ": depth table");
                    assertEquals(held, snapshot[i].levels(side), where + ": snapshot");
                    for (int d = 0; d < held; d++)
                    {
                        assertEquals(books.depthPrice(i, side, d), table.price(side, d), where);
                        assertEquals(books.depthSize(i, side, d), table.quantity(side, d), where);
                        assertEquals(books.depthOrderCount(i, side, d), table.orders(side, d), where);
                        assertEquals(books.depthPrice(i, side, d), snapshot[i].price(side, d), where);
                        assertEquals(books.depthSize(i, side, d), snapshot[i].quantity(side, d), where);
                    }
                    if (held > 0)
                    {
                        assertEquals(books.depthPrice(i, side, 0), side == BookSide.BID ? top.bidPrice() :
                            top.askPrice(), where + ": top-of-book table");
                        assertEquals(books.depthSize(i, side, 0), side == BookSide.BID ? top.bidSize() :
                            top.askSize(), where + ": top-of-book table");
                    }
                }
            }
        }
        finally
        {
            if (joiner != null)
            {
                joiner.close();
            }
            run.stop();
            assertEquals(0, gateway.get(60, TimeUnit.SECONDS), restartErr.toString());
        }
    }

    private static void awaitRunning(final Path counters, final CompletableFuture<Integer> gateway,
        final StringWriter err) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            assertFalse(gateway.isDone(), () -> "the gateway ended before it ran: " + err);
            try (CountersFile file = CountersFile.open(counters))
            {
                if (file.snapshot().has("gateway.uptime_s") && file.snapshot().value("egress.consumers", -1) >= 0)
                {
                    Thread.sleep(200);
                    return;
                }
            }
            catch (final CountersFileException notYet)
            {
                // Still starting.
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the gateway did not start within 30 s");
    }

    /** @return a snapshot once the session ended and everything was journaled and published. */
    private static CountersSnapshot awaitQuiet(final Path counters) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (CountersFile file = CountersFile.open(counters))
        {
            while (System.nanoTime() < deadline)
            {
                final CountersSnapshot s = file.snapshot();
                if (s.value("feed.end_of_session") == 1 && s.value("session.ticks") > 0 &&
                    s.value("journal.position") == s.value("session.ticks") &&
                    s.value("egress.ticks_published") == s.value("session.ticks") &&
                    s.value("latency.ingress_to_session.samples") > 0)
                {
                    return s;
                }
                Thread.sleep(50);
            }
            throw new AssertionError("the session did not end and settle: " + file.snapshot().values());
        }
    }
}
