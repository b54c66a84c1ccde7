package io.mdgate.app;

import io.mdgate.app.sim.SimulatorSettings;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.capture.DecodeSummary;
import io.mdgate.core.capture.MessageTally;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.ingress.DpdkIngress;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code mdgate ingress}: receives the feed through the DPDK ingress on one port (a virtual device such as
 * {@code net_pcap0,rx_pcap=FILE}, or a NIC by PCI address), runs it through the A/B feed session, decode, order
 * books and normalizer, until the source is exhausted (nothing for {@code --idle-ms}), the time limit or Ctrl-C;
 * then prints the same summary as {@code decode} plus the feed session's and the ingress's counters (one JSON
 * object with {@code --json}).
 * <p>
 * Exit codes: 0 ran (the summary says what arrived), 1 the ingress could not start or failed, 2 bad arguments.
 * Runs the receive loop on the calling thread, which DPDK pins to the receive CPU.
 */
@Command(
    name = "ingress",
    sortOptions = false,
    description = {
        "Receive the A and B lines through the DPDK ingress, run them through the feed session, decode, books and " +
            "normalizer until the source is idle, and print the same summary as decode plus line and port counters.",
        "Example: mdgate ingress --vdev net_pcap0,rx_pcap=/tmp/s.pcap --json" },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:received until the source was idle, the time limit or Ctrl-C",
        "1:the ingress could not start, or its port failed",
        "2:bad arguments" })
public final class IngressCommand implements Callable<Integer>
{
    /** Exit code when the ingress cannot start or its port fails. */
    public static final int EXIT_FAILED = 1;

    /** The simulator's lines: what {@code mdgate sim} sends and writes by default. */
    public static final String DEFAULT_LINES = "A=" + SimulatorSettings.DEFAULT_GROUP_A + ",B=" +
        SimulatorSettings.DEFAULT_GROUP_B;

    @Spec
    private CommandSpec spec;

    @Option(names = { "-h", "--help" }, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Option(names = "--vdev", paramLabel = "DEVARGS",
        description = "The port as a DPDK virtual device, e.g. net_pcap0,rx_pcap=FILE (add infinite_rx=1 to loop " +
            "it), net_af_packet0,iface=IF,framecnt=16384, net_af_xdp0,iface=IF,busy_budget=0, net_ring0.")
    private String vdev;

    @Option(names = "--pci", paramLabel = "ADDRESS",
        description = "The port as a NIC bound to a DPDK driver (vfio-pci), by PCI address, e.g. 0000:03:00.0.")
    private String pci;

    @Option(names = "--lines", paramLabel = "LINE=GROUP:PORT,...",
        description = "The (group, port) pairs to keep and the line each feeds (A, B, RECOVERY); default the " +
            "simulator's: ${DEFAULT-VALUE}.")
    private String lines = DEFAULT_LINES;

    @Option(names = "--lcores", paramLabel = "LIST",
        description = "EAL core list (-l); the receive thread is pinned to its first CPU. Default: the last CPU.")
    private String lcores;

    @Option(names = "--receive-cpu", paramLabel = "CPU", defaultValue = "-1",
        description = "Pin the receive thread to this CPU instead of the first of --lcores.")
    private int receiveCpu;

    @Option(names = { "-m", "--memory" }, paramLabel = "MB", defaultValue = "256",
        description = "Memory EAL reserves, in MB (EAL's -m; default ${DEFAULT-VALUE}).")
    private int memoryMegabytes;

    @Option(names = "--no-huge",
        description = "Run without hugepages (the default unless --huge-dir is given); slower, works anywhere.")
    private boolean noHuge;

    @Option(names = "--huge-dir", paramLabel = "DIR",
        description = "A mounted hugetlbfs directory; EAL then runs --in-memory from hugepages.")
    private Path hugeDir;

    @Option(names = "--mbufs", paramLabel = "N", defaultValue = "8191",
        description = "Mbufs in the port's pool (default ${DEFAULT-VALUE}); net_pcap with infinite_rx=1 needs " +
            "more than the capture has packets.")
    private int mbufs;

    @Option(names = "--rx-descriptors", paramLabel = "N", defaultValue = "1024",
        description = "RX ring size (default ${DEFAULT-VALUE}).")
    private int rxDescriptors;

    @Option(names = "--tsc-timestamps",
        description = "Stamp packets with the TSC even where the device stamps them (a NIC, a capture's times).")
    private boolean tscTimestamps;

    @Option(names = "--no-igmp", description = "Send no IGMPv3 joins, answers or leaves.")
    private boolean noIgmp;

    @Option(names = "--eal", paramLabel = "ARG",
        description = "One more EAL argument, as EAL takes it (repeatable), e.g. --eal=--log-level=pmd.net.*:debug.")
    private List<String> ealArguments = new ArrayList<>();

    @Option(names = "--idle-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Stop when no packet came for this long (default ${DEFAULT-VALUE}).")
    private long idleMillis;

    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "0",
        description = "Stop after this long in any case; 0 (default) for no limit.")
    private long maxSeconds;

