package io.mdgate.core.capture;

import io.mdgate.core.itch.ItchMessageType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What decoding one file found: messages per ITCH type, malformed input by reason, sequence gaps and duplicates,
 * the MoldUDP64 packets and lines of a capture, and how long it took. Filled once by {@link ItchFileDecoder}, then
 * read; {@link #toJson()} gives one JSON object whose keys are stable (scripts parse it) and {@link #toText()} a
 * report for people.
 * <p>
 * For daily and zero-prefixed files the sequence of a message is its 1-based position in the file, so
 * {@code firstSequence}..{@code lastSequence} is 1..N and there are no packets, lines, gaps or duplicates.
 * <p>
 * Not thread-safe: read it on the thread that made it, or after publishing it safely.
 */
public final class DecodeSummary
{
    /** Gap ranges kept in the summary; the count of gaps goes on beyond them. */
    public static final int MAX_GAP_RANGES = 16;

    String file = "";
    ItchFileFormat format;
    boolean compressed;
    boolean compressedStreamTruncated;
    long bytes;

    long messages;
    final long[] counts = new long[256];

    long unknownType;
    long lengthMismatch;
    long truncatedRecords;
    long oversizedRecords;
    long malformedBlocks;
    long truncatedFrames;
    long malformedFrames;
    long moldMalformedHeader;
    long moldBlockOverrun;
    long moldTrailingBytes;
    long moldMalformedOther;
    long skippedBytes;

    long gaps;
    long missingMessages;
    int gapRanges;
    final long[] gapFirst = new long[MAX_GAP_RANGES];
    final long[] gapLast = new long[MAX_GAP_RANGES];

    long duplicateMessages;
    long duplicatePackets;
    long packets;
    long heartbeats;
    boolean endOfSession;
    long unsequencedPackets;
    long heldPackets;
    long firstSequence;
    long lastSequence;

    final String[] lineDestinations = new String[2];
    final long[] linePackets = new long[2];
    String session;
    long sessionChanges;
    final Map<String, Long> otherSessions = new LinkedHashMap<>();

    long frames;
    long udpDatagrams;
    long notIpv4;
    long notUdp;
    long fragments;
    long otherDestinations;
    long notMoldUdp64;
    long unsupportedLinkType;

    long elapsedNanos;

    /** @return the file as given by the caller. */
    public String file()
    {
        return file;
    }

    /** @return the framing the file was read as. */
    public ItchFileFormat format()
    {
        return format;
    }

    public boolean compressed()
    {
        return compressed;
    }

    /** @return true when the gzip stream ended before its trailer. */
    public boolean compressedStreamTruncated()
    {
        return compressedStreamTruncated;
    }

    /** @return bytes of (decompressed) content read. */
    public long bytes()
    {
        return bytes;
    }

    /** @return well-formed ITCH messages delivered, each sequence once. */
    public long messages()
    {
        return messages;
    }

    /** @param type an ITCH type byte such as {@code 'A'}. @return well-formed messages of that type. */
    public long count(final byte type)
    {
        return counts[type & 0xFF];
    }

    /** @param type an ITCH type letter such as {@code 'A'}. @return well-formed messages of that type. */
    public long count(final char type)
    {
        return count((byte)type);
    }

    /**
     * @return every malformed item: ITCH messages with an unknown type or wrong length, records and frames cut
     * short, oversized records, broken capture blocks and frames, and malformed MoldUDP64 packets.
     */
    public long malformed()
    {
        return unknownType + lengthMismatch + truncatedRecords + oversizedRecords + malformedBlocks +
            truncatedFrames + malformedFrames + moldMalformedPackets();
    }

    public long unknownType()
    {
        return unknownType;
    }

    public long lengthMismatch()
    {
        return lengthMismatch;
    }

    /** @return records (file records, capture records or blocks) cut short by the end of the data. */
    public long truncatedRecords()
    {
        return truncatedRecords;
    }

    public long oversizedRecords()
    {
        return oversizedRecords;
    }

    public long malformedBlocks()
    {
        return malformedBlocks;
    }

    /** @return frames whose IP datagram the capture cut short (snapshot length). */
    public long truncatedFrames()
    {
        return truncatedFrames;
    }

    /** @return frames with impossible IPv4 or UDP lengths. */
    public long malformedFrames()
    {
        return malformedFrames;
    }

    public long moldMalformedHeader()
    {
        return moldMalformedHeader;
    }

    public long moldBlockOverrun()
    {
        return moldBlockOverrun;
    }

    public long moldTrailingBytes()
    {
        return moldTrailingBytes;
    }

    public long moldMalformedOther()
    {
        return moldMalformedOther;
    }

    public long moldMalformedPackets()
    {
        return moldMalformedHeader + moldBlockOverrun + moldTrailingBytes + moldMalformedOther;
    }

    /** @return bytes skipped to find the framing again in a zero-prefixed file. */
    public long skippedBytes()
    {
        return skippedBytes;
    }

    /** @return holes in the sequence that neither line filled, declared lost by the feed session. */
    public long gaps()
    {
        return gaps;
    }

    public long missingMessages()
    {
        return missingMessages;
    }

    /** @return gap ranges kept, at most {@link #MAX_GAP_RANGES}. */
    public int gapRanges()
    {
        return gapRanges;
    }

    /** @return the first missing sequence of a kept gap. */
    public long gapFirst(final int index)
    {
        return gapFirst[index];
    }

    /** @return the last missing sequence of a kept gap (inclusive). */
    public long gapLast(final int index)
    {
        return gapLast[index];
    }

    /** @return copies of messages already delivered (the A/B redundancy, or repeats on one line). */
    public long duplicates()
    {
        return duplicateMessages;
    }

    /** @return packets that brought nothing new. */
    public long duplicatePackets()
    {
        return duplicatePackets;
    }

    /** @return MoldUDP64 packets received on the two lines. */
    public long packets()
    {
        return packets;
    }

    public long heartbeats()
    {
        return heartbeats;
    }

    public boolean endOfSession()
    {
        return endOfSession;
    }

    /**
     * @return packets with sequence 0, which MoldUDP64 never assigns: dropped as malformed (they are among
     * {@link #moldMalformedOther()}), never decoded.
     */
    public long unsequencedPackets()
    {
        return unsequencedPackets;
    }

    /** @return packets the feed session held after a gap, waiting for it to fill. */
    public long heldPackets()
    {
        return heldPackets;
    }

    public long firstSequence()
    {
        return firstSequence;
    }

    public long lastSequence()
    {
        return lastSequence;
    }

    /** @param line 0 for A, 1 for B. @return its destination as GROUP:PORT, or null when none was seen. */
    public String lineDestination(final int line)
    {
        return lineDestinations[line];
    }

    /** @param line 0 for A, 1 for B. @return packets received on it. */
    public long linePackets(final int line)
    {
        return linePackets[line];
    }

    /** @return the first MoldUDP64 session the feed session accepted, or null for files without one. */
    public String session()
    {
        return session;
    }

    /** @return times a new session replaced the current one in a capture. */
    public long sessionChanges()
    {
        return sessionChanges;
    }

    /** @return packets of other sessions, dropped, per session id. */
    public Map<String, Long> otherSessions()
    {
        return otherSessions;
    }

    public long frames()
    {
        return frames;
    }

    public long udpDatagrams()
    {
        return udpDatagrams;
    }

    public long notIpv4()
    {
        return notIpv4;
    }

    public long notUdp()
    {
        return notUdp;
    }

    /** @return IP fragments, not reassembled. */
    public long fragments()
    {
        return fragments;
    }

    /** @return UDP datagrams to destinations that are neither line. */
    public long otherDestinations()
    {
        return otherDestinations;
    }

    /** @return UDP datagrams that were not MoldUDP64, seen before both lines were known. */
    public long notMoldUdp64()
    {
        return notMoldUdp64;
    }

    public long unsupportedLinkType()
    {
        return unsupportedLinkType;
    }

    public long elapsedNanos()
    {
        return elapsedNanos;
    }

    /** @return well-formed messages per second of elapsed time, 0 when no time elapsed. */
    public long messagesPerSecond()
    {
        return elapsedNanos <= 0 ? 0 : (long)(messages * 1e9 / elapsedNanos);
    }

    /** @return one JSON object on one line, keys in a fixed order; every ITCH type appears in "counts". */
    public String toJson()
    {
        return DecodeSummaryJson.write(this);
    }

    /** @return a multi-line report for people. */
    public String toText()
    {
        return DecodeSummaryText.write(this);
    }

    @Override
    public String toString()
    {
        return toJson();
    }

    static byte[] types()
    {
        return ItchMessageType.ALL;
    }
}
