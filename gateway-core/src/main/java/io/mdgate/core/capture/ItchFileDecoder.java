package io.mdgate.core.capture;

import io.mdgate.core.feed.LineArbiter;
import io.mdgate.core.feed.PacketHandler;
import io.mdgate.core.itch.ItchMessageHandler;
import io.mdgate.core.mold.MoldUdp64MessageHandler;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Turns a user's file into ITCH messages and a {@link DecodeSummary}: opens it (inflating gzip), detects its
 * framing from the content (or takes the one configured), reads it with the matching reader and, for captures,
 * sorts the datagrams onto the A and B lines and arbitrates them so each sequence is delivered once and in order.
 * Every well-formed message goes to the configured handlers.
 * <pre>
 *   daily / zero-prefixed file ---------------------------------------------+
 *   pcap / pcapng -> UdpFrameDissector -> MoldUdp64LineSelector -> LineArbiter +-> MessageTally -> handlers
 * </pre>
 * Configure once through a {@link Context}; {@link #decode(Path)} may be called for several files in turn.
 * Not thread-safe: one thread.
 */
public final class ItchFileDecoder
{
    /** Largest reorder window accepted: each packet slot takes {@link LineArbiter#MAX_PACKET_LENGTH} bytes. */
    public static final int MAX_REORDER_WINDOW = 1024;

    private final Context context;

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
        try (CaptureInput input = CaptureInput.open(file, context.bufferCapacity()))
        {
            final ItchFileFormat format = chooseFormat(input);
            final DecodeSummary summary = new DecodeSummary();
            summary.file = file.toString();
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
                throw new CaptureFormatException(input.file() + ": " +
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
                input.file() + " is a " + format.description());
        }
        return format;
    }

    private void readFile(
        final CaptureInput input, final ItchFileFormat format, final MessageTally tally, final DecodeSummary summary)
        throws IOException
    {
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
        final LineArbiter arbiter = new LineArbiter(context.reorderWindow(), tally);
        final MoldUdp64LineSelector selector =
            new MoldUdp64LineSelector(arbiter, context.lineA(), context.lineB(), context.packetHandler());
        final UdpFrameDissector dissector = new UdpFrameDissector();
        if (format == ItchFileFormat.PCAPNG)
        {
            final PcapNgReader reader = new PcapNgReader();
            reader.read(input, dissector, selector);
            summary.truncatedRecords = reader.truncatedRecords();
            summary.oversizedRecords = reader.oversizedRecords();
            summary.malformedBlocks = reader.malformedBlocks();
        }
        else
        {
            final PcapReader reader = new PcapReader();
            reader.read(input, dissector, selector);
            summary.truncatedRecords = reader.truncatedRecords();
            summary.oversizedRecords = reader.oversizedRecords();
        }
        arbiter.finish();
        CaptureSummaries.fill(summary, dissector, selector, arbiter);
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
     * Settings of an {@link ItchFileDecoder}, with defaults; validated once by the decoder's constructor.
     * Not thread-safe: configure on one thread, then hand over.
     */
    public static final class Context
    {
        private ItchFileFormat format;
        private UdpEndpoint lineA;
        private UdpEndpoint lineB;
        private int reorderWindow = LineArbiter.DEFAULT_REORDER_WINDOW;
        private int bufferCapacity = CaptureInput.DEFAULT_CAPACITY;
        private ItchMessageHandler itchHandler;
        private MoldUdp64MessageHandler messageHandler;
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
         * @param lineA the A line's group and port, or null (with lineB null) to take the first two MoldUDP64
         *              destinations seen in the capture.
         * @param lineB the B line's group and port.
         * @return this.
         */
        public Context lines(final UdpEndpoint lineA, final UdpEndpoint lineB)
        {
            this.lineA = lineA;
            this.lineB = lineB;
            return this;
        }

        public int reorderWindow()
        {
            return reorderWindow;
        }

        /**
         * @param packets held while waiting for the other line to fill a hole (default
         *                {@link LineArbiter#DEFAULT_REORDER_WINDOW}); 0 makes every hole a gap at once.
         * @return this.
         */
        public Context reorderWindow(final int packets)
        {
            this.reorderWindow = packets;
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

        public PacketHandler packetHandler()
        {
            return packetHandler;
        }

        /**
         * @param handler sees every datagram of a capture's A and B lines (line index as in
         *                {@link LineArbiter#LINE_A}), with its capture time, before arbitration, so before the
         *                messages it releases reach the message handler; may be null. Not called for daily and
         *                zero-prefixed files.
         * @return this.
         */
        public Context packetHandler(final PacketHandler handler)
        {
            this.packetHandler = handler;
            return this;
        }

        Context conclude()
        {
            if (reorderWindow < 0 || reorderWindow > MAX_REORDER_WINDOW)
            {
                throw new IllegalArgumentException("reorder window of " + reorderWindow +
                    " packets is outside 0.." + MAX_REORDER_WINDOW);
            }
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
