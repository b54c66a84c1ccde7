package io.mdgate.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mdgate.core.book.BookContext;
import io.mdgate.core.book.OrderBooks;
import io.mdgate.core.book.TopOfBookReport;
import io.mdgate.core.capture.CaptureFormatException;
import io.mdgate.core.capture.DecodeSummary;
import io.mdgate.core.capture.ItchFileDecoder;
import io.mdgate.core.capture.ItchFileFormat;
import io.mdgate.core.capture.UdpEndpoint;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.tick.ExchangeClock;
import io.mdgate.core.tick.Normalizer;
import io.mdgate.core.tick.TickHandler;
import io.mdgate.core.tick.TickJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code mdgate decode FILE}: reads a Nasdaq daily file, a zero-prefixed ITCH file or a pcap/pcapng capture of
 * MoldUDP64 (gzip-compressed or not, recognised by content) and prints a summary: messages per type, malformed
 * input, gaps, duplicates and first/last sequence, as text or, with {@code --json}, as one JSON object. A
 * capture's A and B lines go through the gateway's own feed session, with the capture's time as its clock, so
 * they are arbitrated, held and declared lost exactly as {@code mdgate run} would have done live (without a
 * re-request server). FILE {@code -} is stdin ({@link CaptureSource}); data (ticks) goes to stdout, the summary
 * to stderr when ticks share stdout.
 * <p>
 * Exit codes: 0 decoded (whatever the file held), 1 the file cannot be read or is in no accepted format,
 * 2 bad arguments. Runs on the calling thread.
 */
@Command(
    name = "decode",
    description = {
        "Decode an ITCH 5.0 file or capture and print a summary: messages per type, malformed, gaps, sequences.",
        "Reads Nasdaq daily files (u16 length + message), ITCH files with zero length prefixes, and pcap/pcapng " +
            "captures of MoldUDP64 over Ethernet/IPv4/UDP; gzip is read transparently. The format is detected " +
            "from the content. A capture's lines go through the gateway's feed session in capture time, as " +
            "`mdgate run` would have taken them (without a re-request server). FILE - reads stdin, e.g. " +
            "`tcpdump -w - | mdgate decode -`." },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
        "0:decoded (the summary says what was malformed or missing)",
        "1:the file cannot be read or is in no accepted format",
        "2:bad arguments, or the file is missing, a directory or not readable" })
public final class DecodeCommand implements Callable<Integer>
{
    /** Exit code when the file cannot be read or is in no format mdgate reads. */
    public static final int EXIT_UNREADABLE = 1;
    /** Longest gap wait the feed session takes. */
    public static final long MAX_GAP_WAIT_MS = 10_000;

    @Spec
    private CommandSpec spec;