    @Option(names = "--session-date", paramLabel = "YYYY-MM-DD",
        description = "Trading date of the session, for exchange timestamps in ticks. Default: today in New York.")
    private LocalDate sessionDate;

    @Option(names = "--json", description = "Print one JSON object: decode's keys, then \"feed\" and \"ingress\".")
    private boolean json;

    @Option(names = "--verbose", description = "Also print DPDK's start-up log to standard error.")
    private boolean verbose;

    @Override
    public Integer call()
    {
        final IngressLines ingressLines = parseLines();
        final DpdkIngress.Context context = context(ingressLines);
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();

        final MessageProcessor processor = new MessageProcessor(new Normalizer(
            new OrderBooks(new BookContext().conclude()),
            new ExchangeClock(sessionDate != null ? sessionDate : LocalDate.now(ExchangeClock.NEW_YORK)),
            (buffer, offset) -> {},
            1));
        final MessageTally tally = new MessageTally(null, processor);
        final FeedSession session = new FeedSession(new FeedSession.Context()
            .messageHandler(tally)
            .gapHandler(processor)
            .packetContextHandler(processor));
        processor.packetDecoder(session.decoder());

        final IngressStats stats;
        final long elapsedNanos;
        final int failure;
        try (DpdkIngress ingress = new DpdkIngress(context))
        {
            try
            {
                ingress.start();
            }
            catch (final IllegalStateException ex)
            {
                err.println("mdgate ingress: " + ex.getMessage());
                err.flush();
                return EXIT_FAILED;
            }
            finally
            {
                if (verbose)
                {
                    err.println(DpdkIngress.lastDpdkLog());
                    err.flush();
                }
            }
            final IngressRun run = new IngressRun(ingress, session, TimeUnit.MILLISECONDS.toNanos(idleMillis),
                TimeUnit.SECONDS.toNanos(maxSeconds));
            elapsedNanos = runUntilDone(run);
            failure = run.failure();
            ingress.close();
            stats = ingress.stats();
        }
        if (failure < 0)
        {
            err.println("mdgate ingress: the port failed (" + failure + ") after " + stats.packets() + " packets");
            err.flush();
        }
        final DecodeSummary summary = IngressReport.summary(context.device(), ingressLines, tally, session, stats,
            elapsedNanos);
        if (json)
        {
            out.println(IngressReport.json(summary, session, stats));
        }
        else
        {
            IngressReport.text(out, summary, session, stats);
        }
        out.flush();
        return failure < 0 ? EXIT_FAILED : 0;
    }

    /** Runs until done; Ctrl-C stops the run and waits for it, so the port is closed and the groups left. */
    private static long runUntilDone(final IngressRun run)
    {
        final CountDownLatch done = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            run.stop();
            try
            {
                done.await(5, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "mdgate-ingress-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            return run.run();
        }
        finally
        {
            done.countDown();
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException shuttingDown)
            {
                // The JVM is exiting (Ctrl-C): the hook runs and finds the run done.
            }
        }
    }

    private IngressLines parseLines()
    {
        try
        {
            return IngressLines.parse(lines);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--lines: " + ex.getMessage());
        }
    }

    private DpdkIngress.Context context(final IngressLines ingressLines)
    {
        if ((vdev == null) == (pci == null))
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "give the port as exactly one of --vdev DEVARGS (e.g. net_pcap0,rx_pcap=FILE) or --pci ADDRESS");
        }
        if (hugeDir != null && noHuge)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "give --no-huge or --huge-dir DIR, not both");
        }
        if (idleMillis < 1 || maxSeconds < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--idle-ms must be 1 or more and --max-seconds 0 or more");
        }
        final DpdkIngress.Context context = new DpdkIngress.Context()
            .device(vdev != null ? vdev : pci)
            .lines(ingressLines)
            .receiveCpu(receiveCpu)
            .memoryMegabytes(memoryMegabytes)
            .hugeDir(hugeDir)
            .extraEalArguments(ealArguments)
            .mbufs(mbufs)
            .rxDescriptors(rxDescriptors)
            .hardwareTimestamps(!tscTimestamps)
            .igmp(!noIgmp)
            .log(message ->
            {
                spec.commandLine().getErr().println(message);
                spec.commandLine().getErr().flush();
            });
        if (lcores != null)
        {
            context.lcores(lcores);
        }
        try
        {
            return context.conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
    }
}
