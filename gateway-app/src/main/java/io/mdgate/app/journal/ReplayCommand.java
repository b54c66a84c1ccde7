package io.mdgate.app.journal;

import io.mdgate.core.capture.PcapWriter;
import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.tick.SymbolDirectory;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.journal.JournalDamagedException;
import io.mdgate.journal.JournalException;
import io.mdgate.journal.JournalReader;
import io.mdgate.journal.PacedPacketHandler;
import io.mdgate.journal.PacedTickHandler;
import io.mdgate.journal.PacketReplay;
import io.mdgate.journal.ReplayPacer;
import io.mdgate.journal.TickReplay;
import org.agrona.concurrent.UnsafeBuffer;
import io.mdgate.app.CaptureOptionConverters.EndpointConverter;
import io.mdgate.app.FailureReasons;
import io.mdgate.app.OutputPaths;
import io.mdgate.app.StdoutStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.concurrent.Callable;

/**
 * {@code mdgate replay --journal DIR}: replays a range of the journal, chosen by gateway sequence or by time (found
 * by binary search), as fast as possible or at the recorded pace times {@code --speed}, to JSON or CSV lines or,
 * from the raw packet queue, to a pcap capture. On a terminal, writing to a file, a progress bar with rate and time
 * left runs on stderr; a summary line ends the run (on stderr when the records go to stdout).
 * <p>
 * Exit codes: 0 replayed (possibly nothing, when the range holds no record), 1 the journal is damaged or the output
 * cannot be written, 2 bad arguments (including a journal directory that is missing or not a journal). Runs on the
 * calling thread.
 */
@Command(
    name = "replay",
    description = {
        "Replay ticks or raw packets from a journal by gateway sequence or by time, to JSON or CSV lines or a pcap.",
        "The start is found by binary search. Ranges are inclusive; without one the whole journal is replayed." },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:replayed",
        "1:the journal is damaged or the output cannot be written",
        "2:bad arguments" })
public final class ReplayCommand implements Callable<Integer>
{
    /** Exit code when the journal is damaged or the output fails. */
    public static final int EXIT_FAILED = 1;

    private static final String STDOUT = "-";

    @Spec
    private CommandSpec spec;

