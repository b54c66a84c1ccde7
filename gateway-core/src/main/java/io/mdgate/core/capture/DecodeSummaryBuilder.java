package io.mdgate.core.capture;

/**
 * Fills a {@link DecodeSummary} from a source other than a file, such as a live ingress and its feed session, so
 * that it prints the same text and JSON as {@code decode}. Only what the caller sets is filled; everything else
 * stays 0 or null, as for a file where it does not apply. Not thread-safe: fill on one thread, then
 * {@link #build()}.
 */
public final class DecodeSummaryBuilder
{
    private final DecodeSummary summary = new DecodeSummary();

    /**
     * @param source what was read, e.g. the DPDK device; printed as the summary's {@code file}.
     * @return this.
     */
    public DecodeSummaryBuilder source(final String source)
    {
        summary.file = source;
        return this;
    }

    /**
     * Takes the messages per type, the malformed ITCH messages and the first and last sequence from a tally.
     *
     * @param tally the stage every message went through.
     * @return this.
     */
    public DecodeSummaryBuilder messages(final MessageTally tally)
    {
        summary.messages = tally.messages();
        for (int type = 0; type < 256; type++)
        {
            summary.counts[type] = tally.count((byte)type);
        }
        summary.unknownType = tally.unknownType();
        summary.lengthMismatch = tally.lengthMismatch();
        summary.firstSequence = tally.firstSequence();
        summary.lastSequence = tally.lastSequence();
        return this;
    }

    /**
     * @param gaps            holes declared lost.
     * @param missingMessages messages in them.
     * @return this.
     */
    public DecodeSummaryBuilder gaps(final long gaps, final long missingMessages)
    {
        summary.gaps = gaps;
        summary.missingMessages = missingMessages;
        return this;
    }

    /**
     * @param messages copies of messages already delivered.
     * @return this.
     */
    public DecodeSummaryBuilder duplicates(final long messages)
    {
        summary.duplicateMessages = messages;
        return this;
    }

    /**
     * @param packets    MoldUDP64 packets received on the lines.
     * @param heartbeats heartbeats among them.
     * @param ended      whether the session's end was reached.
     * @return this.
     */
    public DecodeSummaryBuilder packets(final long packets, final long heartbeats, final boolean ended)
    {
        summary.packets = packets;
        summary.heartbeats = heartbeats;
        summary.endOfSession = ended;
        return this;
    }

    /**
     * @param line        0 for A, 1 for B.
     * @param destination its GROUP:PORT.
     * @param packets     received on it.
     * @return this.
     */
    public DecodeSummaryBuilder line(final int line, final String destination, final long packets)
    {
        summary.lineDestinations[line] = destination;
        summary.linePackets[line] = packets;
        return this;
    }

    /**
     * @param session       the MoldUDP64 session id, or null when none was seen.
     * @param otherPackets  packets of other sessions, dropped.
     * @return this.
     */
    public DecodeSummaryBuilder session(final String session, final long otherPackets)
    {
        summary.session = session;
        if (otherPackets > 0)
        {
            summary.otherSessions.put("(other sessions)", otherPackets);
        }
        return this;
    }

    /**
     * @param packets MoldUDP64 packets dropped as malformed, whatever the reason.
     * @return this.
     */
    public DecodeSummaryBuilder malformedPackets(final long packets)
    {
        summary.moldMalformedOther = packets;
        return this;
    }

    /**
     * The frame-level counters of a live capture, as {@code decode} reports them for a pcap.
     *
     * @return this.
     */
    public DecodeSummaryBuilder frames(final long frames, final long udpDatagrams, final long notIpv4,
        final long notUdp, final long fragments, final long otherDestinations, final long malformedFrames)
    {
        summary.frames = frames;
        summary.udpDatagrams = udpDatagrams;
        summary.notIpv4 = notIpv4;
        summary.notUdp = notUdp;
        summary.fragments = fragments;
        summary.otherDestinations = otherDestinations;
        summary.malformedFrames = malformedFrames;
        return this;
    }

    /**
     * @param bytes        received.
     * @param elapsedNanos how long the run took.
     * @return this.
     */
    public DecodeSummaryBuilder volume(final long bytes, final long elapsedNanos)
    {
        summary.bytes = bytes;
        summary.elapsedNanos = elapsedNanos;
        return this;
    }

    /** @return the summary; the builder must not be used afterwards. */
    public DecodeSummary build()
    {
        return summary;
    }
}
