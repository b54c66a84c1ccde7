package io.mdgate.app.egress;

import io.mdgate.app.StopSignal;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.TickJson;
import io.mdgate.core.time.MonotonicEpochClock;
import io.mdgate.egress.consumer.ConsumerContext;
import io.mdgate.egress.consumer.ConsumerCounters;
import io.mdgate.egress.consumer.ConsumerRejectedException;
import io.mdgate.egress.consumer.DeliveryPath;
import io.mdgate.egress.consumer.EgressConsumer;
import io.mdgate.egress.protocol.SubscriptionView;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.egress.transport.EgressTransport;
import io.mdgate.egress.transport.TransportException;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code mdgate consume}: connects to the egress publisher as a named consumer, subscribes, and prints every tick as
 * a JSON line with its symbol where this consumer can know it, or with {@code --stats} one line per interval with
 * the rate, gaps, recoveries and latency percentiles. Stops after {@code --count} ticks, {@code --duration}, or
 * Ctrl-C, then prints a summary line to standard error. Refused consumers and a missing publisher end with exit
 * code 1; bad options with 2.
 */
@Command(
    name = "consume",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Consume ticks from the egress publisher: print them as JSON lines, or live statistics with --stats.",
        "A line's symbol comes from the INSTRUMENT ticks this consumer read (live, recovered, in a snapshot or " +
            "in the publisher's directory; a SESSION tick forgets them) and the publisher's answers to " +
            "subscriptions by id or symbol. A consumer that starts live asks for the directory first, so the " +
            "instruments named before it joined have their symbols too (an older publisher sends none: they stay " +
            "null); --snapshot and --resume-from bring the INSTRUMENT ticks themselves." })
