package io.mdgate.core.capture;

import io.mdgate.core.feed.FeedLines;
import io.mdgate.core.feed.FeedSession;
import io.mdgate.core.feed.GapHandler;
import io.mdgate.core.feed.MessageProcessor;
import io.mdgate.core.feed.PacketContextHandler;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.mold.MoldUdp64MessageHandler;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Turns a user's file into ITCH messages and a {@link DecodeSummary}: opens it (inflating gzip), detects its
 * framing from the content (or takes the one configured), reads it with the matching reader and, for captures,
 * sorts the datagrams onto the A and B lines and runs them through the live gateway's {@link FeedSession}, with
 * the capture's time as its clock ({@link CaptureFeed}), so each sequence is delivered once and in order and each
 * unrecoverable gap is declared exactly as the gateway would have declared it. Every well-formed message goes to
 * the configured handlers.
 * <pre>
 *   daily / zero-prefixed file -------------------------------------------------------------+
 *   pcap / pcapng -> UdpFrameDissector -> MoldUdp64LineSelector -> CaptureFeed (FeedSession) +-> MessageTally -> handlers
 * </pre>
 * When the lines are not given, a first pass over the capture finds them ({@link MoldUdp64LineFinder}); it stops
 * as soon as both are known.
 * <p>
 * Configure once through a {@link Context}; {@link #decode(Path)} may be called for several files in turn; a
 * stream ({@link #decode(InputStream, String)}) is read in one pass, so a capture's lines must then be configured.
 * Not thread-safe: one thread.
 */
public final class ItchFileDecoder
{
    /** Default gap wait: the gateway's default {@code [feed] gap_wait_ms} of 2 ms. */
    public static final long DEFAULT_GAP_WAIT_NANOS = 2_000_000L;

    private final Context context;
    private CaptureInput current;

    /**
     * @param context the settings, validated here.
     */
    public ItchFileDecoder(final Context context)
    {
        this.context = context.conclude();
    }

    /**
     * Reads one file to its end.
     *
     * @param file to decode.
     * @return what it held.
     * @throws CaptureFormatException   when the content matches no accepted format (or not the one configured).
     * @throws IllegalArgumentException when lines are configured for a file that is not a capture.
     * @throws IOException              when the file cannot be opened or read.
     */
    public DecodeSummary decode(final Path file) throws IOException
    {
        return decode(file, file.toString());
    }

    /**
     * Reads one file to its end, naming it {@code name} in the summary and in messages (a copy of stdin is "stdin").
     *
     * @param file to decode.
     * @param name what the summary and messages call it.
     * @return what it held.
     * @throws CaptureFormatException   when the content matches no accepted format (or not the one configured).
     * @throws IllegalArgumentException when lines are configured for a file that is not a capture.
     * @throws IOException              when the file cannot be opened or read.
     */
    public DecodeSummary decode(final Path file, final String name) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(file, name, context.bufferCapacity()))
        {
            return decode(input);
        }
    }

    /**
     * Reads a stream (e.g. stdin) to its end, in one pass: an ITCH file, or a capture whose lines are configured;
     * finding a capture's lines takes a pass of its own, which a stream cannot give.
     *
     * @param stream to decode; left open.
     * @param name   what the summary and messages call it.
     * @return what it held.
     * @throws CaptureFormatException   when the content matches no accepted format (or not the one configured).
     * @throws IllegalArgumentException when lines are configured for a stream that is not a capture, or a capture
     *                                  comes without configured lines.
     * @throws IOException              when the stream cannot be read.
     */
    public DecodeSummary decode(final InputStream stream, final String name) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(stream, name, context.bufferCapacity()))
        {
            return decode(input);
        }
    }

    /** @return bytes of (decompressed) data consumed so far from the input being decoded, 0 between decodes. */
    public long bytesRead()
    {
        final CaptureInput input = current;
        return null == input ? 0 : input.offset();
    }

    private DecodeSummary decode(final CaptureInput input) throws IOException
    {
        current = input;
        try
        {
            final ItchFileFormat format = chooseFormat(input);
            final DecodeSummary summary = new DecodeSummary();
            summary.file = input.name();
            summary.format = format;
            summary.compressed = input.isCompressed();
            final MessageTally tally = new MessageTally(context.itchHandler(), context.messageHandler());
            final long start = System.nanoTime();
            if (format.isCapture())
            {
                readCapture(input, format, tally, summary);
            }
            else
            {
                readFile(input, format, tally, summary);
            }
            summary.elapsedNanos = System.nanoTime() - start;
            summary.bytes = input.offset();
            summary.compressedStreamTruncated = input.compressedStreamTruncated();
            tally(tally, summary);
            return summary;
        }
        finally
        {
            current = null;
        }
    }

    private ItchFileFormat chooseFormat(final CaptureInput input) throws IOException
    {
        input.ensure(ItchFileFormat.DETECTION_LENGTH);
        final ItchFileFormat detected = ItchFileFormat.detect(input.buffer(), input.position(), input.remaining());
        final ItchFileFormat configured = context.format();
        final ItchFileFormat format;
        if (configured == null)
        {
            if (detected == null)
            {
                throw new CaptureFormatException(input.name() + ": " +
                    (input.remaining() == 0 ? "the file is empty" : "the content is in no format mdgate reads") +
                    "; accepted: " + ItchFileFormat.acceptedFormats());
            }
            format = detected;
        }
        else
        {
            format = configured.isCapture() && detected == ItchFileFormat.PCAPNG ? ItchFileFormat.PCAPNG : configured;
        }
        if (!format.isCapture() && context.lineA() != null)
        {
            throw new IllegalArgumentException("line addresses apply to pcap/pcapng captures only, and " +
                input.name() + " is a " + format.description());
        }
        if (!format.isCapture() && context.session() != null)
        {
            throw new IllegalArgumentException("a MoldUDP64 session applies to pcap/pcapng captures only, and " +
                input.name() + " is a " + format.description() + "; leave the session out");
        }
        return format;
    }

    private void readFile(
        final CaptureInput input, final ItchFileFormat format, final MessageTally tally, final DecodeSummary summary)
        throws IOException
    {
        if (null != context.messageProcessor())
        {
            context.messageProcessor().packetDecoder(null);
        }
        if (format == ItchFileFormat.DAILY)
        {
            final DailyFileReader reader = new DailyFileReader();
            reader.read(input, tally);
            summary.truncatedRecords = reader.truncatedRecords();
        }
        else
        {
            final ZeroPrefixedFileReader reader = new ZeroPrefixedFileReader();
            reader.read(input, tally);
            summary.truncatedRecords = reader.truncatedRecords();
            summary.unknownType += reader.unknownTypeRecords();
            summary.skippedBytes = reader.skippedBytes();
        }
        summary.firstSequence = tally.firstSequence();
        summary.lastSequence = tally.lastSequence();
    }

    private void readCapture(
        final CaptureInput input, final ItchFileFormat format, final MessageTally tally, final DecodeSummary summary)
        throws IOException
    {
        UdpEndpoint lineA = context.lineA();
        UdpEndpoint lineB = context.lineB();
        long discoveryDatagrams = 0;
        if (lineA == null)
        {
            if (null == input.file())
            {
                throw new IllegalArgumentException(input.name() + " is a capture read as a stream: give its " +
                    "lines, since finding them takes a pass of its own");
            }
            final MoldUdp64LineFinder finder = findLines(input, format);
            lineA = finder.line(FeedLines.A);
            lineB = finder.line(FeedLines.B);
            discoveryDatagrams = finder.datagramsUntilFound();
        }
        final CaptureFeed feed = new CaptureFeed(context.sessionContext(tally));
        if (null != context.messageProcessor())
        {
            context.messageProcessor().packetDecoder(feed.session().decoder());
        }
        final MoldUdp64LineSelector selector =
            new MoldUdp64LineSelector(feed, lineA, lineB, context.packetHandler(), discoveryDatagrams);
        final UdpFrameDissector dissector = new UdpFrameDissector();
        readFrames(input, format, dissector, selector, summary);
        feed.finish();
        CaptureSummaries.fill(summary, dissector, selector, feed, tally);
    }

    private MoldUdp64LineFinder findLines(final CaptureInput first, final ItchFileFormat format) throws IOException
    {
        try (CaptureInput input = CaptureInput.open(first.file(), first.name(), context.bufferCapacity()))
        {
            final UdpFrameDissector dissector = new UdpFrameDissector();
            final MoldUdp64LineFinder finder = new MoldUdp64LineFinder(dissector);
            readFrames(input, format, dissector, finder, new DecodeSummary());
            return finder;
        }
    }

    private static void readFrames(final CaptureInput input, final ItchFileFormat format,
        final UdpFrameDissector dissector, final UdpDatagramHandler handler, final DecodeSummary summary)
        throws IOException
    {
        if (format == ItchFileFormat.PCAPNG)
        {
            final PcapNgReader reader = new PcapNgReader();
            reader.read(input, dissector, handler);
            summary.truncatedRecords = reader.truncatedRecords();
            summary.oversizedRecords = reader.oversizedRecords();
            summary.malformedBlocks = reader.malformedBlocks();
        }
        else
        {
            final PcapReader reader = new PcapReader();
            reader.read(input, dissector, handler);
            summary.truncatedRecords = reader.truncatedRecords();
            summary.oversizedRecords = reader.oversizedRecords();
        }
    }

    private static void tally(final MessageTally tally, final DecodeSummary summary)
    {
        summary.messages = tally.messages();
        for (int type = 0; type < 256; type++)
        {
            summary.counts[type] = tally.count((byte)type);
        }
        summary.unknownType += tally.unknownType();
        summary.lengthMismatch = tally.lengthMismatch();
    }

    /**
     * Settings of an {@link ItchFileDecoder}, with defaults; validated once by the decoder's constructor. The feed
     * session settings ({@link #firstSequence(long)}, {@link #gapWaitNanos(long)}, {@link #holdPackets(int)}) are
     * those of the gateway's {@link FeedSession}, with the gateway's defaults except {@code firstSequence}.
     * Not thread-safe: configure on one thread, then hand over.
     */
    public static final class Context
    {
        private static final GapHandler NO_GAP_HANDLER = (firstSequence, count) -> {};

        private ItchFileFormat format;
        private UdpEndpoint lineA;
        private UdpEndpoint lineB;
        private long firstSequence;
        private String session;
        private long gapWaitNanos = DEFAULT_GAP_WAIT_NANOS;
        private int holdPackets = FeedSession.Context.DEFAULT_HOLD_PACKETS;
        private int bufferCapacity = CaptureInput.DEFAULT_CAPACITY;
        private ItchMessageHandler itchHandler;
        private MoldUdp64MessageHandler messageHandler;
        private GapHandler gapHandler;
        private PacketContextHandler packetContextHandler;
        private MessageProcessor messageProcessor;
        private PacketHandler packetHandler;

        /** @return the framing to read, or null (the default) to detect it from the content. */
        public ItchFileFormat format()
        {
            return format;
        }

        /**
         * @param format the framing to read, or null to detect it. {@link ItchFileFormat#PCAP} accepts pcapng too
         *               (the capture's magic tells them apart).
         * @return this.
         */
        public Context format(final ItchFileFormat format)
        {
            this.format = format;
            return this;
        }

        public UdpEndpoint lineA()
        {
            return lineA;
        }

        public UdpEndpoint lineB()
        {
            return lineB;
        }

        /**
         * @param lineA the A line's group and port, or null (with lineB null) to take the first two destinations
         *              that receive a valid MoldUDP64 packet in the capture.
         * @param lineB the B line's group and port.
         * @return this.
         */
        public Context lines(final UdpEndpoint lineA, final UdpEndpoint lineB)
        {
            this.lineA = lineA;
            this.lineB = lineB;
            return this;
        }

        public long firstSequence()
        {
            return firstSequence;
        }

        /**
         * @param sequence where the capture's first session starts: 0 (the default) at its first packet, 1 from the
         *                 session's start (as the gateway does), so messages before the first packet captured are
         *                 one declared gap. See {@link FeedSession.Context#firstSequence(long)}.
         * @return this.
         */
        public Context firstSequence(final long sequence)
        {
            this.firstSequence = sequence;
            return this;
        }

        /** @return the only MoldUDP64 session to accept, or null (the default) for none. */
        public String session()
        {
            return session;
        }

        /**
         * @param name the only MoldUDP64 session of a capture to accept: its first packet starts it and packets of
         *             any other are counted and dropped, as {@code [feed] session} in the gateway. Null or empty
         *             (the default) for none: a session is accepted once corroborated, or at the end of the capture
         *             if nothing corroborated one (see {@link FeedSession#onEndOfInput()}). See
         *             {@link FeedSession.Context#session(String)}.
         * @return this.
         */
        public Context session(final String name)
        {
            this.session = null == name || name.isEmpty() ? null : name;
            return this;
        }

        public long gapWaitNanos()
        {
            return gapWaitNanos;
        }

        /**
         * @param nanos how long, in capture time, a gap waits for the other line before it is declared lost
         *              (default {@link #DEFAULT_GAP_WAIT_NANOS}, as the gateway). See
         *              {@link FeedSession.Context#gapWaitNanos(long)}.
         * @return this.
         */
        public Context gapWaitNanos(final long nanos)
        {
            this.gapWaitNanos = nanos;
            return this;
        }

        public int holdPackets()
        {
            return holdPackets;
        }

        /**
         * @param packets most packets held after gaps, waiting for them to fill (default
         *                {@link FeedSession.Context#DEFAULT_HOLD_PACKETS}, as the gateway); when the hold is full the
         *                oldest gap is declared lost. See {@link FeedSession.Context#holdPackets(int)}.
         * @return this.
         */
        public Context holdPackets(final int packets)
        {
            this.holdPackets = packets;
            return this;
        }

        public int bufferCapacity()
        {
            return bufferCapacity;
        }

        /**
         * @param bytes of the read window (default {@link CaptureInput#DEFAULT_CAPACITY}).
         * @return this.
         */
        public Context bufferCapacity(final int bytes)
        {
            this.bufferCapacity = bytes;
            return this;
        }

        public ItchMessageHandler itchHandler()
        {
            return itchHandler;
        }

        /**
         * @param handler receives every well-formed message as a flyweight, in sequence order; may be null.
         * @return this.
         */
        public Context itchHandler(final ItchMessageHandler handler)
        {
            this.itchHandler = handler;
            return this;
        }

        public MoldUdp64MessageHandler messageHandler()
        {
            return messageHandler;
        }

        /**
         * @param handler receives every well-formed message with its sequence, in sequence order, after it was
         *                counted (e.g. a book and tick stage); may be null.
         * @return this.
         */
        public Context messageHandler(final MoldUdp64MessageHandler handler)
        {
            this.messageHandler = handler;
            return this;
        }

        public GapHandler gapHandler()
        {
            return gapHandler;
        }

        /**
         * @param handler told of each gap of a capture declared lost, in its place in the stream; may be null.
         * @return this.
         */
        public Context gapHandler(final GapHandler handler)
        {
            this.gapHandler = handler;
            return this;
        }

        public PacketContextHandler packetContextHandler()
        {
            return packetContextHandler;
        }

        /**
         * @param handler told the line and capture time of each capture packet whose messages come next; may be
         *                null.
         * @return this.
         */
        public Context packetContextHandler(final PacketContextHandler handler)
        {
            this.packetContextHandler = handler;
            return this;
        }

        public MessageProcessor messageProcessor()
        {
            return messageProcessor;
        }

        /**
         * The decode, book and tick stage, wired to the feed session as the gateway wires it: message handler, gap
         * handler (a GAP tick per declared gap), packet context handler (line and receive time of the ticks), and
         * the session's packet decoder (each packet's last tick flagged).
         *
         * @param processor the stage; sets {@link #messageHandler}, {@link #gapHandler} and
         *                  {@link #packetContextHandler}.
         * @return this.
         */
        public Context messageProcessor(final MessageProcessor processor)
        {
            this.messageProcessor = processor;
            this.messageHandler = processor;
            this.gapHandler = processor;
            this.packetContextHandler = processor;
            return this;
        }

        public PacketHandler packetHandler()
        {
            return packetHandler;
        }

        /**
         * @param handler sees every datagram of a capture's A and B lines (line {@link FeedLines#A} or
         *                {@link FeedLines#B}), with its capture time, before the feed session, so before the
         *                messages it releases reach the message handler; may be null. Not called for daily and
         *                zero-prefixed files.
         * @return this.
         */
        public Context packetHandler(final PacketHandler handler)
        {
            this.packetHandler = handler;
            return this;
        }

        /** @return the feed session's settings, delivering to the tally. */
        FeedSession.Context sessionContext(final MoldUdp64MessageHandler tally)
        {
            return new FeedSession.Context()
                .messageHandler(tally)
                .gapHandler(null != gapHandler ? gapHandler : NO_GAP_HANDLER)
                .packetContextHandler(packetContextHandler)
                .firstSequence(firstSequence)
                .session(session)
                .gapWaitNanos(gapWaitNanos)
                .holdPackets(holdPackets);
        }

        Context conclude()
        {
            sessionContext((buffer, offset, length, sequence) -> {}).conclude();
            if (bufferCapacity < CaptureInput.MIN_CAPACITY)
            {
                throw new IllegalArgumentException("read window of " + bufferCapacity + " bytes is below " +
                    CaptureInput.MIN_CAPACITY);
            }
            if ((lineA == null) != (lineB == null))
            {
                throw new IllegalArgumentException("give both line A and line B, or neither");
            }
            if (lineA != null && lineA.equals(lineB))
            {
                throw new IllegalArgumentException("line A and line B are both " + lineA + "; they must differ");
            }
            return this;
        }
    }
}
