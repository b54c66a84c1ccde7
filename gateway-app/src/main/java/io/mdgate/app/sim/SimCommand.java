package io.mdgate.app.sim;

import io.mdgate.app.FailureReasons;
import io.mdgate.app.OutputPaths;
import io.mdgate.app.ProgressOptions;
import io.mdgate.app.Stdio;
import io.mdgate.app.StdioArguments;
import io.mdgate.app.StopSignal;
import io.mdgate.app.TerminationTrap;
import io.mdgate.core.mold.MoldUdp64Session;
import io.mdgate.core.sim.RateProfile;
import io.mdgate.core.sim.SimulationConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code mdgate sim}: the exchange simulator. Generates a seeded ITCH 5.0 session, frames it into MoldUDP64
 * packets on an A and a B line with optional faults, and writes a pcap, a Nasdaq daily file, or sends live
 * multicast; optionally serves re-requests. Prints a summary, or one JSON object with {@code --json}: on stdout, or
 * on stderr when the pcap or daily file goes to stdout ({@code -}). Progress goes to stderr on a terminal
 * ({@link ProgressOptions}). Bad arguments are refused before anything runs (exit code 2).
 */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Simulate an exchange: a seeded ITCH 5.0 session in MoldUDP64 packets on two lines, A and B.",
        "Writes a pcap, a Nasdaq daily file or live multicast, with optional faults and a re-request server.",
        "The summary goes to stdout, or to stderr when the pcap or file goes to stdout (-). On a terminal, progress " +
            "is shown on stderr about once a second." })
public final class SimCommand implements Callable<Integer>
{
    /** How long a SIGTERM may take to end the run: the linger ends at once; a session still being sent does not. */
    private static final long STOP_GRACE_SECONDS = 5;

    @Spec
    CommandSpec spec;