public final class ConsumeCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    TransportOptions transportOptions;

    @Option(names = "--consumer", paramLabel = "NAME", required = true,
        description = "This consumer's name, as configured at the publisher.")
    String name;

    @Option(names = "--token", paramLabel = "TOKEN", required = true,
        description = "This consumer's token, as configured at the publisher.")
    String token;

    @Option(names = "--symbols", paramLabel = "SYM[,SYM...]", split = ",",
        description = "Instruments by symbol, e.g. AAPL,MSFT.")
    List<String> symbols = new ArrayList<>();

    @Option(names = "--instruments", paramLabel = "ID[,ID...]", split = ",",
        description = "Instruments by id (ITCH stock locate, 1..65535).")
    List<Integer> instruments = new ArrayList<>();

    @Option(names = "--all", description = "Every instrument.")
    boolean all;

    @Option(names = "--view", paramLabel = "all|top|depth|orders", defaultValue = "all",
        description = "Which ticks of each instrument: all (default), top (no order events, no LEVEL ticks), depth " +
            "(LEVEL ticks, no order events) or orders (order events, no LEVEL ticks); every view takes top of book, " +
            "trades, status and the market-wide ticks (GAP, SESSION, system events).")
    String view;

    @Option(names = "--depth-levels", paramLabel = "L", defaultValue = "10",
        description = "Levels per side of this consumer's depth table, 0 to 64; 0 for none (default ${DEFAULT-VALUE}).")
    int depthLevels;

    @Option(names = "--path", paramLabel = "ring|stream", defaultValue = "ring",
        description = "Take ticks from this consumer's ring (default) or the multicast stream.")
    String path;

    @Option(names = "--ring-slots", paramLabel = "N", defaultValue = "8192",
        description = "Slots of this consumer's ring, a power of two from 16 (default ${DEFAULT-VALUE}).")
    int ringSlots;

    @Option(names = "--resume-from", paramLabel = "SEQ", defaultValue = "0",
        description = "First gateway sequence wanted, recovered if already sent; 0 starts live (default).")
    long resumeFrom;

    @Option(names = "--snapshot", description = "Join late: first the current state of the subscribed instruments " +
        "as their views define it (ticks flagged snapshot, at one gateway sequence S: instrument, trading status, " +
        "live orders as ADD ticks, LEVEL ticks, top of book), then live ticks from S + 1, instead of recovering " +
        "the day. Not with --resume-from.")
    boolean snapshot;

    @Option(names = "--no-directory", description = "Starting live, do not ask the publisher for its instrument " +
        "directory first: symbols of instruments named before this consumer joined stay null.")
    boolean noDirectory;

    @Option(names = "--stats", description = "Print a line of statistics per interval instead of the ticks.")
    boolean stats;

    @Option(names = "--stats-interval-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Interval of --stats lines (default ${DEFAULT-VALUE}).")
    long statsIntervalMillis;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
        description = "Stop after this many ticks; 0 never (default).")
    long count;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0",
        description = "Stop after this long; 0 never (default).")
    long durationSeconds;

    @Option(names = "--idle", paramLabel = "backoff|yield|spin", defaultValue = "backoff",
        description = "What the polling thread does when idle (default ${DEFAULT-VALUE}; spin takes a whole core).")
    String idle;

    @Option(names = "--clock-offset-ns", paramLabel = "NS", defaultValue = "0",
        description = "Add NS to this host's clock when timing ticks (--stats latency): the gateway host's clock " +
            "minus this one's, as 'mdgate clock --peer' prints it, where the two hosts' clocks are not synchronised; " +
            "within a day either way (default 0).")
    long clockOffsetNanos;

    @Option(names = "--connect-timeout-ms", paramLabel = "MS", defaultValue = "10000",
        description = "How long to wait for the publisher (default ${DEFAULT-VALUE}).")
    long connectTimeoutMillis;

    private StopSignal stop;

    @Override
    public Integer call()
    {
        final ConsumerContext context = context();
        final IdleStrategy idleStrategy = idleStrategy();
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final EgressTransport transport = transportOptions.openOrSayWhy(spec);
        if (null == transport)
        {
            return 1;
        }
        try (transport; StopSignal signal = new StopSignal();
            EgressConsumer consumer = EgressConsumer.connect(transport, context))
        {
            stop = signal;
            subscribe(consumer);
            final Printer printer = new Printer(consumer, out, count);
            final long start = System.nanoTime();
            final long end = durationSeconds > 0 ? start + TimeUnit.SECONDS.toNanos(durationSeconds) : Long.MAX_VALUE;
            final StatsLine statsLine = stats ? new StatsLine(consumer, out, start) : null;
            long nextStats = start + TimeUnit.MILLISECONDS.toNanos(statsIntervalMillis);
            final TickHandler handler = stats ? (buffer, offset) -> { } : printer;
            while (stop.running() && (count == 0 || consumer.counters().delivered() < count) && System.nanoTime() < end &&
                !consumer.isRejected())
            {
                final int work = consumer.poll(handler, 256);
                if (work > 0 && !stats)
                {
                    out.flush();
                }
                if (null != statsLine && System.nanoTime() >= nextStats)
                {
                    statsLine.print(System.nanoTime());
                    nextStats += TimeUnit.MILLISECONDS.toNanos(statsIntervalMillis);
                }
                idleStrategy.idle(work);
            }
            if (null != statsLine)
            {
                statsLine.printTotal(System.nanoTime());
            }
            out.flush();
            err.println("mdgate consume: " + summary(consumer.counters(), consumer.lastDeliveredSequence()));
            err.flush();
            return consumer.isRejected() ? 1 : 0;
        }
        catch (final ConsumerRejectedException | TransportException ex)
        {
            err.println("mdgate consume: " + ex.getMessage());
            err.flush();
            return 1;
        }
    }

    ConsumerContext context()
    {
        final int chosen = (all ? 1 : 0) + (symbols.isEmpty() && instruments.isEmpty() ? 0 : 1);
        if (chosen != 1)
        {
            throw new ParameterException(spec.commandLine(),
                "choose what to consume: --all, or --symbols and/or --instruments");
        }
        if (!"ring".equals(path) && !"stream".equals(path))
        {
            throw new ParameterException(spec.commandLine(), "--path must be ring or stream, was '" + path + "'");
        }
        for (final String symbol : symbols)
        {
            if (symbol.isBlank() || symbol.trim().length() > 8 || !symbol.trim().chars().allMatch(c -> c > 32 && c < 127))
            {
                throw new ParameterException(spec.commandLine(),
                    "symbols are 1 to 8 printable ASCII characters, was '" + symbol + "'");
            }
        }
        for (final int instrument : instruments)
        {
            if (instrument < 1 || instrument > 65535)
            {
                throw new ParameterException(spec.commandLine(), "instrument ids are 1..65535, was " + instrument);
            }
        }
        if (count < 0 || durationSeconds < 0 || statsIntervalMillis < 1 || connectTimeoutMillis < 1)
        {
            throw new ParameterException(spec.commandLine(),
                "--count and --duration must not be negative; --stats-interval-ms and --connect-timeout-ms positive");
        }
        if (Math.abs(clockOffsetNanos) > TimeUnit.DAYS.toNanos(1))
        {
            throw new ParameterException(spec.commandLine(), "--clock-offset-ns must be within a day either way (" +
                TimeUnit.DAYS.toNanos(1) + " ns), was " + clockOffsetNanos + ": it is nanoseconds, as mdgate clock " +
                "--peer prints it");
        }
        if (snapshot && resumeFrom > 0)
        {
            throw new ParameterException(spec.commandLine(), "--snapshot and --resume-from exclude each other: the " +
                "snapshot is the state at its own sequence; choose one");
        }
        subscriptionView();
        final DeliveryPath deliveryPath = "ring".equals(path) ? DeliveryPath.RING : DeliveryPath.STREAM;
        final ConsumerContext context = new ConsumerContext().name(name).token(token).path(deliveryPath)
            .ringSlots(deliveryPath == DeliveryPath.RING ? ringSlots : 0)
            .resumeFromSequence(resumeFrom)
            .snapshotOnConnect(snapshot)
            .directoryOnConnect(!snapshot && resumeFrom <= 0 && !noDirectory)
            .depthLevels(depthLevels)
            .connectTimeoutNanos(TimeUnit.MILLISECONDS.toNanos(connectTimeoutMillis))
            .epochClock(new MonotonicEpochClock(new MonotonicEpochClock().offsetNanos() + clockOffsetNanos))
            .eventLog(message -> spec.commandLine().getErr().println("mdgate consume: " + message));
        try
        {
            return context.conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    private IdleStrategy idleStrategy()
    {
        switch (idle)
        {
            case "backoff":
                return new BackoffIdleStrategy(100, 10, 1_000, 100_000);
            case "yield":
                return new YieldingIdleStrategy();
            case "spin":
                return new BusySpinIdleStrategy();
            default:
                throw new ParameterException(spec.commandLine(),
                    "--idle must be backoff, yield or spin, was '" + idle + "'");
        }
    }

    SubscriptionView subscriptionView()
    {
        for (final SubscriptionView known : SubscriptionView.values())
        {
            if (known.name().equalsIgnoreCase(view))
            {
                return known;
            }
        }
        throw new ParameterException(spec.commandLine(),
            "--view must be all, top, depth or orders, was '" + view + "'");
    }

    private void subscribe(final EgressConsumer consumer)
    {
        final SubscriptionView chosen = subscriptionView();
        if (all)
        {
            consumer.subscribeAll(chosen);
        }
        symbols.forEach(symbol -> consumer.subscribe(symbol.trim(), chosen));
        instruments.forEach(instrument -> consumer.subscribe(instrument, chosen));
    }

    static String summary(final ConsumerCounters counters, final long lastSequence)
    {
        return "delivered " + counters.delivered() + " ticks (last sequence " + lastSequence + "), gaps " +
            counters.gaps() + ", recoveries " + counters.recoveriesCompleted() + "/" +
            counters.recoveriesRequested() + ", unrecovered " + counters.unrecovered() + ", laps " + counters.laps() +
            ", reconnects " + Math.max(0, counters.connects() - 1) + (counters.snapshotsRequested() == 0 ? "" :
            ", snapshots " + counters.snapshots() + " (" + counters.snapshotTicks() + " ticks, " +
            counters.snapshotSkipped() + " live ticks it covered dropped, " + counters.snapshotsRefused() + " refused)") +
            (counters.directories() > 0 ? ", directory of " + counters.directoryTicks() + " symbols" :
            counters.directoriesRefused() > 0 ? ", no directory (the publisher refused it)" : "");
    }

    /**
     * Prints each tick as a JSON line with its symbol when the consumer knows it ({@link EgressConsumer#symbolOf}: the
     * INSTRUMENT ticks it read, live, recovered, in a snapshot or in the directory asked for on connect, and the
     * publisher's answers to subscriptions by id or symbol, forgotten at each SESSION tick).
     */
    private static final class Printer implements TickHandler
    {
        private final PrintWriter out;
        private final TickJson json;
        private final StringBuilder line = new StringBuilder(320);
        private char[] chars = new char[320];
        private final long limit;
        private long printed;

        Printer(final EgressConsumer consumer, final PrintWriter out, final long limit)
        {
            this.out = out;
            this.json = new TickJson(consumer::symbolOf);
            this.limit = limit > 0 ? limit : Long.MAX_VALUE;
        }

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            final boolean snapshotTick =
                (buffer.getShort(offset + TickLayout.FLAGS_OFFSET, ByteOrder.LITTLE_ENDIAN) & TickLayout.SNAPSHOT_FLAG) != 0;
            if (!snapshotTick && printed++ >= limit)
            {
                return; // a poll may deliver a few more than --count asked for; --count counts live ticks
            }
            line.setLength(0);
            json.appendTo(buffer, offset, line).append(System.lineSeparator());
            if (line.length() > chars.length)
            {
                chars = new char[Math.max(line.length(), chars.length * 2)];
            }
            line.getChars(0, line.length(), chars, 0);
            out.write(chars, 0, line.length()); // append(CharSequence) would make a String of the line
        }
    }

    /**
     * One line of statistics per interval: rate, gaps, recoveries and latency percentiles of the interval; at the end
     * one {@code total} line over the whole run (the last part interval included, nothing trimmed).
     */
    private static final class StatsLine
    {
        private final EgressConsumer consumer;
        private final PrintWriter out;
        private final Histogram interval = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        private final Histogram total = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        private final long startNanos;
        private long lastNanos;
        private long lastDelivered;

        StatsLine(final EgressConsumer consumer, final PrintWriter out, final long startNanos)
        {
            this.consumer = consumer;
            this.out = out;
            this.startNanos = startNanos;
            this.lastNanos = startNanos;
        }

        void printTotal(final long nowNanos)
        {
            total.add(consumer.latency());
            final ConsumerCounters counters = consumer.counters();
            out.println(String.format(Locale.ROOT,
                "total: %.1f s | delivered %d (last seq %d) | gaps %d, recoveries %d/%d, unrecovered %d, laps %d | " +
                "latency us p50 %.1f p99 %.1f p99.9 %.1f max %.1f (%d timed)", (nowNanos - startNanos) / 1e9,
                counters.delivered(), consumer.lastDeliveredSequence(), counters.gaps(),
                counters.recoveriesCompleted(), counters.recoveriesRequested(), counters.unrecovered(), counters.laps(),
                total.getValueAtPercentile(50) / 1e3, total.getValueAtPercentile(99) / 1e3,
                total.getValueAtPercentile(99.9) / 1e3, total.getMaxValue() / 1e3, total.getTotalCount()));
        }

        void print(final long nowNanos)
        {
            final ConsumerCounters counters = consumer.counters();
            final long delivered = counters.delivered();
            final double seconds = (nowNanos - lastNanos) / 1e9;
            interval.reset();
            interval.add(consumer.latency());
            total.add(interval);
            consumer.latency().reset();
            out.println(String.format(Locale.ROOT,
                "rate %.0f ticks/s | delivered %d (last seq %d) | gaps %d, recoveries %d/%d, unrecovered %d, " +
                "laps %d | latency us p50 %.1f p99 %.1f p99.9 %.1f max %.1f (%d timed)",
                (delivered - lastDelivered) / seconds, delivered, consumer.lastDeliveredSequence(), counters.gaps(),
                counters.recoveriesCompleted(), counters.recoveriesRequested(), counters.unrecovered(),
                counters.laps(), interval.getValueAtPercentile(50) / 1e3, interval.getValueAtPercentile(99) / 1e3,
                interval.getValueAtPercentile(99.9) / 1e3, interval.getMaxValue() / 1e3, interval.getTotalCount()));
            out.flush();
            lastNanos = nowNanos;
            lastDelivered = delivered;
        }
    }
}
