package io.mdgate.app.journal;

import io.mdgate.app.JsonOutput;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.capture.CaptureFormatException;
import io.mdgate.core.capture.DecodeSummary;
import io.mdgate.core.capture.ItchFileDecoder;
import io.mdgate.core.capture.ItchFileFormat;
import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.mold.MoldUdp64MessageHandler;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.sbe.EventType;
import io.mdgate.egress.protocol.TickLayout;
import io.mdgate.journal.JournalAgent;
import io.mdgate.journal.JournalContext;
import io.mdgate.journal.JournalCycleClock;
import io.mdgate.journal.JournalDamagedException;
import io.mdgate.journal.JournalException;
import io.mdgate.journal.JournalPublisher;
import io.mdgate.journal.JournalRollCycle;
import io.mdgate.journal.TickJournal;
import io.mdgate.journal.TickReplay;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import io.mdgate.app.CaptureOptionConverters;
import io.mdgate.app.CaptureSource;
import io.mdgate.app.DecodeCommand;
import io.mdgate.app.ProgressOptions;
import io.mdgate.app.Stdio;
import io.mdgate.app.CaptureOptionConverters.EndpointConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code mdgate record FILE --journal DIR}: runs a capture or ITCH file through the gateway's feed session (for a
 * capture: its A and B lines, in capture time, without a re-request server), the order books and the normalizer into
 * a journal, as the gateway would have journaled it live: the same ticks, GAP ticks included, with ticks continuing
 * after the journal's last gateway sequence; a capture's raw packets are journaled too with their line and capture
 * time (which also becomes the ticks' receive time). The journal agent appends on its own thread, fed through its ring.
 * FILE {@code -} is stdin ({@link CaptureSource}); progress goes to stderr ({@link ProgressOptions}).
 * <p>
 * A file whose first tick is earlier than the journal's last is refused before anything is journaled: time must
 * not go backwards within a journal, or searches by time would be wrong.
 * <p>
 * Exit codes: 0 recorded, 1 the file cannot be read, the journal is damaged or refuses the file, 2 bad arguments.
 * Decodes on the calling thread.
 */
@Command(
    name = "record",
    description = {
        "Record a capture or ITCH file into a journal: feed session, books and normalizer, as the gateway runs live.",
        "Ticks continue after the journal's last gateway sequence; raw packets of a capture are journaled too.",
        "FILE - reads a capture from stdin. On a terminal, progress (messages, rate, share of the file read) is " +
            "shown on stderr about once a second." },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:recorded",
        "1:the file cannot be read, or the journal is damaged or refuses the file",
        "2:bad arguments, or the file is missing, a directory or not readable, or --journal is no journal" })
public final class RecordCommand implements Callable<Integer>
{
    /** Exit code when the file cannot be read or the journal fails. */
    public static final int EXIT_FAILED = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = { "-h", "--help" }, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(index = "0", paramLabel = "FILE", description = "Capture (pcap/pcapng) or ITCH file, may be gzip; " +
        CaptureSource.STDIN_HELP)
    @Stdio
    private Path file;

    @Mixin
    private ProgressOptions progressOptions;

    /** What {@code -} reads: the process's stdin, replaced in tests. */
    InputStream stdin = System.in;

    /** Where stdin is copied when it cannot be streamed: null for java.io.tmpdir; replaced in tests. */
    Path spoolDirectory;

    @Option(names = "--journal", paramLabel = "DIR", required = true,
        description = "The journal directory; created when absent.")
    private Path journal;