    @Option(names = { "-h", "--help" }, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Option(names = "--journal", paramLabel = "DIR", required = true, description = "The journal directory.")
    private Path journal;

    @Option(names = "--from-seq", paramLabel = "N", description = "First gateway sequence (default: the first).")
    private Long fromSequence;

    @Option(names = "--to-seq", paramLabel = "N", description = "Last gateway sequence, inclusive (default: the last).")
    private Long toSequence;

    @Option(names = "--from-time", paramLabel = "TIME", converter = TimeConverter.class,
        description = "Earliest time, inclusive: exchange time for ticks, receive time for packets. Forms: " +
            TimeArgument.FORMS + ".")
    private TimeArgument fromTime;

    @Option(names = "--to-time", paramLabel = "TIME", converter = TimeConverter.class,
        description = "Latest time, inclusive; same forms.")
    private TimeArgument toTime;

    @Option(names = "--speed", paramLabel = "X",
        description = "Replay at the recorded pace times X (1 = as recorded, 10 = ten times faster). Default: as " +
            "fast as possible.")
    private Double speed;

    @Option(names = "--to", paramLabel = "FORMAT", defaultValue = "json",
        description = "json (default: one object a line), csv (a header, then one row a record), or pcap (raw " +
            "packets as a capture; needs --out).")
    private String to;

    @Option(names = "--source", paramLabel = "QUEUE",
        description = "ticks (default for json and csv) or packets (the raw MoldUDP64 packets; the only source for " +
            "pcap).")
    private String source;

    @Option(names = "--out", paramLabel = "FILE",
        description = "Write the records to FILE instead of stdout; - is stdout (a pcap can be piped: tshark -r -).")
    private Path out;

    /** Where a pcap for {@code --out -} goes: the process's stdout, replaced in tests. */
    OutputStream binaryStdout = System.out;

    @Option(names = "--line-a", paramLabel = "GROUP:PORT", converter = EndpointConverter.class,
        defaultValue = "233.54.12.111:26477", description = "pcap: destination of line A (default ${DEFAULT-VALUE}).")
    private UdpEndpoint lineA;

    @Option(names = "--line-b", paramLabel = "GROUP:PORT", converter = EndpointConverter.class,
        defaultValue = "233.49.196.111:26477", description = "pcap: destination of line B (default ${DEFAULT-VALUE}).")
    private UdpEndpoint lineB;

    @Option(names = "--from-address", paramLabel = "ADDR:PORT", converter = EndpointConverter.class,
        defaultValue = "10.0.0.1:26400", description = "pcap: source of the packets (default ${DEFAULT-VALUE}).")
    private UdpEndpoint sourceAddress;

    @Option(names = "--json", description = "Print the summary as one JSON object.")
    private boolean jsonSummary;

    @Option(names = "--no-symbols",
        description = "json, csv: leave the symbol out (null, empty) and do not read the ticks of the range's " +
            "session before the range. By default each tick's symbol is the one its session's INSTRUMENT ticks " +
            "gave its instrument, those before the range included, read first from the session's SESSION tick " +
            "(about 0.05 s per million ticks before the range: docs/JOURNAL.md, Symbols).")
    private boolean noSymbols;

    @Override
    public Integer call()
    {
        final boolean packets = checkArguments();
        final PrintWriter err = spec.commandLine().getErr();
        try (JournalReader reader = openJournal())
        {
            return packets ? replayPackets(reader) : replayTicks(reader);
        }
        catch (final JournalDamagedException ex)
        {
            return fail(err, ex.getMessage());
        }
        catch (final UncheckedIOException ex)
        {
            return fail(err, "cannot write " + (out == null ? "the output" : out) + ": " +
                FailureReasons.describe(ex.getCause()));
        }
        catch (final IOException ex)
        {
            return fail(err, "cannot write " + out + ": " + FailureReasons.describe(ex));
        }
        catch (final JournalException ex)
        {
            return fail(err, ex.getMessage());
        }
    }

    private int replayTicks(final JournalReader reader) throws IOException
    {
        try (TickReplay replay = reader.newTickReplay(); Writer writer = openOutput())
        {
            final long[] range = tickRange(replay);
            final long total = range[0] > range[1] ? 0 : range[1] - range[0] + 1;
            final SymbolDirectory symbols = noSymbols ? null : new SymbolDirectory();
            final long scanStart = System.nanoTime();
            final long scanned = total > 0 && symbols != null ? learnSymbols(replay, range[0], symbols) : 0;
            final long scanNanos = System.nanoTime() - scanStart;
            final ProgressBar progress = progress("ticks", total);
            final TickLines lines = new TickLines(writer, "json".equals(to), symbols, progress);
            final ReplaySummary summary = new ReplaySummary("ticks", outputName(), pace(), lines, null);
            summary.symbolScan(scanned, scanNanos);
            final TickHandler handler = speed == null ? summary : new PacedTickHandler(summary, new ReplayPacer(speed));
            final long start = System.nanoTime();
            try
            {
                if (total > 0)
                {
                    replay.replay(range[0], range[1], handler);
                }
            }
            finally
            {
                writer.flush();
                progress.finish();
            }
            summary.elapsedNanos(System.nanoTime() - start);
            printSummary(summary);
            return 0;
        }
    }

    private int replayPackets(final JournalReader reader) throws IOException
    {
        try (TickReplay ticks = reader.newTickReplay(); PacketReplay replay = reader.newPacketReplay())
        {
            final long[] range = packetRange(ticks);
            final long total = replay.countByReceiveTime(range[0], range[1]);
            final ProgressBar progress = progress("packets", total);
            final long start = System.nanoTime();
            final ReplaySummary summary;
            if ("pcap".equals(to))
            {
                try (PcapOutput pcap = new PcapOutput(pcapWriter(), lineA, lineB, sourceAddress, progress))
                {
                    summary = new ReplaySummary("packets", outputName(), pace(), null, pcap);
                    replay.replayByReceiveTime(range[0], range[1], paced(summary));
                }
                finally
                {
                    progress.finish();
                }
            }
            else
            {
                try (Writer writer = openOutput())
                {
                    summary = new ReplaySummary("packets", outputName(), pace(),
                        null, new PacketLines(writer, "json".equals(to), progress));
                    try
                    {
                        replay.replayByReceiveTime(range[0], range[1], paced(summary));
                    }
                    finally
                    {
                        writer.flush();
                        progress.finish();
                    }
                }
            }
            summary.elapsedNanos(System.nanoTime() - start);
            printSummary(summary);
            return 0;
        }
    }

    /**
     * Feeds the directory the ticks of the range's session that come before the range, from the session's SESSION
     * tick (found by binary search), so that the range's ticks get the symbols named earlier in their session. Without
     * a SESSION tick to start from (retention removed it, or the journal predates SESSION ticks) it reads from the
     * journal's first tick, and any SESSION tick on the way empties the directory again.
     *
     * @return ticks read.
     */
    static long learnSymbols(final TickReplay replay, final long from, final SymbolDirectory symbols)
    {
        final long start = replay.sessionStartOf(from);
        final long first = start == TickReplay.NO_SEQUENCE ? replay.firstSequence() : start;
        return first < from ? replay.replay(first, from - 1, symbols) : 0;
    }

    /** @return [from, to] gateway sequences of the ticks to replay; from above to when there are none. */
    private long[] tickRange(final TickReplay replay)
    {
        if (fromTime != null || toTime != null)
        {
            final LocalDate day = firstDay(replay);
            final long from = fromTime == null ? Long.MIN_VALUE : fromTime.epochNanos(day);
            final long to = toTime == null ? Long.MAX_VALUE : toTime.epochNanos(day);
            checkOrder(from, to, "--from-time " + fromTime, "--to-time " + toTime);
            final long first = replay.sequenceAtOrAfter(from);
            final long last = replay.sequenceAtOrBefore(to);
            return first == TickReplay.NO_SEQUENCE || last == TickReplay.NO_SEQUENCE ?
                new long[] { 1, 0 } : new long[] { first, last };
        }
        final long first = replay.firstSequence();
        if (first == TickReplay.NO_SEQUENCE)
        {
            return new long[] { 1, 0 };
        }
        return new long[] {
            Math.max(first, fromSequence == null ? first : fromSequence),
            Math.min(replay.lastSequence(), toSequence == null ? Long.MAX_VALUE : toSequence) };
    }

    /** @return [from, to] receive times of the packets to replay. */
    private long[] packetRange(final TickReplay ticks)
    {
        if (fromTime != null || toTime != null)
        {
            final LocalDate day = firstDay(ticks);
            final long from = fromTime == null ? Long.MIN_VALUE : fromTime.epochNanos(day);
            final long to = toTime == null ? Long.MAX_VALUE : toTime.epochNanos(day);
            checkOrder(from, to, "--from-time " + fromTime, "--to-time " + toTime);
            return new long[] { from, to };
        }
        if (fromSequence == null && toSequence == null)
        {
            return new long[] { Long.MIN_VALUE, Long.MAX_VALUE };
        }
        final long[] sequences = tickRange(ticks);
        if (sequences[0] > sequences[1])
        {
            return new long[] { 1, 0 };
        }
        return new long[] { receiveTime(ticks, sequences[0]), receiveTime(ticks, sequences[1]) };
    }

    private long receiveTime(final TickReplay ticks, final long sequence)
    {
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        if (!ticks.read(sequence, tick, 0))
        {
            throw new JournalException("tick " + sequence + " is not in the journal");
        }
        final long receiveTime = tick.getLong(ReplaySummary.RECEIVE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (receiveTime == 0)
        {
            throw new JournalException("tick " + sequence + " has no receive time (it was recorded from a file " +
                "without packets), so the packets behind it cannot be found; replay packets by --from-time/--to-time");
        }
        return receiveTime;
    }

    /** Ticks read at most, from the journal's first, for one with an exchange time. */
    private static final int FIRST_DAY_SEARCH = 1_000;

    private LocalDate firstDay(final TickReplay replay)
    {
        final boolean needsDay =
            (fromTime != null && fromTime.isTimeOfDay()) || (toTime != null && toTime.isTimeOfDay());
        if (!needsDay)
        {
            return null;
        }
        final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
        final long first = replay.firstSequence();
        // The journal's first tick is usually the session's SESSION tick, which has no exchange time of its own (0):
        // the date is that of the first tick that has one.
        for (long sequence = first; first != TickReplay.NO_SEQUENCE && sequence < first + FIRST_DAY_SEARCH &&
            replay.read(sequence, tick, 0); sequence++)
        {
            final long time = tick.getLong(ReplaySummary.EXCHANGE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (time != 0)
            {
                return TimeArgument.newYorkDate(time);
            }
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "a time of day needs a date, and the " +
            "journal has no tick with an exchange time to take it from; give a full date-time");
    }

    /** @return whether the raw packet queue is the source. */
    private boolean checkArguments()
    {
        if (!"json".equals(to) && !"csv".equals(to) && !"pcap".equals(to))
        {
            throw usage("--to " + to + " is not an output; give json, csv or pcap");
        }
        if (source != null && !"ticks".equals(source) && !"packets".equals(source))
        {
            throw usage("--source " + source + " is not a queue; give ticks or packets");
        }
        final boolean bySequence = fromSequence != null || toSequence != null;
        final boolean byTime = fromTime != null || toTime != null;
        if (bySequence && byTime)
        {
            throw usage("give a sequence range (--from-seq/--to-seq) or a time range (--from-time/--to-time), " +
                "not both");
        }
        if (fromSequence != null && toSequence != null)
        {
            checkOrder(fromSequence, toSequence, "--from-seq " + fromSequence, "--to-seq " + toSequence);
        }
        if (fromTime != null && toTime != null && !fromTime.isTimeOfDay() && !toTime.isTimeOfDay())
        {
            checkOrder(fromTime.epochNanos(null), toTime.epochNanos(null), "--from-time " + fromTime,
                "--to-time " + toTime);
        }
        if (speed != null && !(speed > 0 && speed <= ReplayPacer.MAX_SPEED))
        {
            throw usage("--speed " + speed + " is out of range; give a factor above 0 and at most " +
                (long)ReplayPacer.MAX_SPEED + " (1 = the recorded pace), or leave it out for as fast as possible");
        }
        final boolean pcap = "pcap".equals(to);
        if (pcap && "ticks".equals(source))
        {
            throw usage("--to pcap writes raw packets; it cannot take --source ticks");
        }
        if (pcap && out == null)
        {
            throw usage("--to pcap needs --out FILE, or --out - for a pipe (a capture is binary, not for a terminal)");
        }
        OutputPaths.checkFile(spec.commandLine(), "--out", out);
        return pcap || "packets".equals(source);
    }

    private void checkOrder(final long from, final long to, final String fromText, final String toText)
    {
        if (from > to)
        {
            throw usage(fromText + " is after " + toText + "; the range must run forwards");
        }
    }

    private JournalReader openJournal()
    {
        try
        {
            return JournalReader.open(journal);
        }
        catch (final JournalDamagedException ex)
        {
            throw ex;
        }
        catch (final JournalException ex)
        {
            throw usage("--journal: " + ex.getMessage());
        }
    }

    private boolean toStdout()
    {
        return out == null || STDOUT.equals(out.toString());
    }

    private PcapWriter pcapWriter()
    {
        if (!toStdout())
        {
            return new PcapWriter(out);
        }
        return new PcapWriter(new StdoutStream(binaryStdout), "pcap on stdout");
    }

    private Writer openOutput() throws IOException
    {
        if (toStdout())
        {
            final PrintWriter stdout = spec.commandLine().getOut();
            return new Writer()
            {
                public void write(final char[] buffer, final int offset, final int length)
                {
                    stdout.write(buffer, offset, length);
                }

                public void flush()
                {
                    stdout.flush();
                }

                public void close()
                {
                    stdout.flush();
                }
            };
        }
        return Files.newBufferedWriter(out, StandardCharsets.UTF_8);
    }

    private ProgressBar progress(final String unit, final long total)
    {
        return System.console() != null && !toStdout() ?
            ProgressBar.on(spec.commandLine().getErr(), unit, total) : ProgressBar.disabled();
    }

    private PacketHandler paced(final PacketHandler handler)
    {
        return speed == null ? handler : new PacedPacketHandler(handler, new ReplayPacer(speed));
    }

    private double pace()
    {
        return speed == null ? 0 : speed;
    }

    private String outputName()
    {
        return toStdout() ? "stdout" : out.toString();
    }

    private void printSummary(final ReplaySummary summary)
    {
        final PrintWriter where = toStdout() ? spec.commandLine().getErr() : spec.commandLine().getOut();
        where.println(jsonSummary ? summary.json() : summary.text());
        where.flush();
    }

    private int fail(final PrintWriter err, final String message)
    {
        err.println("mdgate replay: " + message);
        err.flush();
        return EXIT_FAILED;
    }

    private CommandLine.ParameterException usage(final String message)
    {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** Converts time arguments. */
    static final class TimeConverter implements CommandLine.ITypeConverter<TimeArgument>
    {
        @Override
        public TimeArgument convert(final String value)
        {
            try
            {
                return TimeArgument.parse(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }
}
