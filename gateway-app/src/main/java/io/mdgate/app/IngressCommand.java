package io.mdgate.app;

import io.mdgate.app.sim.SimulatorSettings;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.capture.DecodeSummary;
import io.mdgate.core.capture.MessageTally;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.feed.UdpRetransmitRequester;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.ingress.DpdkIngress;
import io.mdgate.ingress.Ingress;
import io.mdgate.ingress.IngressLines;
import io.mdgate.ingress.IngressStats;
import io.mdgate.ingress.socket.SocketIngress;
import io.mdgate.runtime.config.RetransmitPath;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code mdgate ingress}: receives the feed through the DPDK ingress on one port (a virtual device such as
 * {@code net_pcap0,rx_pcap=FILE}, or a NIC by PCI address) or, with {@code --ingress socket}, through kernel UDP
 * sockets joined on {@code --interface}, runs it through the A/B feed session (re-requesting from
 * {@code --retransmit HOST:PORT} when given), decode, order
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
        "Receive the A and B lines through the DPDK ingress (or kernel sockets with --ingress socket), run them " +
            "through the feed session (re-requesting gaps from --retransmit), decode, books and " +
            "normalizer until the source is idle, and print the same summary as decode plus line and port counters.",
        "Example: mdgate ingress --vdev net_pcap0,rx_pcap=/tmp/s.pcap --json",
        "Example: mdgate ingress --ingress socket --interface eth1 --retransmit 10.0.0.1:26400 --json" },
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

    @Option(names = "--ingress", paramLabel = "KIND", defaultValue = "dpdk",
        description = "Which ingress receives the lines: dpdk (default: --vdev or --pci) or socket (kernel UDP " +
            "sockets joined on --interface). Chosen here only, never as a fallback.")
    private IngressKind ingressKind;

    @Option(names = "--interface", paramLabel = "IFACE",
        description = "With --ingress socket: the interface the sockets join the groups on, as ip link names it.")
    private String interfaceName;

    @Option(names = "--retransmit", paramLabel = "HOST:PORT",
        description = "The MoldUDP64 re-request server: gaps both lines lost are requested from it over UDP. " +
            "Without it such gaps are declared lost after --gap-wait-us.")
    private String retransmit;

    @Option(names = "--first-sequence", paramLabel = "N", defaultValue = "0",
        description = "The session's first sequence; 0 (default) starts at the first packet seen, 1 recovers a " +
            "session joined late from its start.")
    private long firstSequence;

    @Option(names = "--session", paramLabel = "NAME", defaultValue = "",
        description = "The only MoldUDP64 session to accept (up to 10 characters); packets of any other are counted " +
            "and dropped. Default: none, a session is accepted once both lines (or consecutive packets of one) show " +
            "it, the same rule as [feed] session in run (docs/FEED.md).")
    private String session;

    @Option(names = "--gap-wait-us", paramLabel = "US", defaultValue = "200",
        description = "How long a gap waits for the other line before it is re-requested (default ${DEFAULT-VALUE}).")
    private long gapWaitMicros;

    @Option(names = "--retry-interval-us", paramLabel = "US", defaultValue = "2000",
        description = "How long a round of re-requests waits for answers before it is repeated (default " +
            "${DEFAULT-VALUE}).")
    private long retryIntervalMicros;

    @Option(names = "--max-retries", paramLabel = "N", defaultValue = "5",
        description = "Rounds after the first without progress before a gap is declared lost (default " +
            "${DEFAULT-VALUE}).")
    private int maxRetries;

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
        description = "Stop when no packet came for this long after the first one, once no gap is in recovery " +
            "(default ${DEFAULT-VALUE}).")
    private long idleMillis;

    @Option(names = "--start-wait-ms", paramLabel = "MS", defaultValue = "10000",
        description = "Stop when no first packet came in this long; 0 waits until --max-seconds " +
            "(default ${DEFAULT-VALUE}).")
    private long startWaitMillis;

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

    /** The two ways in: the DPDK ingress, or kernel UDP sockets. */
    enum IngressKind
    {
        dpdk, socket
    }

    /** DPDK settings that mean nothing to the socket ingress: refused with it rather than ignored. */
    private static final List<String> DPDK_ONLY_OPTIONS = List.of("--vdev", "--pci", "--lcores", "--receive-cpu",
        "--memory", "--no-huge", "--huge-dir", "--mbufs", "--rx-descriptors", "--tsc-timestamps", "--no-igmp",
        "--eal", "--verbose");

    @Override
    public Integer call()
    {
        final IngressLines ingressLines = parseLines();
        final InetSocketAddress retransmitServer = parseRetransmit();
        final FeedSession.Context sessionContext = sessionContext();
        final DpdkIngress.Context dpdkContext = ingressKind == IngressKind.dpdk ? context(ingressLines) : null;
        if (dpdkContext != null && vdev != null && retransmitServer != null)
        {
            refuseUnanswerableReRequests(vdev, retransmitServer);
        }
        final SocketIngress.Context socketContext = ingressKind == IngressKind.socket ?
            socketContext(ingressLines) : null;
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();

        final MessageProcessor processor = new MessageProcessor(new Normalizer(
            new OrderBooks(new BookContext().conclude()),
            new ExchangeClock(sessionDate != null ? sessionDate : LocalDate.now(ExchangeClock.NEW_YORK)),
            (buffer, offset) -> {},
            1));
        final MessageTally tally = new MessageTally(null, processor);

        final IngressStats stats;
        final long elapsedNanos;
        final int failure;
        final FeedSession session;
        final String source = dpdkContext != null ? dpdkContext.device() : "socket " + interfaceName;
        UdpRetransmitRequester requester = null;
        try (Ingress ingress = dpdkContext != null ? new DpdkIngress(dpdkContext) : new SocketIngress(socketContext))
        {
            try
            {
                if (retransmitServer != null)
                {
                    requester = new UdpRetransmitRequester(retransmitServer);
                }
                ingress.start();
            }
            catch (final IllegalStateException | IllegalArgumentException | UncheckedIOException ex)
            {
                err.println("mdgate ingress: " + ex.getMessage());
                err.flush();
                return EXIT_FAILED;
            }
            finally
            {
                if (verbose && dpdkContext != null)
                {
                    err.println(DpdkIngress.lastDpdkLog());
                    err.flush();
                }
            }
            session = new FeedSession(sessionContext
                .messageHandler(tally)
                .gapHandler(processor)
                .packetContextHandler(processor)
                .requester(requester)
                .listener(new GapLog(err)));
            processor.packetDecoder(session.decoder());
            err.println("mdgate ingress: receiving " + ingressLines + " from " + source +
                (retransmitServer != null ? ", re-requests to " + retransmitServer : ", no re-request server"));
            err.flush();
            final IngressRun run = new IngressRun(ingress, session, TimeUnit.MILLISECONDS.toNanos(idleMillis),
                TimeUnit.MILLISECONDS.toNanos(startWaitMillis), TimeUnit.SECONDS.toNanos(maxSeconds));
            elapsedNanos = runUntilDone(run);
            failure = run.failure();
            if (failure == 0 && !run.receivedAny())
            {
                err.println("mdgate ingress: no packet of " + ingressLines + " came from " + source + " in " +
                    TimeUnit.NANOSECONDS.toMillis(elapsedNanos) + " ms; is the feed sending, and on this interface? " +
                    "(--start-wait-ms sets how long to wait for the first packet)");
                err.flush();
            }
            ingress.close();
            stats = ingress.stats();
        }
        finally
        {
            if (requester != null)
            {
                requester.close();
            }
        }
        if (failure < 0)
        {
            err.println("mdgate ingress: the port failed (" + failure + ") after " + stats.packets() + " packets");
            err.flush();
        }
        final DecodeSummary summary = IngressReport.summary(source, ingressLines, tally, session, stats,
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

    /** Says once, on standard error, which sequences were given up and why; the rest of the listener is quiet. */
    private static final class GapLog implements io.mdgate.core.feed.FeedSessionListener
    {
        private final PrintWriter err;

        GapLog(final PrintWriter err)
        {
            this.err = err;
        }

        @Override
        public void onGapDeclared(final long firstSequence, final long count, final int reason)
        {
            final String why = switch (reason)
            {
                case FeedSession.LOST_NO_RECOVERY -> "no re-request server";
                case FeedSession.LOST_RETRIES_EXHAUSTED -> "re-requests unanswered";
                case FeedSession.LOST_HOLD_FULL -> "hold full";
                case FeedSession.LOST_SESSION_CHANGED -> "session changed";
                default -> "reason " + reason;
            };
            err.println("mdgate ingress: gap declared: " + count + " messages from sequence " + firstSequence +
                " (" + why + ")");
            err.flush();
        }
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

    private FeedSession.Context sessionContext()
    {
        if (idleMillis < 1 || startWaitMillis < 0 || maxSeconds < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--idle-ms must be 1 or more, --start-wait-ms and --max-seconds 0 or more");
        }
        if (firstSequence < 0 || gapWaitMicros < 0 || retryIntervalMicros < 1 || maxRetries < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--first-sequence and --gap-wait-us must be " +
                "0 or more, --retry-interval-us 1 or more, --max-retries 0 or more");
        }
        final FeedSession.Context context = new FeedSession.Context()
            .session(session)
            .firstSequence(firstSequence)
            .gapWaitNanos(TimeUnit.MICROSECONDS.toNanos(gapWaitMicros))
            .retryIntervalNanos(TimeUnit.MICROSECONDS.toNanos(retryIntervalMicros))
            .maxRetries(maxRetries)
            .messageHandler((buffer, offset, length, sequence) -> {})
            .gapHandler((first, count) -> {});
        try
        {
            // Checked now so bad settings are refused up front; call() sets the real outputs before the session.
            context.conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
        return context;
    }

    private InetSocketAddress parseRetransmit()
    {
        if (retransmit == null)
        {
            return null;
        }
        final int colon = retransmit.lastIndexOf(':');
        int port = -1;
        if (colon > 0)
        {
            try
            {
                port = Integer.parseInt(retransmit.substring(colon + 1));
            }
            catch (final NumberFormatException ex)
            {
                port = -1;
            }
        }
        if (port < 1 || port > 65_535)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--retransmit: '" + retransmit +
                "' is not HOST:PORT with a port from 1 to 65535, e.g. 10.0.0.1:26400");
        }
        try
        {
            return new InetSocketAddress(InetAddress.getByName(retransmit.substring(0, colon)), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--retransmit: host '" +
                retransmit.substring(0, colon) + "' does not resolve; give an IPv4 address or a known host name");
        }
    }

    /** Refuses af_xdp on the interface the re-requests go out on: their answers would never reach the socket. */
    private void refuseUnanswerableReRequests(final String devargs, final InetSocketAddress server)
    {
        RetransmitPath.refusal(devargs, server).ifPresent((why) ->
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--retransmit with --vdev " + devargs +
                ": " + why);
        });
    }

    private SocketIngress.Context socketContext(final IngressLines ingressLines)
    {
        final List<String> given = new ArrayList<>();
        for (final String name : DPDK_ONLY_OPTIONS)
        {
            if (spec.commandLine().getParseResult().hasMatchedOption(name))
            {
                given.add(name);
            }
        }
        if (!given.isEmpty())
        {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join(", ", given) +
                (given.size() == 1 ? " is a DPDK setting" : " are DPDK settings") + " and --ingress socket uses " +
                "none; leave " + (given.size() == 1 ? "it" : "them") + " out, or use --ingress dpdk");
        }
        if (interfaceName == null)
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--ingress socket needs --interface IFACE, the interface to join the groups on (e.g. eth0, lo)");
        }
        try
        {
            return new SocketIngress.Context().lines(ingressLines).interfaceName(interfaceName).conclude();
        }
        catch (final IllegalArgumentException | IllegalStateException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    private DpdkIngress.Context context(final IngressLines ingressLines)
    {
        if (interfaceName != null)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--interface is for --ingress socket; the " +
                "DPDK ingress takes its interface in the device, e.g. --vdev net_af_packet0,iface=" + interfaceName);
        }
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