    @Option(names = "--messages", paramLabel = "N", defaultValue = "1000000",
        description = "Messages in the session, start and end of day included (default ${DEFAULT-VALUE}).")
    long messages;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
        description = "Seed: the same seed and options give the same bytes (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--instruments", paramLabel = "K", defaultValue = "100",
        description = "Instruments, stock locates 1..K (default ${DEFAULT-VALUE}, at most 8192).")
    int instruments;

    @Option(names = "--rate", paramLabel = "MSG_PER_S", defaultValue = "1000000",
        description = "Mean message rate in exchange time (default ${DEFAULT-VALUE}).")
    long rate;

    @Option(names = "--burst",
        description = "Opening burst: the rate starts at --burst-multiplier times --rate at 09:30 and decays back.")
    boolean burst;

    @Option(names = "--burst-multiplier", paramLabel = "X", defaultValue = "10",
        description = "Rate multiplier at the open with --burst (default ${DEFAULT-VALUE}).")
    double burstMultiplier;

    @Option(names = "--burst-decay-ms", paramLabel = "MS", defaultValue = "2000",
        description = "Time constant of the burst's decay (default ${DEFAULT-VALUE}).")
    long burstDecayMs;

    @Option(names = "--orders-per-instrument", paramLabel = "N", defaultValue = "100",
        description = "Live orders per instrument the order flow keeps around (default ${DEFAULT-VALUE}).")
    int ordersPerInstrument;

    @Option(names = "--price-levels", paramLabel = "N", defaultValue = "256",
        description = "Price levels, one cent apart, in each instrument's window (default ${DEFAULT-VALUE}, " +
            "128 to 2048).")
    int priceLevels;

    @Option(names = "--far-order-share", paramLabel = "P", defaultValue = "0",
        description = "Share of new and replaced orders placed far from the touch (default ${DEFAULT-VALUE}).")
    double farOrderShare;

    @Option(names = "--far-order-levels", paramLabel = "N", defaultValue = "64",
        description = "Far orders rest 25 to N levels behind the quote; at most --price-levels / 2 - 32 " +
            "(default ${DEFAULT-VALUE}).")
    int farOrderLevels;

    @Option(names = "--date", paramLabel = "YYYY-MM-DD", defaultValue = "2025-01-02",
        description = "Session date, for pcap timestamps (default ${DEFAULT-VALUE}).")
    LocalDate date;

    @Option(names = "--pcap", paramLabel = "FILE",
        description = "Write both lines to a pcap file (.gz compresses); - writes it to stdout (e.g. | tshark -r -).")
    @Stdio
    Path pcap;

    @Option(names = "--itch", paramLabel = "FILE",
        description = "Write the bare messages as a Nasdaq daily file (.gz compresses); no packets or faults; - " +
            "writes it to stdout.")
    @Stdio
    Path itch;

    @Mixin
    ProgressOptions progressOptions;

    /**
     * Where {@code --pcap -} and {@code --itch -} write: the process's stdout (replaced in tests), not through
     * System.out, which would swallow a closed pipe's error and let the run go on writing into nothing.
     */
    OutputStream binaryStdout = new FileOutputStream(FileDescriptor.out);

    @Option(names = "--send", paramLabel = "IFACE",
        description = "Send both lines live as UDP multicast through this interface, paced to the timestamps.")
    String sendInterface;

    @Option(names = "--session", paramLabel = "NAME", defaultValue = "SIM0000001",
        description = "MoldUDP64 session, up to 10 ASCII characters (default ${DEFAULT-VALUE}).")
    String session;

    @Option(names = "--messages-per-packet", paramLabel = "M", defaultValue = "0",
        description = "Most messages per packet; 0 fills packets up to the MTU (default ${DEFAULT-VALUE}).")
    int messagesPerPacket;

    @Option(names = "--mtu", paramLabel = "BYTES", defaultValue = "1500",
        description = "Link MTU; packets are at most MTU - 28 bytes (default ${DEFAULT-VALUE}).")
    int mtu;

    @Option(names = "--packet-window-us", paramLabel = "US", defaultValue = "10",
        description = "A packet takes the messages arriving this long after its first (default ${DEFAULT-VALUE}).")
    long packetWindowMicros;

    @Option(names = "--heartbeat-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Idle exchange time between heartbeats (default ${DEFAULT-VALUE}).")
    long heartbeatMillis;

    @Option(names = "--loss-a", paramLabel = "P", defaultValue = "0",
        description = "Probability a line A packet starts a loss (0.01 = 1%%).")
    double lossA;

    @Option(names = "--loss-b", paramLabel = "P", defaultValue = "0",
        description = "Probability a line B packet starts a loss.")
    double lossB;

    @Option(names = "--loss-burst", paramLabel = "N", defaultValue = "1",
        description = "A loss drops 1 to N consecutive packets (default ${DEFAULT-VALUE}).")
    int lossBurst;

    @Option(names = "--reorder", paramLabel = "P", defaultValue = "0",
        description = "Probability, on each line, a packet is sent after up to --reorder-depth later ones.")
    double reorder;

    @Option(names = "--reorder-depth", paramLabel = "N", defaultValue = "3",
        description = "How many packets a reordered one may fall behind (default ${DEFAULT-VALUE}).")
    int reorderDepth;

    @Option(names = "--duplicate", paramLabel = "P", defaultValue = "0",
        description = "Probability, on each line, a packet is sent twice.")
    double duplicate;

    @Option(names = "--corrupt", paramLabel = "P", defaultValue = "0",
        description = "Probability, on each line, a packet is damaged (cut short, bad block length or type).")
    double corrupt;

    @Option(names = "--group-a", paramLabel = "ADDR:PORT", defaultValue = "233.54.12.111:26477",
        description = "Line A multicast group (default ${DEFAULT-VALUE}).")
    String groupA;

    @Option(names = "--group-b", paramLabel = "ADDR:PORT", defaultValue = "233.49.196.111:26477",
        description = "Line B multicast group (default ${DEFAULT-VALUE}).")
    String groupB;

    @Option(names = "--source", paramLabel = "ADDR:PORT", defaultValue = "10.0.0.1:26400",
        description = "Source address and port written into the pcap (default ${DEFAULT-VALUE}).")
    String source;

    @Option(names = "--ttl", paramLabel = "N", defaultValue = "1",
        description = "Multicast TTL for --send (default ${DEFAULT-VALUE}: the local segment only).")
    int ttl;

    @Option(names = "--max-idle-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Longest wall-clock pause between live packets; longer idle times are cut (default ${DEFAULT-VALUE}).")
    long maxIdleMillis;

    @Option(names = "--pacing", paramLabel = "spin|sleep", defaultValue = "spin",
        description = "How --send waits for a packet's time: spin (default: within a microsecond, keeps a CPU busy) " +
            "or sleep (parks the whole wait, within some microseconds, leaves the CPU to others between packets).")
    String pacingName;

    @Option(names = "--serve-retransmits", paramLabel = "PORT",
        description = "Answer MoldUDP64 re-requests on this UDP port (0 picks a free one).")
    Integer retransmitPort;

    @Option(names = "--retransmit-address", paramLabel = "ADDR", defaultValue = "127.0.0.1",
        description = "Address the re-request server listens on (default ${DEFAULT-VALUE}).")
    String retransmitAddress;

    @Option(names = "--answer-limit", paramLabel = "N", defaultValue = "1000",
        description = "Most messages in one re-request answer (default ${DEFAULT-VALUE}).")
    int answerLimit;

    @Option(names = "--retransmit-window", paramLabel = "N", defaultValue = "2000000",
        description = "Most recent messages kept for re-requests (default ${DEFAULT-VALUE}).")
    int retransmitWindow;

    @Option(names = "--linger-ms", paramLabel = "MS", defaultValue = "5000",
        description = "Keep answering re-requests this long after the session ends (default ${DEFAULT-VALUE}); " +
            "SIGTERM or Ctrl-C ends the linger early, the summary still printed.")
    long lingerMillis;

    @Option(names = "--session-change-at", paramLabel = "N", defaultValue = "0",
        description = "Change session after N messages: end of session on the first, the day continues in " +
            "--second-session from sequence 1 (default ${DEFAULT-VALUE}: no change).")
    long sessionChangeAt;

    @Option(names = "--second-session", paramLabel = "NAME", defaultValue = "SIM0000002",
        description = "MoldUDP64 session after --session-change-at (default ${DEFAULT-VALUE}).")
    String secondSession;

    @Option(names = "--lag-b-ms", paramLabel = "MS", defaultValue = "0",
        description = "Line B sends each packet this much exchange time after line A (default ${DEFAULT-VALUE}).")
    double lagBMillis;

    @Option(names = "--stray", paramLabel = "N", defaultValue = "0",
        description = "Send N stray packets, spread over the run: copies of data packets with one bit of the " +
            "session name flipped (default ${DEFAULT-VALUE}).")
    long strays;

    @Option(names = "--stray-rate", paramLabel = "P", defaultValue = "0",
        description = "Probability a data packet is followed by a stray copy.")
    double strayRate;

    @Option(names = "--far-ahead", paramLabel = "N", defaultValue = "0",
        description = "Send N far-ahead packets, spread over the run: copies of data packets with their sequence " +
            "shifted up to --far-ahead-sequence (default ${DEFAULT-VALUE}).")
    long farAhead;

    @Option(names = "--far-ahead-rate", paramLabel = "P", defaultValue = "0",
        description = "Probability a data packet is followed by a far-ahead copy.")
    double farAheadRate;

    @Option(names = "--far-ahead-sequence", paramLabel = "S", defaultValue = "1099511627776",
        description = "Sequence of a far-ahead copy of the packet at sequence 1; later packets' copies are as far " +
            "ahead (default ${DEFAULT-VALUE} = 2^40).")
    long farAheadSequence;

    @Option(names = "--json", description = "Print the summary as one JSON object.")
    boolean json;

    @Override
    public Integer call()
    {
        final SimulatorSettings settings = settings();
        OutputPaths.checkFile(spec.commandLine(), "--pcap", pcap);
        OutputPaths.checkFile(spec.commandLine(), "--itch", itch);
        // While lingering, SIGTERM or Ctrl-C ends the linger, the summary is still printed and the exit code is 0: a test
        // bed can keep the re-request server up as long as its gateway may need it and stop it once the gateway has
        // the session. While the session is being sent the signal ends the JVM after the grace time, as before.
        final boolean lingers = settings.servesRetransmits() && settings.lingerNanos() > 0;
        try (StopSignal signal = lingers ? new StopSignal() : null;
            TerminationTrap ignored = lingers ? new TerminationTrap(signal, STOP_GRACE_SECONDS) : null)
        {
            final SimulationRun run = new SimulationRun(settings, binaryStdout,
                progressOptions.bar(spec, "messages", settings.simulation().messages()));
            if (null != signal)
            {
                run.lingerWhile(signal::running);
            }
            final SimSummary summary = run.run();
            final boolean dataOnStdout = StdioArguments.isDash(pcap) || StdioArguments.isDash(itch);
            printSummary(summary, dataOnStdout);
        }
        catch (final UncheckedIOException | IllegalArgumentException ex)
        {
            spec.commandLine().getErr().println("mdgate sim: " + (ex.getCause() instanceof IOException io ?
                FailureReasons.describe(io) : ex.getMessage()));
            return 1;
        }
        return 0;
    }

    /** A pcap or ITCH file on stdout is the data there; the summary then goes to stderr. */
    private void printSummary(final SimSummary summary, final boolean dataOnStdout)
    {
        final PrintWriter out = dataOnStdout ? spec.commandLine().getErr() : spec.commandLine().getOut();
        out.print(json ? summary.toJson() + System.lineSeparator() : summary.toText());
        out.flush();
    }

    /** @return the settings, checked; refuses bad ones with a message saying what would be right. */
    SimulatorSettings settings()
    {
        final int outputs = (null == pcap ? 0 : 1) + (null == itch ? 0 : 1) + (null == sendInterface ? 0 : 1);
        if (outputs > 1)
        {
            throw refuse("choose one output: --pcap FILE, --itch FILE or --send IFACE");
        }
        final SimulatorSettings.Output output = null != pcap ? SimulatorSettings.Output.PCAP :
            null != itch ? SimulatorSettings.Output.ITCH :
            null != sendInterface ? SimulatorSettings.Output.SEND : SimulatorSettings.Output.NONE;
        final FaultConfig faultsA = faults(lossA);
        final FaultConfig faultsB = faults(lossB);
        if (output == SimulatorSettings.Output.ITCH && (!faultsA.isNone() || !faultsB.isNone() || null != retransmitPort))
        {
            throw refuse("--itch writes bare messages without MoldUDP64 packets, so faults and --serve-retransmits " +
                "do not apply; use --pcap FILE or --send IFACE for them");
        }
        check(mtu >= 100 && mtu <= 65_535, "--mtu must be 100 to 65535 bytes, was " + mtu);
        check(messagesPerPacket >= 0 && messagesPerPacket <= 65_534,
            "--messages-per-packet must be 0 (fill to the MTU) to 65534, was " + messagesPerPacket);
        check(packetWindowMicros >= 0, "--packet-window-us must be 0 or more, was " + packetWindowMicros);
        check(heartbeatMillis >= 1, "--heartbeat-ms must be at least 1, was " + heartbeatMillis);
        check(ttl >= 0 && ttl <= 255, "--ttl must be 0 to 255, was " + ttl);
        check(maxIdleMillis >= 0, "--max-idle-ms must be 0 or more, was " + maxIdleMillis);
        check("spin".equals(pacingName) || "sleep".equals(pacingName),
            "--pacing must be spin or sleep, was '" + pacingName + "'");
        final SimulatorSettings.Pacing pacing = "sleep".equals(pacingName) ?
            SimulatorSettings.Pacing.SLEEP : SimulatorSettings.Pacing.SPIN;
        check(lingerMillis >= 0, "--linger-ms must be 0 or more, was " + lingerMillis);
        check(null == retransmitPort || (retransmitPort >= 0 && retransmitPort <= 65_535),
            "--serve-retransmits needs a UDP port from 0 to 65535, was " + retransmitPort);
        check(answerLimit >= 1 && answerLimit <= 65_534, "--answer-limit must be 1 to 65534, was " + answerLimit);
        check(retransmitWindow >= 1, "--retransmit-window must be at least 1 message, was " + retransmitWindow);
        final InjectedPackets injected = injected();
        check(lagBMillis >= 0 && lagBMillis <= 60_000, "--lag-b-ms must be 0 to 60000 ms, was " + lagBMillis);
        if (output == SimulatorSettings.Output.ITCH && (sessionChangeAt != 0 || lagBMillis > 0 || !injected.isNone()))
        {
            throw refuse("--itch writes one session's bare messages without MoldUDP64 packets, so " +
                "--session-change-at, --lag-b-ms, --stray and --far-ahead do not apply; use --pcap FILE or --send IFACE");
        }
        check(sessionChangeAt == 0 || (sessionChangeAt >= 1 && sessionChangeAt < messages),
            "--session-change-at must be 0 (no change) or 1 to --messages - 1 (" + (messages - 1) + "), was " +
                sessionChangeAt);
        final UdpAddress a = address("--group-a", groupA);
        final UdpAddress b = address("--group-b", groupB);
        if (output == SimulatorSettings.Output.SEND)
        {
            checkInterface(sendInterface);
            check(a.isMulticast() && b.isMulticast(), "--send needs multicast groups (224.0.0.0 to 239.255.255.255); " +
                "--group-a is " + a + ", --group-b is " + b);
        }
        try
        {
            MoldUdp64Session.of(session);
        }
        catch (final IllegalArgumentException ex)
        {
            throw refuse("--session: " + ex.getMessage());
        }
        if (sessionChangeAt > 0)
        {
            try
            {
                MoldUdp64Session.of(secondSession);
            }
            catch (final IllegalArgumentException ex)
            {
                throw refuse("--second-session: " + ex.getMessage());
            }
            check(!java.util.Arrays.equals(MoldUdp64Session.of(session), MoldUdp64Session.of(secondSession)),
                "--second-session must differ from --session (both are '" + session + "')");
        }
        return new SimulatorSettings(simulation(), session, output, null != pcap ? pcap : itch, sendInterface, a, b,
            address("--source", source), mtu, messagesPerPacket, TimeUnit.MICROSECONDS.toNanos(packetWindowMicros),
            TimeUnit.MILLISECONDS.toNanos(heartbeatMillis), faultsA, faultsB, ttl,
            TimeUnit.MILLISECONDS.toNanos(maxIdleMillis), pacing, null == retransmitPort ? -1 : retransmitPort,
            retransmitAddress, answerLimit, retransmitWindow, TimeUnit.MILLISECONDS.toNanos(lingerMillis),
            sessionChangeAt, secondSession, Math.round(lagBMillis * 1_000_000), injected);
    }

    private InjectedPackets injected()
    {
        try
        {
            return new InjectedPackets(strays, strayRate, farAhead, farAheadRate, farAheadSequence);
        }
        catch (final IllegalArgumentException ex)
        {
            throw refuse(ex.getMessage());
        }
    }

    private SimulationConfig simulation()
    {
        final SimulationConfig config = new SimulationConfig()
            .seed(seed)
            .instruments(instruments)
            .messages(messages)
            .messagesPerSecond(rate)
            .rateProfile(burst ? RateProfile.OPENING_BURST : RateProfile.STEADY)
            .burstMultiplier(burstMultiplier)
            .burstDecayNanos(TimeUnit.MILLISECONDS.toNanos(burstDecayMs))
            .ordersPerInstrument(ordersPerInstrument)
            .priceLevels(priceLevels)
            .farOrderShare(farOrderShare)
            .farOrderLevels(farOrderLevels)
            .sessionDate(date);
        try
        {
            return config.conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw refuse(ex.getMessage());
        }
    }

    private FaultConfig faults(final double loss)
    {
        try
        {
            return new FaultConfig(loss, lossBurst, reorder, reorderDepth, duplicate, corrupt);
        }
        catch (final IllegalArgumentException ex)
        {
            throw refuse(ex.getMessage());
        }
    }

    private UdpAddress address(final String option, final String text)
    {
        try
        {
            return UdpAddress.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw refuse(option + ": " + ex.getMessage());
        }
    }

    private void checkInterface(final String name)
    {
        try
        {
            check(null != NetworkInterface.getByName(name),
                "--send: no network interface named '" + name + "'; `ip link` lists them (e.g. lo, eth0)");
        }
        catch (final SocketException ex)
        {
            throw refuse("--send: cannot look up interface '" + name + "': " + ex.getMessage());
        }
    }

    private void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw refuse(message);
        }
    }

    private ParameterException refuse(final String message)
    {
        return new ParameterException(spec.commandLine(), message);
    }
}