    @Option(names = "--session-date", paramLabel = "YYYY-MM-DD",
        description = "Trading date, for the ticks' exchange times. Default: for a capture the New York date of " +
            "its first packet, for an ITCH file today in New York.")
    private LocalDate sessionDate;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "auto",
        description = "auto (default: detect), daily, zero-prefixed, pcap.")
    private String format;

    @Option(names = "--line-a", paramLabel = "GROUP:PORT", converter = EndpointConverter.class,
        description = "Destination of the A line in a capture (default: the first MoldUDP64 destination seen).")
    private UdpEndpoint lineA;

    @Option(names = "--line-b", paramLabel = "GROUP:PORT", converter = EndpointConverter.class,
        description = "Destination of the B line (default: the second MoldUDP64 destination seen).")
    private UdpEndpoint lineB;

    @Option(names = "--reorder-window", paramLabel = "PACKETS",
        defaultValue = "" + FeedSession.Context.DEFAULT_HOLD_PACKETS,
        description = "Packets the feed session may hold after gaps (1.." + FeedSession.Context.MAX_HOLD_PACKETS +
            ", default ${DEFAULT-VALUE}, as the gateway).")
    private int reorderWindow;

    @Option(names = "--gap-wait-ms", paramLabel = "MS", defaultValue = "2",
        description = "How long, in capture time, a gap waits for the other line before it is declared lost " +
            "(default ${DEFAULT-VALUE}, as the gateway's [feed] gap_wait_ms).")
    private long gapWaitMs;

    @Option(names = "--first-sequence", paramLabel = "N", defaultValue = "1",
        description = "Where the capture's session starts: 1 (default) at the session's start, as `mdgate run` " +
            "does, so what came before the capture is one GAP tick; 0 at its first packet.")
    private long sessionStart;

    @Option(names = "--session", paramLabel = "NAME", defaultValue = "",
        description = "The only MoldUDP64 session of a capture to accept (up to 10 characters), as [feed] session " +
            "in run: its first packet starts it, packets of any other are counted and dropped. Default: none, a " +
            "session is accepted once both lines (or 3 consecutive packets of one) show it, or at the end of the " +
            "capture the name that came in the most packets (docs/FEED.md).")
    private String session;

    @Option(names = "--roll-cycle", paramLabel = "CYCLE", defaultValue = "hourly",
        description = "Period of one journal file for a new journal (default ${DEFAULT-VALUE}); an existing journal " +
            "keeps its own. One of: five-minutely, ten-minutely, half-hourly, hourly, two-hourly, four-hourly, " +
            "six-hourly, daily, weekly.")
    private String rollCycle;

    @Option(names = "--retain", paramLabel = "CYCLES", defaultValue = "0",
        description = "Keep only the newest CYCLES files of each queue (default 0: keep all).")
    private int retain;

    @Option(names = "--cycle-clock", paramLabel = "CLOCK", defaultValue = "record",
        description = "record (default: files follow the ticks' exchange time, as a live recording of the day " +
            "would have) or wall (files follow the time of recording).")
    private String cycleClock;

    @Option(names = "--no-packets", description = "Do not journal the raw packets of a capture.")
    private boolean noPackets;

    @Option(names = "--json", description = "Print the summary as one JSON object.")
    private boolean json;

    @Override
    public Integer call()
    {
        final JournalContext context = context();
        final ItchFileFormat fileFormat = format();
        final PrintWriter err = spec.commandLine().getErr();
        progressOptions.check(spec);
        if (!CaptureSource.isStdin(file) && Files.isDirectory(file))
        {
            throw usage("cannot read " + file + ": it is a directory; give the path of a capture or ITCH file");
        }
        try (TickJournal tickJournal = openJournal(context);
            CaptureSource source = CaptureSource.open(file, stdin, fileFormat, lineA != null, spoolDirectory))
        {
            return record(tickJournal, source, fileFormat);
        }
        catch (final JournalException ex)
        {
            return fail(err, ex.getMessage());
        }
        catch (final NoSuchFileException ex)
        {
            throw usage("cannot read " + file + ": no such file; give the path of a capture or ITCH file");
        }
        catch (final AccessDeniedException ex)
        {
            throw usage("cannot read " + file + ": permission denied; give a file this user may read");
        }
        catch (final CaptureFormatException ex)
        {
            return fail(err, ex.getMessage());
        }
        catch (final IllegalArgumentException ex)
        {
            // Settings that do not fit the file (lines or a session for a file that is not a capture).
            throw usage(ex.getMessage());
        }
        catch (final IOException ex)
        {
            return fail(err, "cannot read " + file + ": " + ex.getMessage());
        }
    }

    private int record(final TickJournal tickJournal, final CaptureSource source, final ItchFileFormat fileFormat)
        throws IOException
    {
        final ExchangeClock clock =
            new ExchangeClock(sessionDate != null ? sessionDate : LocalDate.now(ExchangeClock.NEW_YORK));
        final OrderBooks books = new OrderBooks(new BookContext().conclude());
        final long firstSequence = tickJournal.nextGatewaySequence();
        final TimeOrderGuard guard = new TimeOrderGuard(tickJournal.publisher(), lastExchangeTime(tickJournal));
        final MessageProcessor processor =
            new MessageProcessor(new Normalizer(books, clock, guard, firstSequence));
        final PacketTap tap = new PacketTap(tickJournal.publisher(), clock, sessionDate == null);
        final ProgressCount count = new ProgressCount(processor, source.plainSize());
        final ItchFileDecoder decoder = new ItchFileDecoder(new ItchFileDecoder.Context()
            .format(fileFormat)
            .lines(lineA, lineB)
            .holdPackets(reorderWindow)
            .gapWaitNanos(TimeUnit.MILLISECONDS.toNanos(gapWaitMs))
            .firstSequence(sessionStart)
            .session(session)
            .messageProcessor(processor)
            .messageHandler(count)
            .packetHandler(tap));
        count.decoder = decoder;

        final AtomicReference<Throwable> agentError = new AtomicReference<>();
        final JournalAgent agent = tickJournal.agent();
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(1, 10, 1_000, 100_000),
            error -> agentError.compareAndSet(null, error), null, agent);
        AgentRunner.startOnThread(runner);
        final long start = System.nanoTime();
        final ProgressBar progress = progressOptions.bar(spec, "messages", 0);
        count.progress = progress;
        final DecodeSummary summary;
        try
        {
            summary = source.decode(decoder);
            guard.finish();
        }
        finally
        {
            progress.finish();
            runner.close();
        }
        final long elapsed = System.nanoTime() - start;
        if (agentError.get() != null)
        {
            throw new JournalException("appending to " + journal + " failed: " + agentError.get(), agentError.get());
        }
        if (agent.ticksOutOfSequence() > 0)
        {
            throw new JournalException(agent.ticksOutOfSequence() + " ticks were refused out of sequence");
        }
        final PrintWriter out = spec.commandLine().getOut();
        out.println(json ?
            summaryJson(summary, agent, firstSequence, tickJournal.journaledSequence(), elapsed) :
            summaryText(summary, agent, firstSequence, tickJournal.journaledSequence(), elapsed));
        out.flush();
        return 0;
    }

    private String summaryText(
        final DecodeSummary summary, final JournalAgent agent, final long first, final long last, final long elapsed)
    {
        return String.format(Locale.ROOT, "recorded %s (%s) into %s: %,d messages (%,d malformed, %,d missing in " +
            "gaps) -> %,d ticks %s, %,d raw packets, in %.3f s (%s ticks/s)",
            summary.file(), summary.format().description(), journal, summary.messages(), summary.malformed(),
            summary.missingMessages(), agent.ticksAppended(),
            agent.ticksAppended() > 0 ? first + ".." + last : "(none)", agent.packetsAppended(), elapsed / 1e9,
            ProgressBar.rate(agent.ticksAppended() * 1e9 / Math.max(1, elapsed)));
    }

    private String summaryJson(
        final DecodeSummary summary, final JournalAgent agent, final long first, final long last, final long elapsed)
    {
        final boolean any = agent.ticksAppended() > 0;
        return JsonOutput.line(JsonOutput.object()
            .put("file", summary.file())
            .put("format", summary.format().name())
            .put("journal", journal.toString())
            .put("messages", summary.messages())
            .put("malformed", summary.malformed())
            .put("missingMessages", summary.missingMessages())
            .put("ticks", agent.ticksAppended())
            .put("firstSequence", JsonOutput.orNull(any, first))
            .put("lastSequence", JsonOutput.orNull(any, last))
            .put("packets", agent.packetsAppended())
            .put("elapsedNanos", elapsed)
            .put("ticksPerSecond", Math.round(agent.ticksAppended() * 1e9 / Math.max(1, elapsed))));
    }

    private JournalContext context()
    {
        if ((lineA == null) != (lineB == null))
        {
            throw usage("give both --line-a and --line-b (GROUP:PORT each), or neither");
        }
        if (lineA != null && lineA.equals(lineB))
        {
            throw usage("--line-a and --line-b are both " + lineA + "; the two lines must differ");
        }
        DecodeCommand.checkFeedArguments(spec.commandLine(), reorderWindow, gapWaitMs, sessionStart);
        DecodeCommand.checkSession(spec.commandLine(), session);
        if (retain < 0)
        {
            throw usage("--retain " + retain + " is negative; give 0 to keep every cycle or the number to keep");
        }
        final JournalCycleClock clock;
        switch (cycleClock)
        {
            case "record":
                clock = JournalCycleClock.RECORD_TIME;
                break;
            case "wall":
                clock = JournalCycleClock.WALL_CLOCK;
                break;
            default:
                throw usage("--cycle-clock " + cycleClock + " is not a clock; give record or wall");
        }
        try
        {
            return new JournalContext()
                .directory(journal)
                .rollCycle(JournalRollCycle.parse(rollCycle))
                .retainCycles(retain)
                .cycleClock(clock)
                .recordPackets(!noPackets)
                .conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw usage(ex.getMessage());
        }
    }

    private ItchFileFormat format()
    {
        try
        {
            return new CaptureOptionConverters.FormatConverter().convert(format);
        }
        catch (final CommandLine.TypeConversionException ex)
        {
            throw usage("--format: " + ex.getMessage());
        }
    }

    private TickJournal openJournal(final JournalContext context)
    {
        try
        {
            return TickJournal.open(context);
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

    private static long lastExchangeTime(final TickJournal tickJournal)
    {
        final long last = tickJournal.lastSequenceAtOpen();
        if (last == TickReplay.NO_SEQUENCE)
        {
            return Long.MIN_VALUE;
        }
        try (TickReplay replay = tickJournal.newTickReplay())
        {
            final UnsafeBuffer tick = new UnsafeBuffer(new byte[64]);
            return replay.read(last, tick, 0) ?
                tick.getLong(ReplaySummary.EXCHANGE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN) : Long.MIN_VALUE;
        }
    }

    private int fail(final PrintWriter err, final String message)
    {
        err.println("mdgate record: " + message);
        err.flush();
        return EXIT_FAILED;
    }

    private CommandLine.ParameterException usage(final String message)
    {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * Counts the messages on their way to the books and normalizer and shows the progress: messages and rate, and
     * the share of the file read when its size is known. Decoding thread.
     */
    static final class ProgressCount implements MoldUdp64MessageHandler
    {
        /** Messages between two looks at the clock. */
        private static final int CHECK_EVERY = 1024;

        private final MoldUdp64MessageHandler next;
        private final long bytes;
        private ProgressBar progress = ProgressBar.disabled();
        private ItchFileDecoder decoder;
        private long messages;

        ProgressCount(final MoldUdp64MessageHandler next, final long bytes)
        {
            this.next = next;
            this.bytes = bytes;
        }

        @Override
        public void onMessage(final DirectBuffer buffer, final int offset, final int length, final long sequence)
        {
            next.onMessage(buffer, offset, length, sequence);
            if (++messages % CHECK_EVERY == 0)
            {
                progress.update(messages, decoder.bytesRead(), bytes);
            }
        }
    }

    /**
     * Refuses the file before its first tick reaches the journal when that tick is earlier than the journal's last;
     * then passes every tick on. A leading {@code SESSION} tick with no exchange time yet (0: the normalizer has no
     * tick before it) is not what is checked: it is held until the first tick with a time passes, then journaled
     * with the journal's last exchange time, the time of the tick before it, as a gateway restarted from the journal
     * gives it; so nothing is journaled when the file is refused. Decoding thread.
     */
    static final class TimeOrderGuard implements TickHandler
    {
        private final TickHandler journal;
        private final long lastJournalTime;
        private final UnsafeBuffer heldSession = new UnsafeBuffer(new byte[TickLayout.LENGTH]);
        private boolean holdingSession;
        private boolean checked;

        TimeOrderGuard(final TickHandler journal, final long lastJournalTime)
        {
            this.journal = journal;
            this.lastJournalTime = lastJournalTime;
            this.checked = lastJournalTime == Long.MIN_VALUE;
        }

        @Override
        public void onTick(final DirectBuffer buffer, final int offset)
        {
            if (!checked)
            {
                final long time = buffer.getLong(offset + ReplaySummary.EXCHANGE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN);
                if (time == 0 && !holdingSession &&
                    buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET) == (byte)EventType.SESSION.value())
                {
                    heldSession.putBytes(0, buffer, offset, TickLayout.LENGTH);
                    heldSession.putLong(ReplaySummary.EXCHANGE_TIME_OFFSET, lastJournalTime, ByteOrder.LITTLE_ENDIAN);
                    holdingSession = true;
                    return;
                }
                checked = true;
                if (time < lastJournalTime)
                {
                    throw new JournalException("the journal already holds ticks up to " +
                        TimeArgument.format(lastJournalTime) + " and this file starts at " + TimeArgument.format(time) +
                        "; time must not go backwards within a journal: record into a new directory" +
                        (isLeadingGap(buffer, offset) ? ", or give --first-sequence 0 (the file's first tick is the " +
                        "GAP for the messages before its first packet, which has no exchange time yet)" : ""));
                }
                finish();
            }
            journal.onTick(buffer, offset);
        }

        /** Journals the leading SESSION tick still held, when no tick with a time followed it. */
        void finish()
        {
            if (holdingSession)
            {
                holdingSession = false;
                journal.onTick(heldSession, 0);
            }
        }

        private static boolean isLeadingGap(final DirectBuffer buffer, final int offset)
        {
            return buffer.getByte(offset + TickLayout.EVENT_TYPE_OFFSET) == (byte)EventType.GAP.value() &&
                buffer.getLong(offset + ReplaySummary.EXCHANGE_TIME_OFFSET, ByteOrder.LITTLE_ENDIAN) == 0;
        }
    }

    /**
     * Sees each datagram of a capture's lines before the feed session, as the gateway's session stage does: sets the
     * session date from the first one (unless given) and journals it raw, with its line and capture time. The
     * ticks' line and receive time come from the feed session itself, for the packet whose messages they are.
     * Decoding thread.
     */
    static final class PacketTap implements PacketHandler
    {
        private final JournalPublisher publisher;
        private final ExchangeClock clock;
        private boolean dateFromCapture;

        PacketTap(final JournalPublisher publisher, final ExchangeClock clock, final boolean dateFromCapture)
        {
            this.publisher = publisher;
            this.clock = clock;
            this.dateFromCapture = dateFromCapture;
        }

        @Override
        public void onPacket(
            final int line, final DirectBuffer buffer, final int offset, final int length, final long receiveTime)
        {
            if (dateFromCapture && receiveTime > 0)
            {
                dateFromCapture = false;
                clock.sessionDate(TimeArgument.newYorkDate(receiveTime));
            }
            publisher.onPacket(line, buffer, offset, length, receiveTime);
        }
    }
}