    @Option(names = { "-h", "--help" }, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(index = "0", paramLabel = "FILE", description = "The file to decode (may be gzip-compressed); " +
        CaptureSource.STDIN_HELP)
    @Stdio
    private Path file;

    /** What {@code -} reads: the process's stdin, replaced in tests. */
    InputStream stdin = System.in;

    /** Where stdin is copied when it cannot be streamed: null for java.io.tmpdir; replaced in tests. */
    Path spoolDirectory;

    @Option(names = "--json", description = "Print the summary as one JSON object with stable keys.")
    private boolean json;

    @Option(
        names = "--format",
        paramLabel = "FORMAT",
        defaultValue = "auto",
        converter = CaptureOptionConverters.FormatConverter.class,
        description = "auto (default: detect from the content), daily, zero-prefixed, pcap (pcap or pcapng).")
    private ItchFileFormat format;

    @Option(
        names = "--line-a",
        paramLabel = "GROUP:PORT",
        converter = CaptureOptionConverters.EndpointConverter.class,
        description = "Destination of the A line in a capture, e.g. 233.54.12.111:26477. Default: the first " +
            "MoldUDP64 destination seen.")
    private UdpEndpoint lineA;

    @Option(
        names = "--line-b",
        paramLabel = "GROUP:PORT",
        converter = CaptureOptionConverters.EndpointConverter.class,
        description = "Destination of the B line. Default: the second MoldUDP64 destination seen.")
    private UdpEndpoint lineB;

    @Option(
        names = "--reorder-window",
        paramLabel = "PACKETS",
        defaultValue = "" + FeedSession.Context.DEFAULT_HOLD_PACKETS,
        description = "Packets the feed session may hold after gaps, waiting for the other line; when full, the " +
            "oldest gap is declared lost (1.." + FeedSession.Context.MAX_HOLD_PACKETS + ", default " +
            "${DEFAULT-VALUE}, as the gateway).")
    private int reorderWindow;

    @Option(
        names = "--gap-wait-ms",
        paramLabel = "MS",
        defaultValue = "2",
        description = "How long, in capture time, a gap waits for the other line before it is declared lost " +
            "(0.." + MAX_GAP_WAIT_MS + ", default ${DEFAULT-VALUE}, as the gateway's [feed] gap_wait_ms).")
    private long gapWaitMs;

    @Option(
        names = "--first-sequence",
        paramLabel = "N",
        defaultValue = "0",
        description = "Where the capture's session starts: 0 (default) at its first packet, 1 at the session's " +
            "start as `mdgate run` does (what came before the capture is then one gap).")
    private long sessionStart;

    @Option(
        names = "--session",
        paramLabel = "NAME",
        defaultValue = "",
        description = "The only MoldUDP64 session of a capture to accept (up to 10 characters), as [feed] session " +
            "in run: its first packet starts it, packets of any other are counted and dropped. Default: none, a " +
            "session is accepted once both lines (or 3 consecutive packets of one) show it, or at the end of the " +
            "capture the name that came in the most packets (docs/FEED.md).")
    private String session;

    @Option(names = "--book", description = "Also print the final best bid/offer of the most active instruments.")
    private boolean book;

    @Option(names = "--ticks", description = "Print the normalized ticks as JSON lines on stdout; the summary " +
        "then goes to stderr.")
    private boolean ticks;

    @Option(
        names = "--top",
        paramLabel = "N",
        defaultValue = "10",
        description = "With --book: how many of the most active instruments to list (default ${DEFAULT-VALUE}).")
    private int top;

    @Option(
        names = "--session-date",
        paramLabel = "YYYY-MM-DD",
        description = "Trading date of the session, for exchange timestamps in ticks (ITCH carries only the time " +
            "since midnight, New York). Default: the New York date of a pcap's first packet; today for other " +
            "formats.")
    private LocalDate sessionDate;

    @Override
    public Integer call()
    {
        checkArguments();
        if (!CaptureSource.isStdin(file) && Files.isDirectory(file))
        {
            throw wrongInput("it is a directory; give the path of a capture or ITCH file");
        }
        try (CaptureSource source = CaptureSource.open(file, stdin, format, lineA != null, spoolDirectory))
        {
            return decode(source);
        }
        catch (final IOException ex)
        {
            // Copying stdin to its temporary file failed (e.g. the disk is full).
            unreadable(spec.commandLine().getErr(), FailureReasons.describe(ex));
            return EXIT_UNREADABLE;
        }
    }

    private int decode(final CaptureSource source)
    {
        final PrintWriter out = spec.commandLine().getOut();
        final BookStage bookStage = book || ticks ? bookStage(source, book, ticks, out) : null;

        final DecodeSummary summary = decode(source, bookStage == null ? null : bookStage.processor());
        if (summary == null)
        {
            return EXIT_UNREADABLE;
        }
        out.flush();
        // With --ticks stdout carries only the tick lines, so a pipe into jq reads pure NDJSON.
        final PrintWriter where = ticks ? spec.commandLine().getErr() : out;
        if (json)
        {
            final ObjectNode summaryJson = JsonOutput.parseObject(summary.toJson());
            if (book)
            {
                summaryJson.set("book", JsonOutput.parse(bookStage.bookJson()));
            }
            where.println(JsonOutput.line(summaryJson));
        }
        else
        {
            where.print(summary.toText());
            if (book)
            {
                bookStage.printBookText(where);
            }
        }
        where.flush();
        return 0;
    }

    private void checkArguments()
    {
        if ((lineA == null) != (lineB == null))
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "give both --line-a and --line-b (GROUP:PORT each), or neither to take the first two destinations seen");
        }
        if (lineA != null && lineA.equals(lineB))
        {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--line-a and --line-b are both " + lineA + "; the two lines must have different destinations");
        }
        if (top < 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "--top " + top +
                " lists no instrument; give 1 or more");
        }
        checkFeedArguments(spec.commandLine(), reorderWindow, gapWaitMs, sessionStart);
        checkSession(spec.commandLine(), session);
    }

    /**
     * Refuses a {@code --session} the feed session would not take (too long, not printable); {@code record} shares it.
     *
     * @throws CommandLine.ParameterException naming the option and what is allowed.
     */
    public static void checkSession(final CommandLine commandLine, final String session)
    {
        try
        {
            new FeedSession.Context()
                .session(session)
                .messageHandler((buffer, offset, length, sequence) -> {})
                .gapHandler((first, count) -> {})
                .conclude();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(commandLine, "--session " + session + ": " + ex.getMessage() +
                " (a MoldUDP64 session is up to 10 printable ASCII characters, e.g. 000010059B)");
        }
    }

    /**
     * Refuses feed session settings out of range, naming the option; {@code record} shares it.
     *
     * @throws CommandLine.ParameterException for the first option out of range.
     */
    public static void checkFeedArguments(
        final CommandLine commandLine, final int reorderWindow, final long gapWaitMs, final long firstSequence)
    {
        if (reorderWindow < 1 || reorderWindow > FeedSession.Context.MAX_HOLD_PACKETS)
        {
            throw new CommandLine.ParameterException(commandLine, "--reorder-window " + reorderWindow +
                " is outside 1.." + FeedSession.Context.MAX_HOLD_PACKETS + " packets (the feed session holds at " +
                "least one packet after a gap; give --gap-wait-ms 0 to declare each hole as soon as the next " +
                "packet comes)");
        }
        if (gapWaitMs < 0 || gapWaitMs > MAX_GAP_WAIT_MS)
        {
            throw new CommandLine.ParameterException(commandLine, "--gap-wait-ms " + gapWaitMs + " is outside 0.." +
                MAX_GAP_WAIT_MS + " ms; give e.g. 2, the gateway's default");
        }
        if (firstSequence < 0)
        {
            throw new CommandLine.ParameterException(commandLine, "--first-sequence " + firstSequence +
                " is negative; give 0 to start at the first packet or 1 to start at the session's start");
        }
    }

    /** @return the summary, or null when the file could not be read (the reason is printed). */
    private DecodeSummary decode(final CaptureSource source, final MessageProcessor stage)
    {
        final PrintWriter err = spec.commandLine().getErr();
        final ItchFileDecoder.Context context = new ItchFileDecoder.Context()
            .format(format)
            .lines(lineA, lineB)
            .holdPackets(reorderWindow)
            .gapWaitNanos(TimeUnit.MILLISECONDS.toNanos(gapWaitMs))
            .firstSequence(sessionStart)
            .session(session);
        if (stage != null)
        {
            context.messageProcessor(stage);
        }
        try
        {
            return source.decode(new ItchFileDecoder(context));
        }
        catch (final NoSuchFileException ex)
        {
            throw wrongInput("no such file; give the path of a capture or ITCH file");
        }
        catch (final AccessDeniedException ex)
        {
            throw wrongInput("permission denied; give a file this user may read");
        }
        catch (final CaptureFormatException ex)
        {
            err.println("mdgate decode: " + ex.getMessage());
            err.flush();
            return null;
        }
        catch (final IOException ex)
        {
            return unreadable(err, ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    /** @return the usage error for a named file that is missing or of the wrong kind, by the rule of exit codes. */
    private CommandLine.ParameterException wrongInput(final String why)
    {
        return new CommandLine.ParameterException(spec.commandLine(), "cannot read " + file + ": " + why);
    }

    private DecodeSummary unreadable(final PrintWriter err, final String why)
    {
        err.println("mdgate decode: cannot read " + (CaptureSource.isStdin(file) ? CaptureSource.STDIN : file) +
            ": " + why);
        err.flush();
        return null;
    }

    /**
     * The stage behind {@code --book} and {@code --ticks}: order books and the normalizer fed with every
     * well-formed message in sequence order, ticks printed as JSON lines as they are made.
     *
     * @param source what is decoded, for the date of a capture's first packet.
     * @param book   whether {@code --book} was given.
     * @param ticks  whether {@code --ticks} was given.
     * @param out    where the command prints.
     * @return the stage.
     */
    BookStage bookStage(final CaptureSource source, final boolean book, final boolean ticks, final PrintWriter out)
    {
        final LocalDate date = sessionDate != null ? sessionDate :
            source.captureDate().orElseGet(() -> LocalDate.now(ExchangeClock.NEW_YORK));
        final OrderBooks books = new OrderBooks(new BookContext().conclude());
        final TickJson tickJson = new TickJson(books.instruments());
        final StringBuilder line = new StringBuilder(256);
        final TickHandler tickHandler = ticks ?
            (buffer, offset) ->
            {
                line.setLength(0);
                out.append(tickJson.appendTo(buffer, offset, line)).append(System.lineSeparator());
            } :
            (buffer, offset) -> {};
        final MessageProcessor processor =
            new MessageProcessor(new Normalizer(books, new ExchangeClock(date), tickHandler, 1));

        return new BookStage()
        {
            public MessageProcessor processor()
            {
                return processor;
            }

            public String bookJson()
            {
                return TopOfBookReport.json(TopOfBookReport.mostActive(books, top));
            }

            public void printBookText(final PrintWriter out)
            {
                final List<TopOfBookReport.Entry> entries = TopOfBookReport.mostActive(books, top);
                out.println("book           best bid/offer of the " + entries.size() + " most active instruments");
                TopOfBookReport.text(entries).forEach(out::println);
            }
        };
    }

    /**
     * What {@code --book} and {@code --ticks} add to a decode. Confined to the decoding thread.
     */
    interface BookStage
    {
        /**
         * @return receives every well-formed message with its sequence, in sequence order, once, and every gap a
         * capture's feed session declares lost (a GAP tick).
         */
        MessageProcessor processor();

        /** @return the final best bid/offer of the most active instruments as a JSON array. */
        String bookJson();

        /** Prints the final best bid/offer of the most active instruments as text, after the summary. */
        void printBookText(PrintWriter out);
    }
}
