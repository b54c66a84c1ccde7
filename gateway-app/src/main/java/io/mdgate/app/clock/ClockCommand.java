package io.mdgate.app.clock;

import io.mdgate.app.ExitCodes;
import io.mdgate.app.JsonOutput;
import io.mdgate.app.StopSignal;
import io.mdgate.core.time.MonotonicEpochClock;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code mdgate clock}: with {@code --serve} answers clock probes on a UDP address; with {@code --peer} probes such
 * an address and prints how far the peer's clock is from this host's, with the bound the best round trip gives
 * ({@link ClockExchange}). Both sides read the clock the gateway stamps ticks with and consumers time them by
 * ({@link MonotonicEpochClock}), so the offset is exactly what a consumer on this host must add to its clock to time
 * the gateway host's ticks ({@code mdgate consume --clock-offset-ns}). Bad options end with exit code 2, a peer that
 * never answers or an address that cannot be bound with 1.
 */
@Command(
    name = "clock",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Measure how far another host's clock is from this one's: --serve on one host, --peer on the other.",
        "One-way latency (mdgate consume --stats) compares the gateway host's receive stamps with the consumer " +
            "host's clock; where the two are not synchronised, pass the offset printed here to " +
            "mdgate consume --clock-offset-ns. The true offset lies within the printed bound, half the shortest " +
            "round trip, whatever the delays of the two directions." })
public final class ClockCommand implements Callable<Integer>
{
    private static final long DAY_SECONDS = TimeUnit.DAYS.toSeconds(1);

    @Spec
    CommandSpec spec;

    @Option(names = "--serve", paramLabel = "IP:PORT",
        description = "Answer probes on this UDP address of this host until Ctrl-C, SIGTERM or --duration.")
    String serve;

    @Option(names = "--peer", paramLabel = "IP:PORT", description = "Probe the clock served at this address.")
    String peer;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0",
        description = "With --serve: stop after this long; 0 never (default).")
    long durationSeconds;

    @Option(names = "--probes", paramLabel = "N", defaultValue = "200",
        description = "With --peer: probes to send, one at a time, 1 to 100000 (default ${DEFAULT-VALUE}).")
    int probes;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "2",
        description = "With --peer: pause between probes, 0 to 10000 (default ${DEFAULT-VALUE}).")
    long intervalMillis;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "500",
        description = "With --peer: how long a probe waits for its answer, 1 to 60000 (default ${DEFAULT-VALUE}).")
    long timeoutMillis;

    @Option(names = "--json", description = "With --peer: print the result as one JSON object.")
    boolean json;

    @Override
    public Integer call() throws IOException
    {
        if ((null == serve) == (null == peer))
        {
            throw new ParameterException(spec.commandLine(), "give one of --serve IP:PORT (answer probes here) or " +
                "--peer IP:PORT (probe that host), e.g. --peer 10.0.0.1:7480");
        }
        if (durationSeconds < 0 || durationSeconds > DAY_SECONDS)
        {
            throw new ParameterException(spec.commandLine(), "--duration must be 0 (never stop) to " + DAY_SECONDS +
                " seconds, was " + durationSeconds);
        }
        if (probes < 1 || probes > 100_000)
        {
            throw new ParameterException(spec.commandLine(), "--probes must be 1 to 100000, was " + probes);
        }
        if (intervalMillis < 0 || intervalMillis > 10_000 || timeoutMillis < 1 || timeoutMillis > 60_000)
        {
            throw new ParameterException(spec.commandLine(), "--interval-ms must be 0 to 10000 and --timeout-ms 1 " +
                "to 60000, were " + intervalMillis + " and " + timeoutMillis);
        }
        if (null != serve)
        {
            if (json || spec.commandLine().getParseResult().hasMatchedOption("--probes"))
            {
                throw new ParameterException(spec.commandLine(), "--json and --probes go with --peer, not --serve");
            }
            return serve(address("--serve", serve));
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--duration"))
        {
            throw new ParameterException(spec.commandLine(), "--duration goes with --serve; --peer stops after " +
                "--probes");
        }
        return probe(address("--peer", peer));
    }

    private int serve(final InetSocketAddress address) throws IOException
    {
        final PrintWriter err = spec.commandLine().getErr();
        final ClockServer server;
        try
        {
            server = new ClockServer(address, new MonotonicEpochClock());
        }
        catch (final IOException ex)
        {
            err.println("mdgate clock: cannot answer on " + text(address) + " (" + ex.getMessage() + "): give an " +
                "address of this host and a free port");
            err.flush();
            return ExitCodes.FAILED;
        }
        final long end = durationSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(durationSeconds) : 0;
        try (server; StopSignal stop = new StopSignal())
        {
            err.println("mdgate clock: answering clock probes on " + text(server.address()));
            err.flush();
            server.serve(() -> stop.running() && (end == 0 || System.nanoTime() - end < 0));
        }
        err.println("mdgate clock: answered " + server.answered() + " probes; dropped " + server.dropped() +
            " datagrams that were not probes");
        err.flush();
        return ExitCodes.SUCCESS;
    }

    private int probe(final InetSocketAddress address) throws IOException
    {
        final ClockOffset offset = new ClockProbe(address, new MonotonicEpochClock()).measure(probes,
            TimeUnit.MILLISECONDS.toNanos(intervalMillis), TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        if (offset.answered() == 0)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("mdgate clock: no answer from " + text(address) + " to " + probes + " probes (" +
                timeoutMillis + " ms each): start mdgate clock --serve " + text(address) + " on that host, or check " +
                "the address");
            err.flush();
            return ExitCodes.FAILED;
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (json)
        {
            final ObjectNode node = JsonOutput.object();
            node.put("peer", text(address));
            node.put("probes", offset.probes());
            node.put("answered", offset.answered());
            node.put("offset_ns", offset.offsetNanos());
            node.put("bound_ns", offset.boundNanos());
            node.put("best_round_trip_ns", offset.bestRoundTripNanos());
            node.put("median_round_trip_ns", offset.medianRoundTripNanos());
            out.println(node);
        }
        else
        {
            out.println(String.format(Locale.ROOT, "clock of %s: %+.1f us from this host's, within +/- %.1f us " +
                "(best of %d answered round trips %.1f us, median %.1f us); time its ticks here with " +
                "mdgate consume --clock-offset-ns %d", text(address), offset.offsetNanos() / 1e3,
                offset.boundNanos() / 1e3, offset.answered(), offset.bestRoundTripNanos() / 1e3,
                offset.medianRoundTripNanos() / 1e3, offset.offsetNanos()));
        }
        out.flush();
        return ExitCodes.SUCCESS;
    }

    private InetSocketAddress address(final String option, final String value)
    {
        final int colon = value.lastIndexOf(':');
        int port = -1;
        if (colon > 0)
        {
            try
            {
                port = Integer.parseInt(value.substring(colon + 1));
            }
            catch (final NumberFormatException ex)
            {
                port = -1;
            }
        }
        if (port < 1 || port > 65_535)
        {
            throw new ParameterException(spec.commandLine(), option + ": '" + value + "' is not IP:PORT with a port " +
                "from 1 to 65535, e.g. 10.0.0.1:7480");
        }
        try
        {
            return new InetSocketAddress(InetAddress.getByName(value.substring(0, colon)), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new ParameterException(spec.commandLine(), option + ": host '" + value.substring(0, colon) +
                "' does not resolve; give an IPv4 address or a known host name");
        }
    }

    private static String text(final InetSocketAddress address)
    {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
